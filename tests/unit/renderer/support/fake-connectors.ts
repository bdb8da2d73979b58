/**
 * The connectors.* channels in memory, for FakeBridge: connectors with status, a poll that
 * starts a cycle (edr.progress "starting") and stays running until the test drives it with
 * `progress()` / `finish()` or the operator cancels, and per-connector test results.
 */
import type { ConnectorStatus, ConnectorTestResult, CycleProgress, EventName, EventPayload, ParsedRequestOf, ResponseOf } from '../../../../shared/contract';
import { BulkConnectorDocument, ConnectorInput, type ConnectorView } from '../../../../shared/model/connector';
import { AppError, ErrorCodes } from '../../../../shared/model/errors';

type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export function makeConnector(c: Partial<ConnectorStatus> & { name: string }): ConnectorStatus {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    id: c.id ?? `c-${c.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    vendor: 'falcon',
    enabled: true,
    tenantId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
    clientId: 'client-1',
    cloudRegion: 'autodiscover',
    pollIntervalMinutes: 10,
    hasClientSecret: true,
    source: 'ui',
    createdAt: at,
    updatedAt: at,
    running: false,
    ...c,
  };
}

const OK_CHECKS: ConnectorTestResult = {
  ok: true,
  checks: [
    { name: 'token', ok: true, message: 'The client credentials were accepted.' },
    { name: 'permissions', ok: true, message: 'The API client has the scopes it needs.' },
    { name: 'hosts', ok: true, message: 'Read a first page of hosts.' },
  ],
};

export class FakeConnectors {
  list: ConnectorStatus[];
  readonly tests = new Map<string, ConnectorTestResult>();
  private cycleSeq = 100;
  private seq = 0;

  constructor(
    initial: ConnectorStatus[],
    private readonly emit: Emit,
    private readonly now: () => number,
  ) {
    this.list = [...initial];
  }

  get(id: string): ConnectorStatus {
    const c = this.list.find((x) => x.id === id);
    if (!c) throw new AppError(ErrorCodes.notFound, 'That connector no longer exists.', 'Pick another connector from the list.');
    return c;
  }

  private put(c: ConnectorStatus): ConnectorStatus {
    this.list = this.list.some((x) => x.id === c.id) ? this.list.map((x) => (x.id === c.id ? c : x)) : [...this.list, c];
    return c;
  }

  private view(c: ConnectorStatus): ConnectorView {
    const { running: _r, progress: _p, nextCycleAt: _n, lastCycle: _l, ...view } = c;
    return view;
  }

  save(input: ParsedRequestOf<'connectors.save'>): ResponseOf<'connectors.save'> {
    const existing = input.id ? this.get(input.id) : undefined;
    if (this.list.some((c) => c.vendor === input.vendor && c.tenantId.toLowerCase() === input.tenantId.toLowerCase() && c.id !== existing?.id)) {
      throw new AppError(ErrorCodes.validation, `A connector for tenant "${input.tenantId}" already exists.`, 'Edit the existing connector instead.', {
        details: { issues: [{ path: 'tenantId', message: 'Another connector already polls this tenant.' }] },
      });
    }
    if (!existing && input.clientSecret === undefined) {
      throw new AppError(ErrorCodes.validation, 'The request is not valid. clientSecret: Enter the client secret.', 'Correct the highlighted fields and try again.', {
        details: { issues: [{ path: 'clientSecret', message: 'Enter the client secret.' }] },
      });
    }
    this.seq += 1;
    const at = new Date(this.now()).toISOString();
    const next = makeConnector({
      ...(existing ?? { id: `c-${this.seq}`, createdAt: at, nextCycleAt: new Date(this.now() + input.pollIntervalMinutes * 60_000).toISOString() }),
      name: input.name || existing?.name || input.tenantId,
      vendor: input.vendor,
      enabled: input.enabled,
      tenantId: input.tenantId,
      clientId: input.clientId,
      pollIntervalMinutes: input.pollIntervalMinutes,
      hasClientSecret: input.clientSecret !== undefined || (existing?.hasClientSecret ?? false),
      updatedAt: at,
    });
    delete next.cloudRegion;
    delete next.apiUrl;
    delete next.idpUrl;
    delete next.risk; // like main: a save without risk stores none (defaults)
    if (input.vendor === 'falcon') next.cloudRegion = input.cloudRegion;
    if (input.apiUrl) next.apiUrl = input.apiUrl;
    if (input.vendor === 'defender' && input.idpUrl) next.idpUrl = input.idpUrl;
    if (input.risk && Object.keys(input.risk).length > 0) next.risk = input.risk;
    this.put(next);
    this.emit('connectors.changed', { ids: [next.id] });
    return this.view(next);
  }

  /** What `GET /mgmt/edr/connectors` of the (fake) management node serves. */
  nodeDocument: unknown = { version: 1, connectors: [] };

  /** The bulk push: each entry validated with the real schema and saved on its own, results by index. */
  importBulk(req: ParsedRequestOf<'connectors.importBulk'>): ResponseOf<'connectors.importBulk'> {
    let doc: unknown;
    if (req.source === 'node') doc = this.nodeDocument;
    else {
      try {
        doc = JSON.parse(req.text);
      } catch (e) {
        throw new AppError(ErrorCodes.validation, `The connector document is not valid JSON (${(e as Error).message}).`, 'Export it again from the management node.');
      }
    }
    const parsed = BulkConnectorDocument.safeParse(doc);
    if (!parsed.success) throw new AppError(ErrorCodes.validation, `The request is not valid. ${parsed.error.issues[0]?.message ?? ''}`, 'The document must be {"version":1,"connectors":[...]}.');
    return parsed.data.connectors.map((entry, index) => {
      const input = ConnectorInput.safeParse(entry);
      const raw = (entry ?? {}) as { vendor?: unknown; tenantId?: unknown };
      const who = { ...(typeof raw.vendor === 'string' ? { vendor: raw.vendor } : {}), ...(typeof raw.tenantId === 'string' ? { tenantId: raw.tenantId } : {}) };
      if (!input.success) {
        const issues = input.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
        return { index, ok: false, ...who, error: { message: `The request is not valid. ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues } };
      }
      const existing = this.list.find((c) => c.vendor === input.data.vendor && c.tenantId.toLowerCase() === input.data.tenantId.toLowerCase());
      try {
        const saved = this.save({ ...input.data, ...(existing ? { id: existing.id } : {}) });
        this.put({ ...this.get(saved.id), source: 'bulk' });
        return { index, ok: true, id: saved.id, vendor: saved.vendor, tenantId: saved.tenantId, action: existing ? ('updated' as const) : ('created' as const) };
      } catch (e) {
        const err = e as AppError;
        return { index, ok: false, ...who, error: { message: err.message, issues: (err.details?.issues as Array<{ path: string; message: string }> | undefined) ?? [] } };
      }
    });
  }

  remove(id: string): { deleted: boolean } {
    const before = this.list.length;
    this.list = this.list.filter((c) => c.id !== id);
    this.emit('connectors.changed', { ids: [id] });
    return { deleted: this.list.length < before };
  }

  setEnabled(id: string, enabled: boolean): ConnectorView {
    const c = this.put({ ...this.get(id), enabled });
    return this.view(c);
  }

  test(id: string): ConnectorTestResult {
    this.get(id);
    return this.tests.get(id) ?? OK_CHECKS;
  }

  pollNow(id: string): { cycleId: number } {
    const c = this.get(id);
    if (c.running && c.progress) return { cycleId: c.progress.cycleId };
    this.cycleSeq += 1;
    const progress: CycleProgress = { connectorId: id, cycleId: this.cycleSeq, phase: 'starting', done: 0, total: null };
    this.put({ ...c, running: true, progress });
    this.emit('edr.progress', progress);
    return { cycleId: this.cycleSeq };
  }

  /** Move the running cycle on (as main's poller would), and tell the window. */
  progress(id: string, p: Omit<CycleProgress, 'connectorId' | 'cycleId'>): void {
    const c = this.get(id);
    const progress: CycleProgress = { connectorId: id, cycleId: c.progress?.cycleId ?? ++this.cycleSeq, ...p };
    this.put({ ...c, running: true, progress });
    this.emit('edr.progress', progress);
  }

  /** End the running cycle with this status. */
  finish(id: string, status: 'completed' | 'failed' | 'cancelled', opts: { hosts?: number; error?: string; published?: boolean } = {}): void {
    const c = this.get(id);
    const cycleId = c.progress?.cycleId ?? ++this.cycleSeq;
    const at = new Date(this.now()).toISOString();
    const { progress: _p, ...rest } = c;
    this.put({
      ...rest,
      running: false,
      lastCycle: { id: cycleId, status, startedAt: at, finishedAt: at, hosts: opts.hosts ?? 0, error: opts.error ?? null, publishedAt: opts.published ? at : null },
      nextCycleAt: new Date(this.now() + c.pollIntervalMinutes * 60_000).toISOString(),
    });
    this.emit('edr.progress', { connectorId: id, cycleId, phase: status, done: opts.hosts ?? 0, total: opts.hosts ?? null });
  }

  cancel(id: string): { cancelled: boolean } {
    const c = this.get(id);
    if (!c.running) return { cancelled: false };
    this.finish(id, 'cancelled', { hosts: c.progress?.done ?? 0 });
    return { cancelled: true };
  }
}
