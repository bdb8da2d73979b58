/**
 * The add/edit form's values and how they become a `connectors.save` request. The form is flat
 * (one set of fields, some shown per vendor); `ConnectorInput` (a discriminated union) validates
 * it and drops the other vendor's fields. Empty optional boxes become undefined so they are not
 * sent: an empty secret keeps the stored one, empty URLs keep the vendors' defaults. The risk
 * scoring boxes become overrides of only what differs from the defaults (`risk-form.ts`).
 */
import type { Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ConnectorInput, FALCON_DEFAULT_POLL, type ConnectorView, type FalconRegion, type ParsedConnectorInput } from '../../../shared/model/connector';
import type { Vendor } from '../../../shared/model/edr';
import { emptyRiskForm, riskFormValues, riskOverrides, type RiskFormValues } from './risk-form';

export interface ConnectorFormValues {
  vendor: Vendor;
  name?: string | undefined;
  enabled: boolean;
  tenantId: string;
  clientId: string;
  clientSecret?: string | undefined;
  cloudRegion?: FalconRegion | undefined;
  pollIntervalMinutes?: number | undefined;
  apiUrl?: string | undefined;
  idpUrl?: string | undefined;
  risk: RiskFormValues;
}

/** For register(..., { setValueAs }): "" and blanks mean "not given". */
export const optionalText = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
export const optionalNumber = (v: unknown) => {
  if (v === '' || v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isNaN(n) ? undefined : n;
};

const strip = (values: ConnectorFormValues): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (k === 'risk') continue;
    const clean = k === 'pollIntervalMinutes' ? optionalNumber(v) : k === 'clientSecret' ? (v === '' ? undefined : v) : optionalText(v);
    if (clean !== undefined) out[k] = clean;
  }
  const risk = riskOverrides(values.risk, values.vendor);
  if (risk) out.risk = risk;
  return out;
};

const zod = zodResolver(ConnectorInput) as unknown as Resolver<Record<string, unknown>, unknown, ParsedConnectorInput>;

/** zodResolver(ConnectorInput) on the cleaned values; error paths are the flat field names. */
export const connectorResolver: Resolver<ConnectorFormValues, unknown, ParsedConnectorInput> = (values, context, options) =>
  zod(strip(values), context, options as never) as ReturnType<Resolver<ConnectorFormValues, unknown, ParsedConnectorInput>>;

export function connectorDefaults(view?: ConnectorView): ConnectorFormValues {
  if (!view) return { vendor: 'falcon', name: '', enabled: true, tenantId: '', clientId: '', clientSecret: '', cloudRegion: 'autodiscover', pollIntervalMinutes: FALCON_DEFAULT_POLL, apiUrl: '', idpUrl: '', risk: emptyRiskForm() };
  return {
    vendor: view.vendor,
    name: view.name,
    enabled: view.enabled,
    tenantId: view.tenantId,
    clientId: view.clientId,
    clientSecret: '',
    cloudRegion: view.cloudRegion ?? 'autodiscover',
    pollIntervalMinutes: view.pollIntervalMinutes,
    apiUrl: view.apiUrl ?? '',
    idpUrl: view.idpUrl ?? '',
    risk: riskFormValues(view.risk),
  };
}

/** The parsed values as a request: no TLS default (main keeps its own), the id when editing. */
export function toSaveRequest(values: ParsedConnectorInput, id: string | undefined): ConnectorInput {
  const { tls: _tls, id: _id, ...rest } = values;
  return { ...rest, ...(id ? { id } : {}) };
}

/**
 * True when saving these values points the connector at another tenant, region or address than
 * its stored secret was entered for: main then needs the secret again (it never sends the
 * stored one elsewhere), so the form asks for it before the round trip.
 */
export function connectorMovesSecret(view: ConnectorView | undefined, values: Pick<ConnectorFormValues, 'tenantId' | 'cloudRegion' | 'apiUrl' | 'idpUrl'>): boolean {
  if (!view?.hasClientSecret) return false;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  return (
    text(values.tenantId).toLowerCase() !== view.tenantId.toLowerCase() ||
    (view.vendor === 'falcon' && (values.cloudRegion ?? 'autodiscover') !== (view.cloudRegion ?? 'autodiscover')) ||
    text(values.apiUrl) !== (view.apiUrl ?? '') ||
    (view.vendor === 'defender' && text(values.idpUrl) !== (view.idpUrl ?? ''))
  );
}
