import { Dialog } from '../../components/Dialog';

/** Asked when the wizard would close with something typed in it. */
export function ConfirmDiscard({ onKeep, onDiscard }: { onKeep(): void; onDiscard(): void }) {
  return (
    <Dialog
      title="Discard this device?"
      description="What you entered in the wizard has not been sent to the node and will be lost."
      onClose={onKeep}
      size="sm"
      role="alertdialog"
      testId="confirm-discard"
      footer={
        <>
          <button type="button" className="button" onClick={onKeep} data-autofocus>
            Keep editing
          </button>
          <button type="button" className="button button-danger" onClick={onDiscard}>
            Discard
          </button>
        </>
      }
    >
      <p className="muted">Nothing was onboarded.</p>
    </Dialog>
  );
}
