/**
 * The node presents a certificate other than the pinned one. Nothing is trusted here; the
 * operator may inspect the new certificate only after saying they checked it was replaced.
 */
import { ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import type { ProfileView } from '../../../shared/model/profile';
import { Dialog } from '../../components/Dialog';
import { Fingerprint } from './Fingerprint';

export function PinMismatchDialog({
  profile,
  expected,
  actual,
  onClose,
  onInspect,
}: {
  profile: ProfileView;
  expected?: string | undefined;
  actual?: string | undefined;
  onClose(): void;
  onInspect(): void;
}) {
  const [confirmed, setConfirmed] = useState(false);
  const pinned = expected ?? (profile.tls.mode === 'pinned' ? profile.tls.fingerprint256 : undefined);
  return (
    <Dialog
      role="alertdialog"
      tone="danger"
      size="md"
      testId="pin-mismatch-dialog"
      title={
        <span className="title-with-icon">
          <ShieldAlert size={18} aria-hidden="true" /> Certificate does not match the pin
        </span>
      }
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Close
          </button>
          <button type="button" className="button button-danger" disabled={!confirmed} onClick={onInspect}>
            Inspect and re-trust
          </button>
        </>
      }
    >
      <p className="danger-text">
        {profile.host} presented a different certificate from the one pinned for {profile.name}. This could be an attack or a replaced certificate. Nothing was
        trusted and no credentials were sent.
      </p>
      <div className="fingerprint-compare">
        <div>
          <div className="fingerprint-title">Expected (pinned)</div>
          {pinned ? <Fingerprint value={pinned} testId="pin-expected" tone="ok" /> : <p className="muted">Unknown</p>}
        </div>
        <div>
          <div className="fingerprint-title">Presented now</div>
          {actual ? <Fingerprint value={actual} testId="pin-actual" tone="danger" /> : <p className="muted">Unknown</p>}
        </div>
      </div>
      <label className="checkbox-line">
        <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />
        <span>I checked with the node’s administrator that its certificate was replaced, and I want to compare the new one.</span>
      </label>
    </Dialog>
  );
}
