/**
 * The Fleet card of a console joined to a team (issue 25.4, C-89): the workers and whether each is
 * alive (its heartbeat fresher than its lease), the connectors whose poll is due with no worker on
 * it, the leases that lapsed, the alarm collectors with their lag, and whether the team's database
 * and the broker answer — each with the time it was true. Read every 5 s while shown.
 */
import { Link } from '@tanstack/react-router';
import clsx from 'clsx';
import { Server } from 'lucide-react';
import type { ReactNode } from 'react';
import type { FleetCollector, FleetHealth, FleetWorker } from '../../../shared/model/fleet-health';
import { useFleetHealth } from '../../api/overview';
import { AsOf } from '../../components/AsOf';
import { agoSecondsText, agoText, formatCount } from '../../components/format';
import { LoadFailed, Loading } from '../../components/QueryState';
import { useNow } from '../../components/useNow';
import { Tile } from './Tile';

type Joined = Extract<FleetHealth, { state: 'joined' }>;

const connectorsLink = (
  <Link to="/connectors" className="ov-tile-link">
    Connectors
  </Link>
);

export function FleetTile() {
  const q = useFleetHealth(true);
  let body: ReactNode;
  let footer: ReactNode = <span className="muted">Not read yet</span>;
  if (q.isPending) body = <Loading>Reading the fleet’s health from the team’s database…</Loading>;
  else if (q.isError) body = <LoadFailed onRetry={() => void q.refetch()}>The fleet’s health could not be read.</LoadFailed>;
  else if (q.data.state !== 'joined') return null;
  else {
    body = <FleetBody f={q.data} />;
    if (q.data.read) footer = <AsOf className="ov-asof" testId="fleet-asof" iso={q.data.read.asOf} prefix="workers, connectors and collectors as of" />;
  }
  return (
    <Tile id="fleet" title="Fleet" icon={Server} link={connectorsLink} footer={footer} className="ov-tile-wide">
      {body}
    </Tile>
  );
}

function Row({ label, testId, state, children }: { label: string; testId: string; state: 'ok' | 'warn' | 'danger' | 'none'; children: ReactNode }) {
  return (
    <li className="ov-fleet-row" data-testid={testId} data-state={state}>
      <span className="ov-fleet-label">{label}</span>
      <div className="ov-fleet-value">{children}</div>
    </li>
  );
}

const chip = (state: 'ok' | 'warn' | 'danger' | 'none', text: string) => <span className={clsx('chip', { 'chip-ok': state === 'ok', 'chip-warn': state === 'warn', 'chip-danger': state === 'danger' })}>{text}</span>;

function FleetBody({ f }: { f: Joined }) {
  const now = useNow();
  const r = f.read;
  const dbState = f.database.reachable ? 'ok' : 'danger';
  return (
    <ul className="ov-fleet" aria-label="Fleet health">
      <Row label="Database" testId="fleet-database" state={dbState}>
        {chip(dbState, f.database.reachable ? 'reachable' : 'unreachable')} <span className="muted">{f.database.address}</span>{' '}
        {f.database.reachable ? null : <span>{f.database.error ?? 'It does not answer.'} Showing what was last read{r ? ` (${agoText(r.asOf, now)})` : ''}.</span>}{' '}
        <AsOf className="muted" iso={f.database.checkedAt} prefix="checked" />
      </Row>
      <Row label="Broker" testId="fleet-broker" state={f.broker.state === 'unknown' ? 'none' : f.broker.state === 'reachable' ? 'ok' : 'danger'}>
        {f.broker.state === 'unknown' ? (
          <span className="muted">Not known to this console (no RabbitMQ address in Settings → Publication).</span>
        ) : (
          <>
            {chip(f.broker.state === 'reachable' ? 'ok' : 'danger', f.broker.state)} <span className="muted">{f.broker.address}</span>
            {f.broker.error ? <span> {f.broker.error}</span> : null} <AsOf className="muted" iso={f.broker.checkedAt} prefix="checked" />
          </>
        )}
      </Row>
      {r ? <FleetRead r={r} /> : <li className="muted">Nothing has been read from the team’s database yet.</li>}
    </ul>
  );
}

