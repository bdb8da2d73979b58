/**
 * Reads a CA certificate file that the operator named outside the window (the CLI's `--ca-file`,
 * or a path kept by a store from before the PEM itself was kept). Never on a path a renderer
 * request names. Asynchronous, and only a regular file of at most 1 MiB: a FIFO, a device
 * (`/dev/zero`), a folder or a huge file is refused without blocking or filling memory.
 * The messages name only the path asked for, so they tell nothing about other paths.
 */
import { constants, promises as fsp } from 'node:fs';
import { MAX_CA_PEM_BYTES } from '../../shared/model/profile';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { caCertificates } from './tls-options';

export type PemFileProblem = 'not-found' | 'not-a-file' | 'too-big' | 'not-pem' | 'unreadable';

const WHY: Record<PemFileProblem, string> = {
  'not-found': 'was not found',
  'not-a-file': 'is not a regular file',
  'too-big': 'is larger than 1 MiB',
  'not-pem': 'holds no PEM certificate',
  unreadable: 'cannot be read',
};

function problem(file: string, reason: PemFileProblem, cause?: unknown): AppError {
  return new AppError(ErrorCodes.tlsCaFile, `The CA file ${file} ${WHY[reason]}.`, 'Choose the PEM file that holds the certificate of the CA that issued the server’s certificate.', {
    details: { reason },
    ...(cause ? { cause } : {}),
  });
}

/** The file's PEM text, checked to hold at least one X.509 certificate. */
export async function readPemFile(file: string): Promise<string> {
  let handle: fsp.FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    handle = await fsp.open(file, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw problem(file, code === 'ENOENT' || code === 'ENOTDIR' ? 'not-found' : code === 'EISDIR' ? 'not-a-file' : 'unreadable', e);
  }
  try {
    // fstat on the opened file: what is read is what was checked.
    const info = await handle.stat();
    if (!info.isFile()) throw problem(file, 'not-a-file');
    if (info.size > MAX_CA_PEM_BYTES) throw problem(file, 'too-big');
    const buffer = Buffer.alloc(Math.min(info.size, MAX_CA_PEM_BYTES) + 1);
    let length = 0;
    // Read at most one byte past the limit: a file that grew since fstat is still refused.
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_CA_PEM_BYTES) throw problem(file, 'too-big');
    const text = buffer.subarray(0, length).toString('utf8');
    try {
      caCertificates(text);
    } catch {
      throw problem(file, 'not-pem');
    }
    return text;
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw problem(file, 'unreadable', e);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
