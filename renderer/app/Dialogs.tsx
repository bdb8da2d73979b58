/** The app-wide dialogs, driven by the UI store so any error or button can open them. */
import { useProfiles } from '../api/connections';
import { DeleteProfileDialog } from '../features/connections/DeleteProfileDialog';
import { ProfileFormDialog } from '../features/connections/ProfileFormDialog';
import { PinMismatchDialog } from '../features/certificates/PinMismatchDialog';
import { TrustDialog } from '../features/certificates/TrustDialog';
import { useUi } from '../stores/ui';

export function Dialogs() {
  const dialog = useUi((s) => s.dialog);
  const close = useUi((s) => s.closeDialog);
  const open = useUi((s) => s.openDialog);
  const profiles = useProfiles();
  if (!dialog) return null;
  if (dialog.kind === 'profile-form') {
    const profile = dialog.profileId ? profiles.data?.find((p) => p.id === dialog.profileId) : undefined;
    if (dialog.profileId && !profile) return null;
    return <ProfileFormDialog key={dialog.profileId ?? 'new'} profile={profile} onClose={close} />;
  }
  const profile = profiles.data?.find((p) => p.id === dialog.profileId);
  if (!profile) return null;
  switch (dialog.kind) {
    case 'delete-profile':
      return <DeleteProfileDialog profile={profile} onClose={close} />;
    case 'trust':
      return <TrustDialog key={profile.id} profile={profile} certificate={dialog.certificate} onClose={close} />;
    case 'pin-mismatch':
      return <PinMismatchDialog profile={profile} expected={dialog.expected} actual={dialog.actual} onClose={close} onInspect={() => open({ kind: 'trust', profileId: profile.id })} />;
  }
}
