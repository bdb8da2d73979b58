/**
 * Settings → Team (issue 25.1): the team's PostgreSQL this console joins. Test says what the
 * database answers (the role, each store's schema); Join switches ZTA, Overview, Alarms, the
 * activity log and Connectors to the team's store; Leave returns to this desk's own data. The
 * password goes to main's vault, bound to the server, user and trust, and never comes back.
 */
import { FileKey, LogIn, LogOut, PlugZap, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { readCaFile } from '../../components/ca-file';
import type { TeamCheck } from '../../../shared/model/team';
import { AppError } from '../../../shared/model/errors';
import { useInspectTeam, useJoinTeam, useLeaveTeam, useTeam, useTestTeam, useTrustTeam } from '../../api/team';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ChoiceOption, FieldMessage, TextField } from '../../components/Field';
import { formatBytes } from '../../components/format';
import { Spinner } from '../../components/Spinner';
import { SettingsCardState } from './SettingsCardState';
import { keepsPassword, teamDefaults, teamResolver, toTeamRequest, type TeamFormValues } from './team-form';
import type { TeamInput } from '../../../shared/model/team';

const trustOptions = [
  { mode: 'system', label: 'System CAs', hint: 'The server’s certificate must chain to a CA this computer trusts.' },
  { mode: 'custom-ca', label: 'Custom CA file', hint: 'The PEM file of the CA that signed the server’s certificate.' },
  { mode: 'pinned', label: 'Pin certificate', hint: 'Compare the server’s SHA-256 fingerprint with the database owner’s once, then accept only that certificate.' },
  { mode: 'off', label: 'No TLS (this machine only)', hint: 'For a server on 127.0.0.1, ::1 or localhost.' },
] as const;

const roleText = { northbound_console: 'console (reads the team’s stores)', northbound_admin: 'admin (also registers connectors)' } as const;

function problemOf(e: unknown): { message: string; hint?: string } {
  return e instanceof AppError ? { message: e.message, hint: e.hint } : { message: e instanceof Error ? e.message : String(e) };
}

