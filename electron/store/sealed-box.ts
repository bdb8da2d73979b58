/**
 * Secrets sealed to the fleet's workers (issue 24.3, C-68): libsodium's sealed box (X25519 and
 * XSalsa20-Poly1305 with an ephemeral sender key, `crypto_box_seal`). Anyone with the workers' public
 * key (a console that administers connectors) can seal a secret; only a holder of the private key
 * (a worker's key file, 0600) can open it. A sealed value carries the bound secret
 * (store/bound-secret.ts: the digest of the endpoint and trust it was entered for, then the
 * secret), so a worker that opens it still gets it only for that endpoint.
 *
 * The key file is JSON: `{"kind":"northbound-worker-key","version":1,"publicKey":…,"privateKey":…}`
 * (base64), written owner-only; a file others may read is refused.
 */
import { statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import sodium from 'libsodium-wrappers';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { PRIVATE_FILE_MODE } from './files';

export interface WorkerKeyPair {
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

const KIND = 'northbound-worker-key';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

async function ready(): Promise<typeof sodium> {
  await sodium.ready;
  return sodium;
}

export async function newWorkerKeyPair(): Promise<WorkerKeyPair> {
  const s = await ready();
  const k = s.crypto_box_keypair();
  return { publicKey: k.publicKey, privateKey: k.privateKey };
}

/** The public key as the database keeps it (base64). */
export const publicKeyText = (k: Pick<WorkerKeyPair, 'publicKey'>) => b64(k.publicKey);

export async function sealTo(publicKeyBase64: string, plaintext: string): Promise<string> {
  const s = await ready();
  const key = unb64(publicKeyBase64);
  if (key.length !== s.crypto_box_PUBLICKEYBYTES) throw new AppError(ErrorCodes.internal, "The workers' public key in the database is not a key.", 'Run northbound team init again as the database owner.');
  return b64(s.crypto_box_seal(plaintext, key));
}

/** Opens a sealed value; undefined when it was sealed to another key or altered. */
export async function openSealed(keys: WorkerKeyPair, sealedBase64: string): Promise<string | undefined> {
  const s = await ready();
  try {
    return s.crypto_box_seal_open(unb64(sealedBase64), keys.publicKey, keys.privateKey, 'text');
  } catch {
    return undefined;
  }
}

/** Writes a new key file, owner-only; never over an existing file. */
export async function writeWorkerKeyFile(file: string, keys: WorkerKeyPair): Promise<void> {
  const body = `${JSON.stringify({ kind: KIND, version: 1, publicKey: b64(keys.publicKey), privateKey: b64(keys.privateKey) })}\n`;
  try {
    await writeFile(file, body, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new AppError(ErrorCodes.validation, `The key file ${file} exists already.`, 'Keep it (its key opens the stored secrets), or give another --key-file.');
    throw e;
  }
}

export async function readWorkerKeyFile(file: string): Promise<WorkerKeyPair> {
  let text: string;
  try {
    const mode = statSync(file).mode & 0o777;
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
      throw new AppError(ErrorCodes.validation, `The key file ${file} can be read by others (mode ${mode.toString(8)}).`, `Run chmod 600 ${file}: it opens every tenant's client secret.`);
    }
    text = await readFile(file, 'utf8');
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError(ErrorCodes.validation, `The key file ${file} could not be read: ${(e as Error).message}.`, 'Give the file northbound team init wrote (--key-file).');
  }
  let doc: { kind?: unknown; publicKey?: unknown; privateKey?: unknown };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch {
    doc = {};
  }
  if (doc.kind !== KIND || typeof doc.publicKey !== 'string' || typeof doc.privateKey !== 'string') {
    throw new AppError(ErrorCodes.validation, `The file ${file} is not a Northbound worker key.`, 'Give the file northbound team init wrote (--key-file).');
  }
  return { publicKey: unb64(doc.publicKey), privateKey: unb64(doc.privateKey) };
}
