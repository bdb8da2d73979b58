/** Listening on loopback and shutting down, shared by the three simulators (management node, Falcon, Defender). */
import type { Server } from 'node:net';
import { isIP } from 'node:net';

/** The simulators never listen beyond this machine: 127.0.0.0/8, ::1 or localhost. */
export function assertLoopback(host: string, who = 'The simulator'): void {
  const ok = host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
  if (!ok) throw new Error(`${who} listens on loopback addresses only (127.0.0.0/8, ::1, localhost); refusing ${host}.`);
}

/** Listens on `host:port` (0 = any free port); resolves with the port, rejects on e.g. EADDRINUSE. */
export function listen(server: Server, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

/** Stops listening and ends open connections (kept-alive ones included). */
export function shutdown(server: Server & { closeAllConnections?: () => void }): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}
