import type { CertificateInfo } from '../../../shared/model/profile';
import { DateTime } from '../../components/Time';
import { useNow } from '../../components/useNow';

export function CertificateDetails({ cert }: { cert: CertificateInfo }) {
  const now = useNow();
  const notYet = Date.parse(cert.validFrom) > now;
  const expired = Date.parse(cert.validTo) < now;
  return (
    <dl className="details">
      <dt>Host</dt>
      <dd className="mono" data-testid="cert-host">
        {cert.host}:{cert.port}
      </dd>
      <dt>Subject</dt>
      <dd className="mono">{cert.subject}</dd>
      <dt>Issuer</dt>
      <dd className="mono">{cert.issuer}</dd>
      {cert.altNames ? (
        <>
          <dt>Alt names</dt>
          <dd className="mono">{cert.altNames}</dd>
        </>
      ) : null}
      <dt>Valid</dt>
      <dd>
        <DateTime iso={cert.validFrom} /> – <DateTime iso={cert.validTo} />
        {expired ? <span className="chip chip-danger">expired</span> : null}
        {notYet ? <span className="chip chip-danger">not yet valid</span> : null}
      </dd>
      <dt>Self-signed</dt>
      <dd>{cert.selfSigned ? 'Yes' : 'No'}</dd>
      <dt>System CAs</dt>
      <dd>{cert.trustedBySystem ? 'Chain verifies against the system CAs' : 'Not trusted by the system CAs'}</dd>
    </dl>
  );
}
