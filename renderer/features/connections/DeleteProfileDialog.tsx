import { toast } from 'sonner';
import type { ProfileView } from '../../../shared/model/profile';
import { useDeleteProfile } from '../../api/connections';
import { ConfirmDialog } from '../../components/ConfirmDialog';

export function DeleteProfileDialog({ profile, onClose }: { profile: ProfileView; onClose(): void }) {
  const del = useDeleteProfile();
  return (
    <ConfirmDialog
      title={`Delete ${profile.name}?`}
      confirmLabel="Delete"
      tone="danger"
      onClose={onClose}
      onConfirm={async () => {
        await del.mutateAsync(profile.id);
        toast.success(`Deleted “${profile.name}”.`);
      }}
    >
      <p>
        The connection to <strong>{profile.host}</strong> is removed with its stored password, client secret and session (OAuth tokens are revoked). This cannot be
        undone.
      </p>
    </ConfirmDialog>
  );
}
