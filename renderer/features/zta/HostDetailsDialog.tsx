/**
 * One host, opened by its Host ID (its own address: `?host=<id>`): why it has its band, its score
 * across cycles, what the vendor reports (attributes, CVEs or signals) and the predefined profiles.
 * Read from main's store (zta.host), so it works offline; "as of" the host's connector's newest cycle.
 */
import { Link } from '@tanstack/react-router';
import { AppError } from '../../../shared/model/errors';
import { useZtaHost } from '../../api/zta';
import { Dialog } from '../../components/Dialog';
import { Loading } from '../../components/QueryState';
import { FalconSignals, HostAttributes, Profiles, Vulnerabilities } from './HostFacts';
import { AsOf } from '../../components/AsOf';
import { BandChip, scoreText, vendorShort } from '../../components/zta-labels';
import { ScoreHistory } from './ScoreHistory';
import { WhyBand } from './WhyBand';

export interface OpenedHost {
  connectorId: string;
  hostId: string;
  hostname: string;
}

export function HostDetailsDialog({ host, onClose, whatIf, customerName }: { host: OpenedHost; onClose(): void; whatIf?: { score: number | null; band: string } | undefined; customerName?: string | undefined }) {
  const q = useZtaHost(host.connectorId, host.hostId);
  const d = q.data;
  return (
    <Dialog
      title={<span className="mono">{d?.host.hostname ?? host.hostname}</span>}
      description={
        d ? (
          <>
            <span className="mono">{d.host.hostId}</span> · {vendorShort[d.host.vendor]} ·{' '}
            <Link to="/connectors" data-testid="zta-host-connector" title={`Open the connector ${d.connectorName} on the Connectors page`}>
              {d.connectorName}
            </Link>{' '}
            · {d.host.platform} · <BandChip band={d.band} /> {d.score === null ? null : <strong>{scoreText(d.score)}</strong>} · <AsOf iso={d.asOf} />
          </>
        ) : (
          <span className="mono">{host.hostId}</span>
        )
      }
      onClose={onClose}
      size="xl"
      testId="zta-host"
    >
      {q.isPending ? (
        <Loading>Loading the host…</Loading>
      ) : q.isError ? (
        <div className="empty" role="alert">
          <p>{q.error instanceof AppError ? q.error.message : 'The host could not be read.'}</p>
          {q.error instanceof AppError && q.error.hint ? <p className="muted">{q.error.hint}</p> : null}
        </div>
      ) : d ? (
        <div className="zta-host">
          {whatIf && whatIf.score !== null ? (
            <p className="zta-whatif-note" role="note">
              Under the what-if’s settings this host would score <strong>{scoreText(whatIf.score)}</strong> ({whatIf.band}). What follows is the stored score.
            </p>
          ) : null}
          <div className="zta-host-columns">
            <div>
              <WhyBand score={d.score} band={d.band} edges={d.bandEdges} contributions={d.contributions} notAssessed={d.notAssessed} />
              <ScoreHistory history={d.history} edges={d.bandEdges} />
            </div>
            <div>
              <HostAttributes host={d.host} customerName={customerName} />
              {d.host.vendor === 'falcon' ? <Profiles profiles={d.profiles} /> : null}
            </div>
          </div>
          {d.host.defender ? <Vulnerabilities list={d.host.defender.vulnerabilities} count={d.host.defender.cveCount} /> : null}
          {d.host.falcon ? <FalconSignals assessment={d.host.falcon.assessment} /> : null}
        </div>
      ) : null}
    </Dialog>
  );
}