function FleetRead({ r }: { r: NonNullable<Joined['read']> }) {
  const now = useNow();
  const alive = r.workers.filter((w) => w.alive).length;
  const running = r.workers.filter((w) => !w.stopped);
  const wState = running.length === 0 ? 'danger' : alive < running.length ? 'warn' : 'ok';
  return (
    <>
      <Row label="Workers" testId="fleet-workers" state={wState}>
        {r.workers.length === 0 ? (
          <span>No worker has ever started on this database.</span>
        ) : (
          <>
            <strong>
              {alive} of {formatCount(running.length)} alive
            </strong>
            {alive === 0 ? <span> — nothing polls the team’s tenants.</span> : null}
            <ul className="ov-fleet-list" aria-label="Workers">
              {r.workers.map((w) => (
                <WorkerLine key={w.id} w={w} now={now} />
              ))}
            </ul>
          </>
        )}
      </Row>
      <Row label="Connectors" testId="fleet-connectors" state={r.lapsed.length > 0 ? 'danger' : r.withoutWorker.length > 0 ? 'warn' : 'ok'}>
        <span>{formatCount(r.connectors)} enabled</span>
        {' · '}
        <span data-testid="fleet-without-worker">{r.withoutWorker.length === 0 ? 'none waiting for a worker' : `${r.withoutWorker.length} due with no worker`}</span>
        {' · '}
        <span data-testid="fleet-lapsed">{r.lapsed.length === 0 ? 'no lease lapsed' : `${r.lapsed.length} lease${r.lapsed.length === 1 ? '' : 's'} lapsed`}</span>
        {r.withoutWorker.length + r.lapsed.length > 0 ? (
          <ul className="ov-fleet-list" aria-label="Connectors without a live worker">
            {r.lapsed.map((c) => (
              <li key={`l-${c.connectorId}`}>
                <Link to="/connectors" className="ov-fleet-link">{c.name}</Link>: {c.worker ?? 'its worker'}’s lease lapsed {agoText(c.since, now)}
              </li>
            ))}
            {r.withoutWorker.map((c) => (
              <li key={`u-${c.connectorId}`}>
                <Link to="/connectors" className="ov-fleet-link">{c.name}</Link>: due {agoText(c.since, now)}, no worker has taken it
              </li>
            ))}
          </ul>
        ) : null}
      </Row>
      <Row label="Alarm collectors" testId="fleet-collectors" state={r.collectors.length === 0 ? 'none' : r.collectors.every((c) => c.alive) ? 'ok' : 'warn'}>
        {r.collectors.length === 0 ? (
          <span className="muted">No collector has said it runs (alarms follow --database-url).</span>
        ) : (
          <ul className="ov-fleet-list" aria-label="Alarm collectors">
            {r.collectors.map((c) => (
              <CollectorLine key={c.id} c={c} now={now} />
            ))}
          </ul>
        )}
      </Row>
    </>
  );
}

function WorkerLine({ w, now }: { w: FleetWorker; now: number }) {
  return (
    <li data-testid={`fleet-worker-${w.id}`} data-alive={w.alive}>
      <strong>{w.id}</strong> <span className="muted">on {w.host}</span>{' '}
      {w.stopped ? chip('none', 'stopped') : w.alive ? chip('ok', 'alive') : chip('danger', 'not alive')}{' '}
      <span className="muted">
        {w.alive ? `${w.running} running, ` : ''}heartbeat {agoSecondsText(w.heartbeatAt, now)}
        {!w.alive && !w.stopped ? ` (lease ${w.leaseSeconds} s)` : ''}
      </span>
      {w.lastError ? <span className="muted"> · last error: {w.lastError}</span> : null}
    </li>
  );
}

function CollectorLine({ c, now }: { c: FleetCollector; now: number }) {
  return (
    <li data-testid={`fleet-collector-${c.id}`} data-alive={c.alive}>
      <strong>{c.source.replace(/^node:/, '')}</strong> <span className="muted">on {c.host}</span>{' '}
      {c.stopped ? chip('none', 'stopped') : c.alive ? chip(c.connected ? 'ok' : 'warn', c.connected ? (c.state ?? 'alive') : 'not connected') : chip('danger', 'not alive')}{' '}
      <span className="muted">
        lag {c.lagMs === null ? '—' : c.lagMs < 1000 ? `${Math.round(c.lagMs)} ms` : `${(c.lagMs / 1000).toFixed(1)} s`}
        {c.backlog !== null ? `, ${formatCount(c.backlog)} queued` : ''}, last stored {c.lastStoredAt ? agoText(c.lastStoredAt, now) : 'nothing yet'}, heartbeat {agoSecondsText(c.heartbeatAt, now)}
      </span>
      {c.lastError ? <span className="muted"> · {c.lastError}</span> : null}
    </li>
  );
}
