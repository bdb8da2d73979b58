/** The one moment the client secret is visible. It lives only in this dialog's props. */
import { TriangleAlert } from 'lucide-react';
import type { CreatedOAuthClient } from '../../../shared/contract';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';

export const SECRET_ONCE_TEXT = 'This secret is shown once. Store it now.';

export function CreatedClientDialog({ created, onClose }: { created: CreatedOAuthClient; onClose(): void }) {
  return (
    <Dialog
      role="alertdialog"
      title={`Client “${created.client.name}” created`}
      onClose={onClose}
      size="md"
      testId="created-client-dialog"
      footer={
        <button type="button" className="button button-primary" onClick={onClose}>
          Done
        </button>
      }
    >
      <div className="callout callout-warn" role="note">
        <TriangleAlert size={16} aria-hidden="true" />
        <strong>{SECRET_ONCE_TEXT}</strong>
        <span>Northbound keeps no copy. Put it in your password manager, or in a connection profile as its OAuth client secret.</span>
      </div>
      <div className="secret-field">
        <div className="secret-label">Client ID</div>
        <div className="secret-row">
          <code className="secret-value" data-testid="created-client-id">
            {created.client.client_id}
          </code>
          <CopyButton value={created.client.client_id} label="Copy client ID" what="Client ID" />
        </div>
      </div>
      <div className="secret-field">
        <div className="secret-label">Client secret</div>
        <div className="secret-row">
          <code className="secret-value" data-testid="created-client-secret">
            {created.clientSecret}
          </code>
          <CopyButton value={created.clientSecret} label="Copy secret" what="Secret" />
        </div>
      </div>
    </Dialog>
  );
}
