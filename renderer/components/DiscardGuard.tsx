/**
 * A half-filled form is never lost silently: `useDiscardGuard(unsaved, onClose)` gives a dialog
 * the close request to use for Escape, its close button and its Cancel; when `unsaved()` says
 * something was typed, it asks "Discard changes?" first (focus on Keep editing) instead of closing.
 */
import { useState, type ReactNode } from 'react';
import { Dialog } from './Dialog';

export function useDiscardGuard(unsaved: () => boolean, onClose: () => void): { requestClose(): void; guard: ReactNode } {
  const [asking, setAsking] = useState(false);
  const requestClose = () => {
    if (unsaved()) setAsking(true);
    else onClose();
  };
  const guard = asking ? (
    <Dialog
      title="Discard changes?"
      description="What you typed has not been saved and will be lost."
      onClose={() => setAsking(false)}
      size="sm"
      role="alertdialog"
      testId="confirm-discard"
      footer={
        <>
          <button type="button" className="button" onClick={() => setAsking(false)} data-autofocus>
            Keep editing
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              setAsking(false);
              onClose();
            }}
          >
            Discard
          </button>
        </>
      }
    >
      <p className="muted">Nothing was sent.</p>
    </Dialog>
  ) : null;
  return { requestClose, guard };
}
