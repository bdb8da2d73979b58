/**
 * The one confirmation for consequential actions (deploy, redeploy, a bulk run that writes to the
 * node, sign-out, delete): it names what will happen, opens with focus on Cancel (the safe action),
 * so Enter never confirms by accident, and shows the action's progress. `onConfirm` resolves when
 * the action is done (the dialog then closes) and rejects when it failed (it stays open; the
 * failure is reported by the query client).
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { Dialog } from './Dialog';
import { Spinner } from './Spinner';

export interface ConfirmDialogProps {
  title: string;
  /** What will happen, in words. */
  children: ReactNode;
  /** The confirming button's label: the action itself ("Redeploy", "Delete"). */
  confirmLabel: string;
  tone?: 'default' | 'danger';
  onConfirm(): Promise<unknown>;
  onClose(): void;
  testId?: string;
}

export function ConfirmDialog({ title, children, confirmLabel, tone = 'default', onConfirm, onClose, testId = 'confirm-dialog' }: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const confirm = async () => {
    setPending(true);
    try {
      await onConfirm();
      onClose();
    } catch {
      setPending(false);
    }
  };
  return (
    <Dialog
      role="alertdialog"
      size="sm"
      title={title}
      onClose={onClose}
      testId={testId}
      footer={
        <>
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button type="button" className={tone === 'danger' ? 'button button-danger' : 'button button-primary'} onClick={() => void confirm()} disabled={pending}>
            {pending ? <Spinner /> : null}
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
