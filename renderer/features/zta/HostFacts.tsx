/**
 * What the vendor gave for one host: every attribute of its record, Defender's vulnerabilities
 * (CVE, CVSS, severity; virtualized, a host can carry hundreds), Falcon's OS and sensor signals
 * grouped by their group name with the failing groups and signals first, and the two predefined
 * profiles of spec 2.4 (Falcon hosts).
 */
import clsx from 'clsx';
import { Copy } from 'lucide-react';
import type { ReactNode } from 'react';
import type { FalconAssessment, HostRecord } from '../../../shared/model/edr';
import { FALCON_PROFILES } from '../../../shared/risk';
import { copyText } from '../../components/CopyButton';
import { DateTime } from '../../components/Time';
import { Table } from '../../components/Table';
import { vendorShort, words } from '../../components/zta-labels';

const text = (v: string | number | boolean | null | undefined): ReactNode =>
  v === null || v === undefined || v === '' ? <span className="muted">not reported</span> : typeof v === 'boolean' ? (v ? 'yes' : 'no') : typeof v === 'string' && /^[A-Z][a-z]+[A-Z]/.test(v) ? words(v) : String(v);

function Attributes({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="details zta-attributes">
      {items.map(([k, v]) => (
        <div key={k} className="zta-attribute">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

const time = (iso: string | null) => (iso ? <DateTime iso={iso} /> : <span className="muted">not reported</span>);

/** A whole ID, and a button that copies it. */
function IdValue({ id, what }: { id: string; what: string }) {
  return (
    <span className="zta-id-value">
      <span className="mono">{id}</span>
      <button type="button" className="icon-button zta-id-copy" aria-label={`Copy the ${what.toLowerCase()}`} title={`Copy the ${what.toLowerCase()}`} onClick={() => void copyText(id, what)}>
        <Copy size={14} aria-hidden="true" />
      </button>
    </span>
  );
}

/** What the vendor reports of the host; `customerName`: its customer's name where the console knows one (customer-names.ts). */
export function HostAttributes({ host, customerName }: { host: HostRecord; customerName?: string | undefined }) {
  const d = host.defender;
  const f = host.falcon;
  const common: Array<[string, ReactNode]> = [
    ['Hostname', host.hostname],
    ['Host ID', <IdValue id={host.hostId} what="Host ID" />],
    ['Vendor', vendorShort[host.vendor]],
    ...(customerName ? ([['Customer', customerName]] as Array<[string, ReactNode]>) : []),
    ['Customer ID', <IdValue id={host.customerId} what="Customer ID" />],
    ['Platform', host.platform],
    ['OS version', text(host.osVersion)],
    ['Last seen', time(host.lastSeen)],
  ];
  const vendor: Array<[string, ReactNode]> = d
    ? [
        ['Risk level', text(d.riskScore)],
        ['Exposure level', text(d.exposureLevel)],
        ['Health status', text(d.healthStatus)],
        ['AV status', text(d.avStatus)],
        ['Onboarding', text(d.onboardingStatus)],
        ['Critical CVEs', text(d.criticalCveCount)],
        ['All CVEs', text(d.cveCount)],
        ['Highest CVSS', text(d.maxCvss)],
      ]
    : f
      ? [
          ['Overall assessment', text(f.assessment?.overall)],
          ['OS assessment', text(f.assessment?.os)],
          ['Sensor assessment', text(f.assessment?.sensor_config)],
          ['Assessment version', text(f.assessment?.version)],
          ['Sensor running', text(f.sensorRunning)],
          ['Reduced functionality mode', text(f.reducedFunctionalityMode)],
          ['Agent version', text(f.agentVersion)],
        ]
      : [];
  return (
    <section className="zta-facts" aria-labelledby="zta-facts-title" data-testid="zta-attributes">
      <h3 id="zta-facts-title">What {vendorShort[host.vendor]} reports</h3>
      <Attributes items={[...common, ...vendor]} />
    </section>
  );
}

type Cve = NonNullable<NonNullable<HostRecord['defender']>['vulnerabilities']>[number];
const SEVERITY_TONE: Record<string, string> = { Critical: 'tone-danger', High: 'tone-danger', Medium: 'tone-warn', Low: '' };

export function Vulnerabilities({ list, count }: { list: Cve[] | undefined; count: number }) {
  return (
    <section aria-labelledby="zta-cves-title" data-testid="zta-cves">
      <h3 id="zta-cves-title">
        Vulnerabilities <span className="count">{count}</span>
      </h3>
      {!list ? (
        <p className="muted">The list of this host’s CVEs was not kept with its record; only the counts above are known.</p>
      ) : list.length === 0 ? (
        <p className="muted">Defender lists no vulnerability on this machine.</p>
      ) : (
        <Table
          label="Vulnerabilities"
          columns={[
            { id: 'cve', header: 'CVE', cell: (v: Cve) => <span className="mono">{v.cveId}</span> },
            { id: 'cvss', header: 'CVSS', cell: (v: Cve) => (v.cvss === null ? <span className="muted">—</span> : v.cvss.toFixed(1)) },
            { id: 'severity', header: 'Severity', cell: (v: Cve) => <span className={SEVERITY_TONE[v.severity ?? ''] ?? ''}>{v.severity ?? '—'}</span> },
          ]}
          rows={[...list].sort((a, b) => (b.cvss ?? -1) - (a.cvss ?? -1))}
          rowKey={(v) => v.cveId}
          template="minmax(150px, 1fr) 70px 100px"
          size={{ maxHeight: 240 }}
          testIds={{ scroll: 'zta-cve-table' }}
          rowTestId={() => 'zta-cve'}
        />
      )}
    </section>
  );
}

type Signal = FalconAssessment['os_signals'][number];
const ORDER = { no: 0, unknown: 1, yes: 2 } as const;
const MEETS = { no: 'fails', unknown: 'unknown', yes: 'meets' } as const;

/** Signals by group name; groups with failing signals first (most first), then by name; in a group failing first. */
export function groupSignals(signals: readonly Signal[]): Array<{ name: string; failing: number; signals: Signal[] }> {
  const groups = new Map<string, Signal[]>();
  for (const s of signals) {
    const name = s.group_name?.trim() || 'Other';
    groups.set(name, [...(groups.get(name) ?? []), s]);
  }
  return [...groups]
    .map(([name, list]) => ({ name, failing: list.filter((s) => s.meets_criteria === 'no').length, signals: list.sort((a, b) => ORDER[a.meets_criteria] - ORDER[b.meets_criteria] || a.signal_id.localeCompare(b.signal_id)) }))
    .sort((a, b) => b.failing - a.failing || a.name.localeCompare(b.name));
}

function SignalGroups({ title, signals }: { title: string; signals: readonly Signal[] }) {
  const groups = groupSignals(signals);
  return (
    <div className="zta-signals" data-testid={`zta-signals-${title.toLowerCase().split(' ')[0]}`}>
      <h4>
        {title} <span className="count">{signals.length}</span>
      </h4>
      {groups.length === 0 ? <p className="muted">None reported.</p> : null}
      {groups.map((g) => (
        <details key={g.name} open={g.failing > 0} className="zta-signal-group">
          <summary>
            {g.name} <span className={g.failing ? 'chip chip-danger' : 'chip chip-ok'}>{g.failing ? `${g.failing} failing` : 'all met'}</span>
          </summary>
          <ul>
            {g.signals.map((s) => (
              <li key={s.signal_id} className={clsx('zta-signal', `meets-${s.meets_criteria}`)}>
                <span className={s.meets_criteria === 'no' ? 'tone-danger' : s.meets_criteria === 'yes' ? 'tone-ok' : 'muted'}>{MEETS[s.meets_criteria]}</span>
                <span>{s.criteria ?? s.signal_id}</span>
                {s.criteria ? <span className="mono muted">{s.signal_id}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}

export function FalconSignals({ assessment }: { assessment: FalconAssessment | null }) {
  return (
    <section aria-labelledby="zta-signals-title">
      <h3 id="zta-signals-title">Falcon’s signals</h3>
      {assessment ? (
        <>
          <SignalGroups title="OS signals" signals={assessment.os_signals} />
          <SignalGroups title="Sensor signals" signals={assessment.sensor_signals} />
        </>
      ) : (
        <p className="muted">Falcon has not assessed this host yet.</p>
      )}
    </section>
  );
}

export function Profiles({ profiles }: { profiles: Record<string, boolean> | null }) {
  return (
    <section aria-labelledby="zta-profiles-title" data-testid="zta-profiles">
      <h3 id="zta-profiles-title">Predefined profiles</h3>
      <ul className="zta-profiles">
        {FALCON_PROFILES.map((p) => {
          const passed = profiles?.[p.profile];
          return (
            <li key={p.profile}>
              <span className={passed === undefined ? 'chip' : passed ? 'chip chip-ok' : 'chip chip-danger'}>{passed === undefined ? 'not evaluated' : passed ? 'passes' : 'fails'}</span>
              <span>
                {p.checks}
                <span className="mono muted zta-profile-id">{p.profile}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
