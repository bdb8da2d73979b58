/**
 * The add/edit form's values and how they become a `connectors.save` request. The form is flat
 * (one set of fields, some shown per vendor); `ConnectorInput` (a discriminated union) validates
 * it and drops the other vendor's fields. Empty optional boxes become undefined so they are not
 * sent: an empty secret keeps the stored one, empty URLs keep the vendors' defaults. The risk
 * scoring boxes become overrides of only what differs from the defaults (`risk-form.ts`).
 */
import type { FieldErrors, Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ConnectorInput, DEFAULT_NOT_ASSESSED, FALCON_DEFAULT_POLL, notAssessedOf, type ConnectorView, type FalconRegion, type NotAssessedPublication, type ParsedConnectorInput } from '../../../shared/model/connector';
import { CLIENT_SECRET_MESSAGES, clientSecretNeed, findRegisteredConnector, type ClientSecretNeed } from '../../../shared/model/connector-secret';
import type { Vendor } from '../../../shared/model/edr';
import { emptyRiskForm, riskFormValues, riskOverrides, type RiskFormValues } from '../../components/risk-form';

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
  /** What is published for hosts not assessed (EDR-N2). */
  notAssessed: NotAssessedPublication;
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

type SecretFields = Pick<ConnectorFormValues, 'vendor' | 'tenantId' | 'cloudRegion' | 'apiUrl' | 'idpUrl'>;

/**
 * Whether saving these values needs the client secret, by main's own rule (C-12,
 * shared/model/connector-secret.ts): none stored for the connector the save updates, or the
 * tenant, region or an address moved away from what the stored one was entered for. `registered`
 * is the connectors list the window shows; `editing` the connector of an Edit form.
 */
export function secretNeedOf(registered: readonly ConnectorView[], editing: ConnectorView | undefined, values: SecretFields, secretGiven = false): ClientSecretNeed | undefined {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const next = {
    vendor: values.vendor,
    tenantId: text(values.tenantId),
    cloudRegion: values.cloudRegion,
    apiUrl: optionalText(values.apiUrl) as string | undefined,
    idpUrl: optionalText(values.idpUrl) as string | undefined,
  };
  const list = editing && !registered.some((c) => c.id === editing.id) ? [...registered, editing] : registered;
  const existing = findRegisteredConnector(list, { id: editing?.id, vendor: next.vendor, tenantId: next.tenantId });
  return clientSecretNeed({ registered: existing, next, secretGiven });
}

/**
 * zodResolver(ConnectorInput) on the cleaned values (error paths are the flat field names), plus
 * the client secret rule main applies: every field is checked in the window before a request.
 */
export function connectorResolver(registered: readonly ConnectorView[], editing: ConnectorView | undefined): Resolver<ConnectorFormValues, unknown, ParsedConnectorInput> {
  return async (values, context, options) => {
    const result = (await zod(strip(values), context, options as never)) as Awaited<ReturnType<Resolver<ConnectorFormValues, unknown, ParsedConnectorInput>>>;
    const need = secretNeedOf(registered, editing, values, !!values.clientSecret);
    if (!need || result.errors.clientSecret) return result;
    const errors = { ...result.errors, clientSecret: { type: 'client', message: CLIENT_SECRET_MESSAGES[need] } } as FieldErrors<ConnectorFormValues>;
    return { values: {}, errors };
  };
}

export function connectorDefaults(view?: ConnectorView): ConnectorFormValues {
  if (!view) return { vendor: 'falcon', name: '', enabled: true, tenantId: '', clientId: '', clientSecret: '', cloudRegion: 'autodiscover', pollIntervalMinutes: FALCON_DEFAULT_POLL, apiUrl: '', idpUrl: '', notAssessed: DEFAULT_NOT_ASSESSED, risk: emptyRiskForm() };
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
    notAssessed: notAssessedOf(view),
    risk: riskFormValues(view.risk),
  };
}

/** The parsed values as a request: no TLS default (main keeps its own), the id when editing. */
export function toSaveRequest(values: ParsedConnectorInput, id: string | undefined): ConnectorInput {
  const { tls: _tls, id: _id, ...rest } = values;
  return { ...rest, ...(id ? { id } : {}) };
}
