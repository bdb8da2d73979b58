/**
 * The Falcon parser's thread (falcon-parser.ts): reads device details answers, bytes to checked
 * records (read.ts), one at a time, below main's priority like every worker of the store's protocol.
 */
import { serveSqlWorker } from '../../store/sql-worker-thread';
import { readDevicesAnswer, type FalconParseOps } from './read';

serveSqlWorker(() => {
  const ops: FalconParseOps = { devices: (bytes) => readDevicesAnswer(bytes) };
  return { ops, close: () => undefined };
});