export function TeamSettings() {
  const team = useTeam();
  const view = team.data;
  const test = useTestTeam();
  const join = useJoinTeam();
  const leave = useLeaveTeam();
  const inspect = useInspectTeam();
  const trust = useTrustTeam();
  const form = useForm<TeamFormValues, unknown, TeamFormValues>({ resolver: teamResolver, defaultValues: teamDefaults(view), mode: 'onSubmit', reValidateMode: 'onChange' });
  const { register, handleSubmit, formState, control, reset, setValue, setError, clearErrors } = form;
  const errors = formState.errors;
  const values = useWatch({ control }) as TeamFormValues;
  const [checked, setChecked] = useState<TeamCheck | undefined>();
  const [problem, setProblem] = useState<{ message: string; hint?: string } | undefined>();
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [picked, setPicked] = useState<{ name: string; size: number } | undefined>();
  const fileId = useId();
  const keeps = keepsPassword(view, values);

  useEffect(() => {
    if (view) reset(teamDefaults(view));
  }, [view, reset]);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setPicked({ name: file.name, size: file.size });
    const read = await readCaFile(file);
    if ('error' in read) {
      setValue('caPem', undefined);
      setError('caPem', { type: 'client', message: read.error });
      return;
    }
    clearErrors('caPem');
    setValue('caName', file.name, { shouldDirty: true });
    setValue('caPem', read.pem, { shouldDirty: true });
  };

  const run = (what: 'test' | 'join') =>
    handleSubmit(async (v) => {
      setProblem(undefined);
      setChecked(undefined);
      const req = toTeamRequest(v) as TeamInput;
      try {
        if (what === 'test') setChecked(await test.mutateAsync(req));
        else {
          const joined = await join.mutateAsync(req);
          toast.success(`Joined the team as ${joined.user}. The views now read the team’s store.`);
        }
      } catch (e) {
        setProblem(problemOf(e));
      }
    });

  const inspectNow = async () => {
    setProblem(undefined);
    inspect.reset();
    try {
      await inspect.mutateAsync({ host: values.host.trim(), port: Number(values.port) });
    } catch (e) {
      setProblem(problemOf(e));
    }
  };
  const trustNow = async (fingerprint256: string) => {
    setProblem(undefined);
    try {
      await trust.mutateAsync({ host: values.host.trim(), port: Number(values.port), database: values.database.trim(), user: values.user.trim(), fingerprint256 });
      inspect.reset();
      toast.success('Certificate pinned. Test or join with it.');
    } catch (e) {
      setProblem(problemOf(e));
    }
  };
  const pinnedHere = view?.tls?.mode === 'pinned' && view.host === values.host.trim() && String(view.port) === values.port.trim() ? view.tls.fingerprint256 : undefined;

  const doLeave = async () => {
    await leave.mutateAsync();
    toast.success('Left the team. The views read this desk’s own data again.');
  };

  if (!view) return <SettingsCardState titleId="team-title" title="Team" what="team settings" error={team.error} />;
  const busy = test.isPending || join.isPending || leave.isPending || inspect.isPending || trust.isPending;
  return (
    <section className="card" aria-labelledby="team-title" data-testid="team-settings">
      <h2 id="team-title">Team</h2>
      <p className="muted">Join a team’s PostgreSQL as a console: its workers poll and score the tenants, its collectors store the alarms, and this console reads what they stored.</p>
      <p className="publication-status" role="status" data-testid="team-status">
        {view.joined ? (
          <>
            <span className="chip chip-ok">Joined</span> <span className="mono">{`${view.user ?? ''}@${view.host ?? ''}:${view.port ?? ''}/${view.database ?? ''}`}</span>
            {view.role ? ` as ${roleText[view.role]}` : ''}. This desk polls and publishes nothing while joined.
          </>
        ) : (
          <>
            <span className="chip">Not joined</span> The views read this desk’s own data.
          </>
        )}
      </p>
      {view.joined && view.readOnlyReason ? <p className="muted" data-testid="team-read-only">{view.readOnlyReason}</p> : null}
      <form className="form" onSubmit={run('join')} noValidate aria-label="Team database">
        <TextField label="Host" placeholder="db.example.com" autoComplete="off" spellCheck={false} {...register('host')} error={errors.host?.message} />
        <TextField label="Port" inputMode="numeric" autoComplete="off" {...register('port')} error={errors.port?.message} />
        <TextField label="Database" autoComplete="off" spellCheck={false} {...register('database')} error={errors.database?.message} />
        <TextField label="Database user" autoComplete="off" spellCheck={false} {...register('user')} error={errors.user?.message} hint="A user the database owner made a member of northbound_console or northbound_admin." />
        <TextField
          label="Database password"
          type="password"
          autoComplete="new-password"
          placeholder={keeps ? '•••• stored' : ''}
          {...register('password')}
          error={errors.password?.message}
          hint={keeps ? 'Leave empty to keep the stored password.' : view.hasPassword ? 'The stored password was entered for another server, user or trust: type it again.' : 'Kept in the vault; this window never sees it again.'}
        />
        <fieldset className="radio-group">
          <legend>TLS trust</legend>
          <div className="radio-grid">
            {trustOptions.map((o) => (
              <ChoiceOption key={o.mode} type="radio" value={o.mode} label={o.label} hint={o.hint} {...register('tlsMode')} />
            ))}
          </div>
          {errors.tlsMode?.message ? <p className="field-error">{errors.tlsMode.message}</p> : null}
          {values.tlsMode === 'custom-ca' ? (
            <div className="field">
              <label htmlFor={fileId}>CA certificate file (PEM)</label>
              <input id={fileId} type="file" accept=".pem,.crt,.cer,application/x-pem-file,application/x-x509-ca-cert,text/plain" aria-invalid={errors.caPem ? true : undefined} aria-describedby={`${fileId}-msg`} onChange={(e) => void pick(e.target.files?.[0])} />
              <FieldMessage
                id={fileId}
                error={errors.caPem?.message}
                hint={
                  picked ? (
                    <>
                      <FileKey size={12} aria-hidden="true" /> {picked.name}, {formatBytes(picked.size)}
                    </>
                  ) : view.tls?.mode === 'custom-ca' ? (
                    `Using ${view.tls.caName ?? 'the stored CA'}. Choose a file only to replace it.`
                  ) : (
                    'The file is read by this window; its certificates are kept with the team’s settings.'
                  )
                }
              />
            </div>
          ) : null}
          {values.tlsMode === 'pinned' ? (
            <div className="field" data-testid="team-pin">
              {pinnedHere ? (
                <p className="field-hint">
                  Pinned: <code className="mono">{pinnedHere}</code>
                </p>
              ) : (
                <p className="field-hint">No certificate of this server is pinned yet: inspect it and compare the fingerprint with the database owner’s.</p>
              )}
              {view.joined ? null : (
                <div className="settings-actions">
                  <button type="button" className="button" onClick={() => void inspectNow()} disabled={busy || !values.host.trim()}>
                    {inspect.isPending ? <Spinner /> : <ShieldCheck size={14} aria-hidden="true" />}
                    Inspect certificate
                  </button>
                </div>
              )}
              {inspect.data ? (
                <div className="callout" role="status" data-testid="team-certificate">
                  <strong>{inspect.data.subject}</strong>
                  <span>
                    SHA-256 <code className="mono">{inspect.data.fingerprint256}</code>
                  </span>
                  <span>
                    Issued by {inspect.data.issuer}
                    {inspect.data.selfSigned ? ' (self-signed)' : ''}
                  </span>
                  <button type="button" className="button button-primary" onClick={() => void trustNow(inspect.data.fingerprint256)} disabled={busy}>
                    Trust this certificate
                  </button>
                </div>
              ) : null}
            </div>
          ) : null}
        </fieldset>
        {problem ? (
          <p className="callout callout-error" role="alert" data-testid="team-problem">
            <strong>{problem.message}</strong>
            {problem.hint ? <span>{problem.hint}</span> : null}
          </p>
        ) : null}
        {checked ? (
          <p className="callout" role="status" data-testid="team-check">
            <strong>
              Connected in {checked.latencyMs} ms to PostgreSQL {checked.serverVersion} as {roleText[checked.role]}.
            </strong>
            <span>Schema: {checked.stores.map((s) => `${s.store} ${s.version}`).join(', ')}.</span>
          </p>
        ) : null}
        <div className="settings-actions">
          <button type="button" className="button" onClick={() => void run('test')()} disabled={busy}>
            {test.isPending ? <Spinner /> : <PlugZap size={14} aria-hidden="true" />}
            Test
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {join.isPending ? <Spinner /> : <LogIn size={14} aria-hidden="true" />}
            {view.joined ? 'Join again' : 'Join'}
          </button>
          {view.joined ? (
            <button type="button" className="button" onClick={() => setConfirmLeave(true)} disabled={busy}>
              <LogOut size={14} aria-hidden="true" />
              Leave
            </button>
          ) : null}
        </div>
      </form>
      {confirmLeave ? (
        <ConfirmDialog title="Leave the team?" confirmLabel="Leave" onConfirm={doLeave} onClose={() => setConfirmLeave(false)}>
          <p>The views read this desk’s own data again, as it was when the console joined, and this desk’s connectors are polled again. The team’s server and password stay saved.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
