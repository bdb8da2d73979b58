/** Create or update an OAuth client; validated with the contract's OAuthClientBody. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import type { CreatedOAuthClient } from '../../../shared/contract';
import { OAuthClientBody, defaultOAuthClientBody, type OAuthClient } from '../../../shared/model/oauth-client';
import { useCreateOAuthClient, useUpdateOAuthClient } from '../../api/oauth-clients';
import { serverIssues } from '../../app/server-issues';
import { Dialog } from '../../components/Dialog';
import { useDiscardGuard } from '../../components/DiscardGuard';
import { Spinner } from '../../components/Spinner';
import { IdentityFields, RegistrationFields, SourceFields, TokenFields } from './OAuthClientFields';
import { clientToBody, type OAuthFormValues } from './oauth-form';

export interface OAuthClientFormDialogProps {
  profileId: string;
  /** The client to edit; absent to create one. */
  client?: OAuthClient | undefined;
  onClose(): void;
  onCreated(created: CreatedOAuthClient): void;
}

export function OAuthClientFormDialog({ profileId, client, onClose, onCreated }: OAuthClientFormDialogProps) {
  const create = useCreateOAuthClient();
  const update = useUpdateOAuthClient();
  const form = useForm<OAuthFormValues, unknown, OAuthClientBody>({
    resolver: zodResolver(OAuthClientBody),
    defaultValues: client ? clientToBody(client) : defaultOAuthClientBody(),
    reValidateMode: 'onChange',
  });
  const dirty = form.formState.isDirty;
  const { requestClose, guard } = useDiscardGuard(() => dirty, onClose);
  const pending = create.isPending || update.isPending;

  const onSubmit = async (body: OAuthClientBody) => {
    try {
      if (client) {
        const updated = await update.mutateAsync({ profileId, clientId: client.client_id, body });
        toast.success(`Updated client “${updated.name}”.`);
        onClose();
      } else {
        const created = await create.mutateAsync({ profileId, body });
        create.reset();
        onCreated(created);
      }
    } catch (e) {
      for (const issue of serverIssues(e, 'body.')) form.setError(issue.path as FieldPath<OAuthFormValues>, { type: 'server', message: issue.message });
    }
  };

  return (
    <>
      <Dialog
        title={client ? `Edit client ${client.name}` : 'New OAuth client'}
        description={client ? <span className="mono">{client.client_id}</span> : 'The node generates the client ID and secret; the secret is shown once.'}
        onClose={requestClose}
        size="lg"
        testId="oauth-client-form"
      >
        <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
          <IdentityFields form={form} />
          <TokenFields form={form} />
          <SourceFields form={form} />
          <RegistrationFields form={form} />
          <div className="form-actions">
            <button type="button" className="button" onClick={requestClose}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={pending}>
              {pending ? <Spinner /> : null}
              {client ? 'Save' : 'Create client'}
            </button>
          </div>
        </form>
      </Dialog>
      {guard}
    </>
  );
}
