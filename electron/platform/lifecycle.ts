/** Quitting: `before-quit` waits for the app's shutdown (sessions signed out, tokens revoked), at most `capMs`. */
import type { App } from 'electron';
import type { Logger } from '../log';

export const SHUTDOWN_CAP_MS = 3000;

/** Resolves with 'done' or 'timeout', whichever comes first; never rejects. */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<'done' | 'timeout' | 'failed'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([work.then(() => 'done' as const, () => 'failed' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function installGracefulQuit(app: Pick<App, 'on' | 'quit'>, shutdown: () => Promise<void>, o: { logger: Logger; capMs?: number }): void {
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'stopped') return;
    event.preventDefault();
    if (state === 'stopping') return;
    state = 'stopping';
    let work: Promise<void>;
    try {
      work = shutdown();
    } catch (e) {
      work = Promise.reject(e);
    }
    void settleWithin(work, o.capMs ?? SHUTDOWN_CAP_MS).then((outcome) => {
      if (outcome !== 'done') o.logger.warn('shutdown did not finish cleanly', { outcome });
      state = 'stopped';
      app.quit();
    });
  });
}
