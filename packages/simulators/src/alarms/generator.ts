/**
 * The event generator of the simulated node (issue 12): alarm changes at a steady rate, bursts
 * on top of it, and flapping interfaces (down and up again within 2 s, which a 5-second status
 * poll never sees). Seeded, so a run can be repeated; timers run on real time, changes carry the
 * simulator clock's time.
 */
import { rng } from '../falcon/tenant';
import { SLOTS, TYPE_BY_NAME, type SimAlarmType } from './catalog';
import { isCleared, latest, type SimAlarmEvent, type SimAlarms, type SimSeverity } from './model';

export interface AlarmGeneratorOptions {
  /** Alarm changes per second; 0 = only bursts, flaps and explicit steps. */
  ratePerSecond?: number;
  /** Every `everyMs`, `size` changes at once on top of the rate. */
  burst?: { everyMs: number; size: number };
  /** On average one flapping interface every this many ms (0 = none). */
  flapEveryMs?: number;
  /** How long a flapping interface stays down (ms, default 800; a flap is "within 2 s"). */
  flapDownMs?: number;
  seed?: number;
  /** Timer period (ms), default 20. */
  tickMs?: number;
  /**
   * Keep about this many alarms active (a steady network, issue 22.12): each change acts on an
   * active alarm with the chance active / (active + steadyActive) — three times in four a clear —
   * and otherwise raises one, so the count hovers near 4/3 of it instead of climbing to most slots.
   * Unset: every change picks a random slot (raise, step or clear), as the tests expect.
   */
  steadyActive?: number;
}

export const DEFAULT_FLAP_DOWN_MS = 800;
const STEPS: readonly SimSeverity[] = ['critical', 'major', 'minor', 'warning'];
const INTERFACE_DOWN = TYPE_BY_NAME.get('interface-down')!;

export class AlarmGenerator {
  private readonly random: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly flaps = new Set<ReturnType<typeof setTimeout>>();
  private rate: number;
  private startedAt = 0;
  private emitted = 0;
  private lastBurst = 0;
  private lastFlapCheck = 0;

  constructor(
    private readonly alarms: SimAlarms,
    /** The node's device names (read at every step: devices come and go). */
    private readonly deviceNames: () => readonly string[],
    private readonly o: AlarmGeneratorOptions = {},
  ) {
    this.random = rng(o.seed ?? 12);
    this.rate = Math.max(0, o.ratePerSecond ?? 0);
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Changes per second from now on (the count restarts, so a new rate is kept from this moment). */
  setRate(perSecond: number): void {
    this.rate = Math.max(0, perSecond);
    this.startedAt = performance.now();
    this.emitted = 0;
  }

  start(): void {
    if (this.timer) return;
    const now = performance.now();
    this.startedAt = now;
    this.lastBurst = now;
    this.lastFlapCheck = now;
    this.emitted = 0;
    this.timer = setInterval(() => this.tick(), this.o.tickMs ?? 20);
    this.timer.unref?.();
  }

  /** Stops the rate, bursts and new flaps; a flap under way still comes back up (unless `dropFlaps`). */
  stop(dropFlaps = false): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (dropFlaps) {
      for (const t of this.flaps) clearTimeout(t);
      this.flaps.clear();
    }
  }

  private tick(): void {
    const now = performance.now();
    // Changes due by now at the rate; a late timer catches up, by at most one second's worth.
    const due = Math.floor((this.rate * (now - this.startedAt)) / 1000) - this.emitted;
    const n = Math.min(due, Math.max(1, Math.ceil(this.rate)));
    if (n > 0) this.step(n);
    this.emitted += Math.max(0, due);
    const burst = this.o.burst;
    if (burst && burst.everyMs > 0 && now - this.lastBurst >= burst.everyMs) {
      this.lastBurst = now;
      this.step(burst.size);
    }
    const every = this.o.flapEveryMs ?? 0;
    if (every > 0) {
      const elapsed = now - this.lastFlapCheck;
      this.lastFlapCheck = now;
      if (this.random() < elapsed / every) this.flap();
    }
  }

