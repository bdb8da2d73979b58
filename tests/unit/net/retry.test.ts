/** The one retry path (net/retry.ts) every caller of a remote API goes through. */
import { describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCodes } from '../../../shared/model/errors';
import { backoffMs, cancelledError, sleep, withRetries, type TryOutcome } from '../../../electron/net/retry';

const policy = { maxAttempts: 4, max429: 2, baseDelayMs: 100, maxDelayMs: 1_000 };
const giveUp = (what: string) => (n: number) => new Error(`${what} after ${n}`);

/** A caller whose tries answer the given outcomes in turn; the waits it was asked for are recorded. */
function script<T>(outcomes: Array<TryOutcome<T> | Error>) {
  const waits: number[] = [];
  let tries = 0;
  const attempt = async () => {
    const o = outcomes[Math.min(tries++, outcomes.length - 1)]!;
    if (o instanceof Error) throw o;
    return o;
  };
  return { attempt, waits, tries: () => tries, sleep: async (ms: number) => void waits.push(ms) };
}

describe('backoffMs', () => {
  it('doubles from the base up to the cap and keeps half of each step fixed', () => {
    const p = { baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, p, () => 1))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, p, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
  });
});

describe('withRetries', () => {
  it('retries transient outcomes with backoff, up to maxAttempts tries, then throws what the caller says', async () => {
    const s = script<string>([{ kind: 'retry', why: 'HTTP 503', exhausted: giveUp('503') }]);
    const onRetry = vi.fn();
    await expect(withRetries(s.attempt, { policy, sleep: s.sleep, onRetry, random: () => 1 })).rejects.toThrow('503 after 4');
    expect(s.tries()).toBe(4);
    expect(s.waits).toEqual([100, 200, 400]);
    expect(onRetry.mock.calls).toEqual([['HTTP 503', 1], ['HTTP 503', 2], ['HTTP 503', 3]]);
  });

  it('answers once a try is done', async () => {
    const s = script<string>([{ kind: 'retry', why: 'reset', exhausted: giveUp('x') }, { kind: 'done', value: 'ok' }]);
    await expect(withRetries(s.attempt, { policy, sleep: s.sleep, random: () => 0 })).resolves.toBe('ok');
    expect(s.waits).toEqual([50]);
  });

  it('honours 429 waits up to max429, then gives up with the count of waits honoured', async () => {
    const s = script<string>([{ kind: 'throttled', waitMs: 1_500, exhausted: giveUp('429') }]);
    await expect(withRetries(s.attempt, { policy, sleep: s.sleep })).rejects.toThrow('429 after 2');
    expect(s.waits).toEqual([1_500, 1_500]);
    expect(s.tries()).toBe(3);
  });

  it('a throttled try whose caller paces itself (waitMs 0) does not sleep here', async () => {
    const s = script<string>([{ kind: 'throttled', waitMs: 0, exhausted: giveUp('429') }, { kind: 'done', value: 'ok' }]);
    await expect(withRetries(s.attempt, { policy, sleep: s.sleep })).resolves.toBe('ok');
    expect(s.waits).toEqual([]);
  });

  it('refreshes the token once on 401; a second 401 is the caller’s rejection', async () => {
    const rejected = new AppError('falcon.token_rejected', 'The token was refused.', 'Check the client.');
    const once = script<string>([{ kind: 'refresh', rejected: () => rejected }, { kind: 'done', value: 'ok' }]);
    await expect(withRetries(once.attempt, { policy, sleep: once.sleep })).resolves.toBe('ok');
    const twice = script<string>([{ kind: 'refresh', rejected: () => rejected }]);
    await expect(withRetries(twice.attempt, { policy, sleep: twice.sleep })).rejects.toBe(rejected);
    expect(twice.tries()).toBe(2);
  });

  it('retries a transient transport error thrown by the try and throws it as it is when the budget is spent; other errors at once', async () => {
    const down = new AppError(ErrorCodes.network, 'The node does not answer.', 'Check the network.');
    const s = script<string>([down]);
    await expect(withRetries(s.attempt, { policy, sleep: s.sleep })).rejects.toBe(down);
    expect(s.tries()).toBe(4);
    const trust = new AppError(ErrorCodes.tlsUntrusted, 'Not trusted.', 'Trust it.');
    const t = script<string>([trust]);
    await expect(withRetries(t.attempt, { policy, sleep: t.sleep })).rejects.toBe(trust);
    expect(t.tries()).toBe(1);
  });

  it('an abort during a backoff rejects with the cancelled error at once and tries no more', async () => {
    const abort = new AbortController();
    let tries = 0;
    const p = withRetries<string>(
      async () => {
        tries += 1;
        if (tries === 1) setImmediate(() => abort.abort());
        return { kind: 'retry', why: 'HTTP 500', exhausted: giveUp('500') };
      },
      { policy: { ...policy, baseDelayMs: 3_600_000, maxDelayMs: 3_600_000 }, signal: abort.signal },
    );
    await expect(p).rejects.toMatchObject({ code: ErrorCodes.cancelled });
    expect(tries).toBe(1);
  });
});

describe('sleep', () => {
  it('rejects with the cancelled error, naming what was cancelled, when aborted before or during the wait', async () => {
    const before = new AbortController();
    before.abort();
    await expect(sleep(10, before.signal, 'The Falcon poll')).rejects.toMatchObject({ code: ErrorCodes.cancelled, message: 'The Falcon poll was cancelled.' });
    const during = new AbortController();
    const p = sleep(3_600_000, during.signal);
    during.abort();
    await expect(p).rejects.toEqual(cancelledError());
    await expect(sleep(1)).resolves.toBeUndefined();
  });
});
