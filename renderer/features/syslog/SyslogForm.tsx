/**
 * Add a syslog server (spec 2.4): host, port, enabled, validated with the shared SyslogServer
 * schema and, in the window, against the servers listed (the node keeps one per host); a field
 * the node refuses anyway shows under its input.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { useMemo } from 'react';
import { useForm, type FieldPath, type FieldErrors, type Resolver } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { SyslogServer, syslogHostTaken, syslogHostTakenMessage } from '../../../shared/model/inventory';
import { useCreateSyslogServer } from '../../api/inventory';
import { SwitchField, TextField } from '../../components/Field';
import { Spinner } from '../../components/Spinner';
import { issuesOf } from '../../components/wizard-model';

type Values = z.input<typeof SyslogServer>;
const FIELDS = new Set(['host', 'port', 'enabled']);
const zod = zodResolver(SyslogServer) as Resolver<Values, unknown, SyslogServer>;

/** The schema, plus the node's one-server-per-host rule against the servers the window lists. */
const syslogResolver =
  (servers: readonly SyslogServer[]): Resolver<Values, unknown, SyslogServer> =>
  async (values, context, options) => {
    const result = await zod(values, context, options);
    if (result.errors.host || !syslogHostTaken(servers, String(values.host ?? ''))) return result;
    return { values: {}, errors: { ...result.errors, host: { type: 'client', message: syslogHostTakenMessage(String(values.host)) } } as FieldErrors<Values> };
  };

export function SyslogForm({ profileId, disabled, servers }: { profileId: string; disabled: boolean; servers: readonly SyslogServer[] }) {
  const create = useCreateSyslogServer();
  // useForm takes the resolver of each render: a list that loads or changes later counts.
  const resolver = useMemo(() => syslogResolver(servers), [servers]);
  const form = useForm<Values, unknown, SyslogServer>({ resolver, defaultValues: { host: '', port: 514, enabled: true }, reValidateMode: 'onChange' });
  const { register, handleSubmit, formState, setError, reset } = form;
  const errors = formState.errors;

  const onSubmit = async (server: SyslogServer) => {
    try {
      await create.mutateAsync({ profileId, server });
      toast.success(`Added syslog server ${server.host}:${server.port}.`);
      reset({ host: '', port: 514, enabled: true });
    } catch (e) {
      const issues = issuesOf(e).map((i) => ({ ...i, path: i.path.replace(/^server\./, '') }));
      const placed = issues.filter((i) => FIELDS.has(i.path));
      for (const i of placed) setError(i.path as FieldPath<Values>, { type: 'server', message: i.message });
      if (!placed.length) setError('root.server', { type: 'server', message: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <form className="card syslog-form" onSubmit={handleSubmit(onSubmit)} noValidate aria-labelledby="syslog-form-title" data-testid="syslog-form">
      <h2 id="syslog-form-title">Add a syslog server</h2>
      <div className="syslog-fields">
        <TextField label="Host" autoComplete="off" spellCheck={false} placeholder="syslog.example.net or 10.0.0.5" {...register('host')} error={errors.host?.message} />
        <TextField label="Port" type="number" inputMode="numeric" min={1} max={65535} {...register('port', { valueAsNumber: true })} error={errors.port?.message} hint="UDP/TCP port, usually 514." className="syslog-port" />
        <SwitchField label="Enabled" {...register('enabled')} />
        <button type="submit" className="button button-primary syslog-submit" disabled={create.isPending || disabled}>
          {create.isPending ? <Spinner /> : <Plus size={14} aria-hidden="true" />}
          Add server
        </button>
      </div>
      {errors.root?.server ? (
        <p className="field-error" role="alert">
          {errors.root.server.message}
        </p>
      ) : null}
    </form>
  );
}