  /** `n` random changes now: a raise, a severity step or a clear of a random slot of a random device. */
  step(n = 1): SimAlarmEvent[] {
    const names = this.deviceNames();
    const out: SimAlarmEvent[] = [];
    if (names.length === 0) return out;
    const steady = this.o.steadyActive;
    // A steady network acts on the alarms of the devices there are (once per call, not per change).
    const devices = steady === undefined ? undefined : new Set(names);
    for (let i = 0; i < n; i++) {
      if (devices !== undefined) {
        out.push(this.steadyChange(names, devices, steady!));
        continue;
      }
      const deviceName = names[Math.floor(this.random() * names.length)]!;
      const slot = SLOTS[Math.floor(this.random() * SLOTS.length)]!;
      out.push(this.changeSlot(deviceName, slot.type, slot.object));
    }
    return out;
  }

  /** One change of a steady network: mostly clears of active alarms when many are active, raises when few. */
  private steadyChange(names: readonly string[], devices: ReadonlySet<string>, steady: number): SimAlarmEvent {
    const active = this.alarms.all().filter((a) => !isCleared(a) && devices.has(a.deviceName));
    if (active.length > 0 && this.random() < active.length / (active.length + steady)) {
      const a = active[Math.floor(this.random() * active.length)]!;
      const type = TYPE_BY_NAME.get(a.type);
      const key = { deviceName: a.deviceName, object: a.object, type: a.type, specificProblem: a.specificProblem };
      if (!type || this.random() < 0.75) return this.alarms.change(key, 'cleared', type ? type.cleared(a.object) : latest(a).alarmText);
      return this.changeSlot(a.deviceName, type, a.object);
    }
    // A raise: a slot that is not active (a few tries; a busy network may give a step instead).
    for (let tries = 0; ; tries++) {
      const deviceName = names[Math.floor(this.random() * names.length)]!;
      const slot = SLOTS[Math.floor(this.random() * SLOTS.length)]!;
      const existing = this.alarms.get({ deviceName, object: slot.object, type: slot.type.type, specificProblem: slot.type.specificProblem });
      if (!existing || isCleared(existing) || tries >= 10) return this.changeSlot(deviceName, slot.type, slot.object);
    }
  }

  private changeSlot(deviceName: string, type: SimAlarmType, object: string): SimAlarmEvent {
    const key = { deviceName, object, type: type.type, specificProblem: type.specificProblem };
    const existing = this.alarms.get(key);
    if (!existing || isCleared(existing)) return this.alarms.change(key, type.severity, type.raised(object));
    if (this.random() < 0.6) return this.alarms.change(key, 'cleared', type.cleared(object));
    const at = STEPS.indexOf(latest(existing).perceivedSeverity);
    const next = STEPS[Math.min(STEPS.length - 1, Math.max(0, (at < 0 ? 1 : at) + (this.random() < 0.5 ? -1 : 1)))]!;
    return this.alarms.change(key, next, `${type.raised(object)} (now ${next})`);
  }

  /**
   * A flapping interface: `interface-down` raised now and cleared `downMs` later (default 800 ms,
   * within 2 s). Resolves with both events once the interface is up again.
   */
  flap(deviceName?: string, object?: string, downMs = this.o.flapDownMs ?? DEFAULT_FLAP_DOWN_MS): Promise<[SimAlarmEvent, SimAlarmEvent]> {
    const names = this.deviceNames();
    const device = deviceName ?? names[Math.floor(this.random() * names.length)];
    if (device === undefined) return Promise.reject(new Error('The simulator has no devices to flap.'));
    const iface = object ?? INTERFACE_DOWN.objects[Math.floor(this.random() * INTERFACE_DOWN.objects.length)]!;
    const key = { deviceName: device, object: iface, type: INTERFACE_DOWN.type, specificProblem: INTERFACE_DOWN.specificProblem };
    const down = this.alarms.change(key, INTERFACE_DOWN.severity, INTERFACE_DOWN.raised(iface));
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.flaps.delete(t);
        resolve([down, this.alarms.change(key, 'cleared', INTERFACE_DOWN.cleared(iface))]);
      }, downMs);
      this.flaps.add(t);
    });
  }
}
