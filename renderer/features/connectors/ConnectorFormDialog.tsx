/** Add or edit an EDR connector. The dialog stays open with everything typed on any error. */
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import { FALCON_DEFAULT_POLL, FalconRegion, NotAssessedPublication, POLL_MAX, POLL_MIN, type ConnectorView, type ParsedConnectorInput } from '../../../shared/model/connector';
import type { Vendor } from '../../../shared/model/edr';
import { useSaveConnector, useConnectors } from '../../api/connectors';
import { serverIssues } from '../../app/server-issues';
import { Dialog } from '../../components/Dialog';
import { useDiscardGuard } from '../../components/DiscardGuard';
import { ChoiceOption, SelectField, SwitchField, TextField } from '../../components/Field';
import { Spinner } from '../../components/Spinner';
import { connectorDefaults, connectorResolver, secretNeedOf, toSaveRequest, type ConnectorFormValues } from './connector-form';
import { NOT_ASSESSED_CHOICES, regionLabel, vendorLabel } from '../../components/connector-labels';
import { RiskSettingsFields } from '../../components/RiskSettingsFields';

const vendors: { id: Vendor; hint: string }[] = [
  { id: 'falcon', hint: 'API client from the Falcon console with Hosts: Read and Zero Trust Assessment: Read.' },
  { id: 'defender', hint: 'Entra ID app registration with five Application permissions and admin consent: Machine.Read.All, Vulnerability.Read.All, Alert.Read.All, discovery.manage, discovery.read.' },
];

