/**
 * Trust on first use: fetch the certificate the node presents (tls.inspect), show it for
 * comparison, and pin exactly that fingerprint (tls.trust). Main refuses the pin if the node
 * presents another certificate by then (tls.pin_mismatch → the red dialog).
 */
import { ShieldCheck } from 'lucide-react';
import { toast } from 'sonner';
import type { CertificateInfo, ProfileView } from '../../../shared/model/profile';
import { AppError } from '../../../shared/model/errors';
import { useTrustCertificate, useTlsInspect } from '../../api/certificates';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { CertificateDetails } from './CertificateDetails';
import { Fingerprint } from './Fingerprint';
import { Loading } from '../../components/QueryState';

export const COMPARE_TEXT = 'Compare this fingerprint with the one shown on the node (System > Certificates) before trusting it.';

export function TrustDialog({ profile, certificate, onClose }: { profile: ProfileView; certificate?: CertificateInfo | undefined; onClose(): void }) {
  const inspect = useTlsInspect(profile.id);
  const trust = useTrustCertificate();
  const cert = inspect.data ?? (inspect.isError ? certificate : undefined);
  const pinnedNow = profile.tls.mode === 'pinned' && profile.tls.fingerprint256 === cert?.fingerprint256;

  const onTrust = async () => {
    if (!cert) return;
    try {
      await trust.mutateAsync({ profileId: profile.id, fingerprint256: cert.fingerprint256 });
      toast.success(`Certificate pinned for ${profile.name}.`, { description: 'Only this certificate is accepted from now on.' });
      onClose();
    } catch {
      // tls.pin_mismatch opens its own dialog; others are toasts.
    }
  };

  const inspectError = inspect.error instanceof AppError ? inspect.error : undefined;

  return (
    <Dialog
      title="Trust certificate"
      description={`${profile.name} · ${profile.host}`}
      onClose={onClose}
      size="md"
      testId="trust-dialog"
      footer={
        <>
          {/* Focus starts on Cancel: trusting must be a deliberate choice, not a stray Enter. */}
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button type="button" className="button button-primary" onClick={() => void onTrust()} disabled={!cert || trust.isPending}>
            {trust.isPending ? <Spinner /> : <ShieldCheck size={14} aria-hidden="true" />}
            Trust this certificate
          </button>
        </>
      }
    >
      {inspect.isPending && !cert ? (
        <Loading>Fetching the certificate the node presents…</Loading>
      ) : null}
      {inspectError ? (
        <div className="callout callout-error" role="alert">
          <strong>{inspectError.message}</strong>
          <span>{inspectError.hint}</span>
          <button type="button" className="button button-small" onClick={() => void inspect.refetch()}>
            Try again
          </button>
        </div>
      ) : null}
      {cert ? (
        <>
          <CertificateDetails cert={cert} />
          <div className="fingerprint-box">
            <div className="fingerprint-title">SHA-256 fingerprint</div>
            <Fingerprint value={cert.fingerprint256} testId="cert-fingerprint" />
          </div>
          <p className="compare-text">{COMPARE_TEXT}</p>
          {pinnedNow ? <p className="field-hint">This certificate is already pinned for this connection.</p> : null}
        </>
      ) : null}
    </Dialog>
  );
}
