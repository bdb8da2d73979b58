import { toast } from 'sonner';
import type { ProfileView } from '../../../shared/model/profile';
import { useDeleteProfile } from '../../api/mutations';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';

export function DeleteProfileDialog({ profile, onClose }: { profile: ProfileView; onClose(): void }) {
  const del = useDeleteProfile();
  const confirm = async () => {
    try {
      await del.mutateAsync(profile.id);
      toast.success(`Deleted “${profile.name}”.`);
      onClose();
    } catch {
      // reported by the query client
    }
  };
  return (
    <Dialog
      role="alertdialog"
      size="sm"
      title={`Delete ${profile.name}?`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={() => void confirm()} disabled={del.isPending}>
            {del.isPending ? <Spinner /> : null}
            Delete
          </button>
        </>
      }
    >
      <p>
        The connection to <strong>{profile.host}</strong> is removed with its stored password, client secret and session (OAuth tokens are revoked). This cannot be
        undone.
      </p>
    </Dialog>
  );
}
