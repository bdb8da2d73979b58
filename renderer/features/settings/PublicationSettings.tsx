/**
 * Where risk scores are published besides the signed-in management node: the RabbitMQ address
 * (`edr.amqpUrl`). The password goes to main's vault and never comes back (the form shows only
 * that one is stored); it is bound to the address's scheme, host, port and virtual host.
 */
import { Save, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import { usePublication, useUpdatePublication } from '../../api/settings';
import { serverIssues } from '../../app/server-issues';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SwitchField, TextField } from '../../components/Field';
import { Spinner } from '../../components/Spinner';
import { SettingsCardState } from './SettingsCardState';
import { dropsPassword, publicationDefaults, publicationResolver, toPublicationRequest, type PublicationFormOutput, type PublicationFormValues } from './publication-form';

export function PublicationSettings() {
  const publication = usePublication();
  const view = publication.data;
  const update = useUpdatePublication();
  const form = useForm<PublicationFormValues, unknown, PublicationFormOutput>({ resolver: publicationResolver, defaultValues: publicationDefaults(view), mode: 'onSubmit', reValidateMode: 'onChange' });
  const { register, handleSubmit, setError, formState, control, reset } = form;
  const errors = formState.errors;
  const [amqpUrl, password] = useWatch({ control, name: ['amqpUrl', 'password'] });
  const drops = dropsPassword(view, amqpUrl ?? '', password ?? '');
  const stored = view?.amqp.hasPassword && !drops;
  const [confirmRemove, setConfirmRemove] = useState(false);

  // The stored address fills the form once it is read (and after every save).
  useEffect(() => {
    if (view) reset(publicationDefaults(view));
  }, [view, reset]);

  const save = async (values: PublicationFormOutput) => {
    try {
      const next = await update.mutateAsync(toPublicationRequest(values));
      toast.success(next.amqp.url ? 'RabbitMQ address saved. The next publication uses it.' : 'RabbitMQ address removed.');
    } catch (e) {
      const issues = serverIssues(e);
      for (const i of issues) setError(i.path as FieldPath<PublicationFormValues>, { type: 'server', message: i.message });
      if (!issues.length) setError('root.server', { type: 'server', message: e instanceof Error ? e.message : String(e) });
    }
  };
  // Resolves when removed; rejects (the dialog stays) when main refused.
  const remove = async () => {
    try {
      await update.mutateAsync({ amqpUrl: '' });
    } catch (e) {
      toast.error('The RabbitMQ address was not removed.', { description: e instanceof Error ? e.message : String(e) });
      throw e;
    }
    toast.success('RabbitMQ address removed.');
  };

  if (!view) return <SettingsCardState titleId="publication-title" title="Publication" what="publication settings" error={publication.error} />;
  const a = view.amqp;
  return (
    <section className="card" aria-labelledby="publication-title" data-testid="publication-settings">
      <h2 id="publication-title">Publication</h2>
      <p className="muted">
        Risk scores go to the signed-in management node and, when an address is set, to the RabbitMQ topic exchange <span className="mono">{a.exchange}</span>.
      </p>
      <p className="publication-status" role="status" data-testid="publication-status">
        {a.active === 'environment' ? (
          <>
            <span className="chip chip-ok">RabbitMQ configured</span> from the environment: <span className="mono">{a.environmentUrl}</span>
          </>
        ) : a.active === 'settings' ? (
          <>
            <span className="chip chip-ok">RabbitMQ configured</span> <span className="mono">{a.url}</span>
            {a.hasPassword ? ' with a stored password' : ''}
          </>
        ) : (
          <>
            <span className="chip">RabbitMQ not configured</span> Scores go to the management node only.
          </>
        )}
      </p>
      {a.active === 'environment' ? (
        <p className="callout callout-warn" data-testid="publication-env-override">
          <strong>NORTHBOUND_AMQP_URL overrides this setting.</strong>
          <span>The app was started with the environment variable set, so the address below is not used until it starts without it.</span>
        </p>
      ) : null}
      {a.problem ? (
        <p className="callout callout-error" role="alert">
          <strong>Publication to RabbitMQ cannot work.</strong>
          <span>{a.problem}</span>
        </p>
      ) : null}
      <form className="form" onSubmit={handleSubmit(save)} noValidate aria-label="Publication to RabbitMQ">
        <TextField
          label="RabbitMQ address"
          placeholder="amqp://user@rabbit.example.com:5672/vhost"
          autoComplete="off"
          spellCheck={false}
          {...register('amqpUrl')}
          error={errors.amqpUrl?.message}
          hint="amqp:// or amqps:// (TLS), the user, host, port and virtual host. Empty: no RabbitMQ. A password written here moves to the vault."
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          placeholder={stored ? '•••• stored' : ''}
          // A typed password can make the address wrong (no user in it): check both.
          {...register('password', { deps: ['amqpUrl'] })}
          error={errors.password?.message}
          hint={stored ? 'Leave empty to keep the stored password.' : 'Kept in the vault; this window never sees it again.'}
        />
        {a.hasPassword && !drops ? <SwitchField label="Forget the stored password" {...register('forgetPassword')} /> : null}
        {drops ? (
          <p className="callout callout-warn" role="status" data-testid="publication-password-dropped">
            <strong>Saving removes the stored password.</strong>
            <span>It was entered for {a.url}, and is never sent to another scheme, host, port or virtual host: type it again above.</span>
          </p>
        ) : null}
        {errors.root?.server ? (
          <p className="field-error" role="alert">
            {errors.root.server.message}
          </p>
        ) : null}
        <div className="settings-actions">
          <button type="submit" className="button button-primary" disabled={update.isPending || !formState.isDirty}>
            {update.isPending ? <Spinner /> : <Save size={14} aria-hidden="true" />}
            Save address
          </button>
          {a.url ? (
            <button type="button" className="button" onClick={() => setConfirmRemove(true)} disabled={update.isPending}>
              <Trash2 size={14} aria-hidden="true" />
              Remove
            </button>
          ) : null}
        </div>
      </form>
      {confirmRemove ? (
        <ConfirmDialog title="Remove the RabbitMQ address?" confirmLabel="Remove" tone="danger" onConfirm={remove} onClose={() => setConfirmRemove(false)}>
          <p>
            Scores are no longer published to <span className="mono">{a.url}</span>
            {a.hasPassword ? ', and its stored password is deleted' : ''}. Scores still go to the signed-in management node.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
