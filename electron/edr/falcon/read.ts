/**
 * Reading a Falcon answer: the envelope every endpoint answers with (`meta`, `resources`, `errors`),
 * and a device details answer read whole, from its bytes to checked device records. The latter is
 * what the parser thread runs (falcon-parser.ts), so a few MB of JSON are parsed and checked off the
 * thread that answers the window; it runs on main too when that thread cannot.
 */
import { parseDevices, type FalconDevice } from './merge';

export interface FalconEnvelope {
  meta?: { pagination?: { offset?: unknown; total?: unknown; expires_at?: unknown; limit?: unknown } };
  resources?: unknown[] | null;
  errors?: { code?: number; message?: string; id?: string }[] | null;
}

/** The envelope of a JSON body, or undefined when it is not JSON or not an envelope (a retry). */
export function parseEnvelope(body: string): FalconEnvelope | undefined {
  try {
    const j = JSON.parse(body) as unknown;
    if (!j || typeof j !== 'object' || Array.isArray(j)) return undefined;
    const r = (j as FalconEnvelope).resources;
    return r === undefined || r === null || Array.isArray(r) ? (j as FalconEnvelope) : undefined;
  } catch {
    return undefined;
  }
}

/** A details answer as the connector uses it: the envelope without its raw resources, the devices that passed the checks, and how many did not. */
export interface DevicesAnswer extends Omit<FalconEnvelope, 'resources'> {
  devices: FalconDevice[];
  invalid: number;
}

/** A details answer's bytes (UTF-8 JSON) to its checked devices; undefined when the body is not an envelope. */
export function readDevicesAnswer(bytes: Uint8Array): DevicesAnswer | undefined {
  const envelope = parseEnvelope(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  if (!envelope) return undefined;
  const { devices, invalid } = parseDevices(envelope.resources ?? []);
  return { ...(envelope.meta ? { meta: envelope.meta } : {}), ...(envelope.errors ? { errors: envelope.errors } : {}), devices, invalid };
}

/** The parser thread's operations (falcon-parse-thread.ts). */
export type FalconParseOps = {
  devices(bytes: Uint8Array): DevicesAnswer | undefined;
};