export function ConnectorFormDialog({ connector, onClose }: { connector?: ConnectorView | undefined; onClose(): void }) {
  const save = useSaveConnector();
  // The registered connectors decide, as in main, whether the client secret is needed.
  // useForm takes the resolver of each render, so a list that loads after the form opened counts.
  const registered = useConnectors().data;
  const resolver = useMemo(() => connectorResolver(registered ?? [], connector), [registered, connector]);
  const form = useForm<ConnectorFormValues, unknown, ParsedConnectorInput>({
    resolver,
    defaultValues: connectorDefaults(connector),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, setError, clearErrors, setValue, getValues, getFieldState, formState, control } = form;
  const errors = formState.errors;
  // isDirty read here (in render) so the form tracks it; Escape, the close button and Cancel ask before dropping it.
  const dirty = formState.isDirty;
  const { requestClose, guard } = useDiscardGuard(() => dirty, onClose);
  const vendor = useWatch({ control, name: 'vendor' });
  const notAssessed = useWatch({ control, name: 'notAssessed' });
  const [advanced, setAdvanced] = useState(!!(connector?.apiUrl ?? connector?.idpUrl));
  const showAdvanced = advanced || !!errors.apiUrl || !!errors.idpUrl;

  const chooseVendor = (next: Vendor) => {
    clearErrors();
    // Defender has no default interval (spec 2.1): an untouched Falcon default must not carry over.
    const poll = getValues('pollIntervalMinutes');
    const touched = getFieldState('pollIntervalMinutes').isDirty;
    if (next === 'defender' && !touched && poll === FALCON_DEFAULT_POLL) setValue('pollIntervalMinutes', undefined);
    if (next === 'falcon' && (poll === undefined || Number.isNaN(poll))) setValue('pollIntervalMinutes', FALCON_DEFAULT_POLL);
  };

  const [tenantId, cloudRegion, apiUrl, idpUrl] = useWatch({ control, name: ['tenantId', 'cloudRegion', 'apiUrl', 'idpUrl'] });
  const need = secretNeedOf(registered ?? [], connector, { vendor, tenantId, cloudRegion, apiUrl, idpUrl });
  const moved = need === 'endpoint-changed';

  const onSubmit = async (values: ParsedConnectorInput) => {
    try {
      const view = await save.mutateAsync(toSaveRequest(values, connector?.id));
      toast.success(connector ? `Saved “${view.name}”.` : `Added “${view.name}”.`, {
        description: view.enabled ? 'Use Test to check the credentials, or Poll now to start a cycle.' : 'It is disabled: it will not poll until you enable it.',
      });
      onClose();
    } catch (e) {
      for (const issue of serverIssues(e)) setError(issue.path as FieldPath<ConnectorFormValues>, { type: 'server', message: issue.message });
    }
  };

  // No need: a secret is stored for the connector this save updates, and it stays with it.
  const secretStored = need === undefined;
  return (
    <>
      <Dialog
        title={connector ? `Edit ${connector.name}` : 'Add connector'}
        description="An EDR tenant to poll for device risk. The client secret goes to the vault and never comes back to this window."
        onClose={requestClose}
        size="lg"
        testId="connector-form"
      >
        <form className="form" onSubmit={handleSubmit(onSubmit)} noValidate>
          <fieldset className="radio-group">
            <legend>Vendor</legend>
            <div className="radio-row">
              {vendors.map((v) => (
                <ChoiceOption
                  key={v.id}
                  type="radio"
                  value={v.id}
                  label={vendorLabel[v.id]}
                  hint={v.hint}
                  disabled={!!connector && connector.vendor !== v.id}
                  {...register('vendor', { onChange: (e: { target: { value: Vendor } }) => chooseVendor(e.target.value) })}
                />
              ))}
            </div>
          </fieldset>
          <div className="form-grid form-grid-4">
            <TextField label="Name" autoComplete="off" placeholder="Defaults to the tenant ID" {...register('name')} error={errors.name?.message} className="span-2" />
            <TextField
              label="Tenant ID"
              autoComplete="off"
              spellCheck={false}
              placeholder={vendor === 'defender' ? 'GUID or contoso.onmicrosoft.com' : 'Falcon customer ID (CID)'}
              {...register('tenantId')}
              error={errors.tenantId?.message}
              className="span-2"
            />
            <TextField label="Client ID" autoComplete="off" spellCheck={false} {...register('clientId')} error={errors.clientId?.message} className="span-2" />
            <TextField
              label="Client secret"
              type="password"
              autoComplete="new-password"
              placeholder={secretStored ? '•••• stored' : ''}
              hint={
                secretStored
                  ? connector
                    ? 'Leave empty to keep the stored secret.'
                    : 'This tenant is registered already: saving updates it; leave empty to keep its stored secret.'
                  : moved
                    ? 'The stored secret is only sent where it was entered for: enter it again for the new tenant, region or address.'
                    : undefined
              }
              {...register('clientSecret')}
              error={errors.clientSecret?.message}
              className="span-2"
            />
            {vendor === 'falcon' ? (
              <SelectField label="Cloud region" {...register('cloudRegion')} error={errors.cloudRegion?.message} className="span-2" hint="Autodiscover follows the API’s redirect to your cloud.">
                {FalconRegion.options.map((r) => (
                  <option key={r} value={r}>
                    {regionLabel[r]}
                  </option>
                ))}
              </SelectField>
            ) : null}
            <TextField
              label="Poll interval (minutes)"
              type="number"
              inputMode="numeric"
              min={POLL_MIN}
              max={POLL_MAX}
              {...register('pollIntervalMinutes', { valueAsNumber: true })}
              error={errors.pollIntervalMinutes?.message}
              hint={vendor === 'falcon' ? `${POLL_MIN} to ${POLL_MAX}; default ${FALCON_DEFAULT_POLL}.` : `${POLL_MIN} to ${POLL_MAX}; required for Defender.`}
            />
            <SwitchField label="Enabled" hint="Poll on schedule." {...register('enabled')} className="span-2 connector-enabled-field" />
            <SelectField
              label="Hosts not assessed"
              {...register('notAssessed')}
              error={errors.notAssessed?.message}
              className="span-all connector-not-assessed-field"
              hint={`What the SD-WAN receives for a host ${vendor === 'falcon' ? 'Falcon has no Zero Trust Assessment for' : 'Defender reported no risk, exposure, AV or health state for'} yet. ${NOT_ASSESSED_CHOICES[notAssessed ?? 'fail-closed'].hint}`}
            >
              {NotAssessedPublication.options.map((o) => (
                <option key={o} value={o}>
                  {NOT_ASSESSED_CHOICES[o].option}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="disclosure">
            <button type="button" className="button button-ghost button-small" aria-expanded={showAdvanced} aria-controls="connector-advanced" onClick={() => setAdvanced(!showAdvanced)}>
              {showAdvanced ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
              Advanced
            </button>
            {showAdvanced ? (
              <div className="form-grid form-grid-4" id="connector-advanced">
                <TextField label="API URL" type="url" autoComplete="off" spellCheck={false} placeholder="Vendor default" {...register('apiUrl')} error={errors.apiUrl?.message} className="span-2" hint="Only for private clouds and tests." />
                {vendor === 'defender' ? (
                  <TextField label="Identity provider URL" type="url" autoComplete="off" spellCheck={false} placeholder="https://login.microsoftonline.com" {...register('idpUrl')} error={errors.idpUrl?.message} className="span-2" />
                ) : null}
              </div>
            ) : null}
          </div>
          <RiskSettingsFields form={form} vendor={vendor} />
          <div className="form-actions">
            <button type="button" className="button" onClick={requestClose}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              {save.isPending ? <Spinner /> : null}
              Save
            </button>
          </div>
        </form>
      </Dialog>
      {guard}
    </>
  );
}
