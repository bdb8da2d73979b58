/**
 * Browser mode's downloads (EDR-Z11): a file main wrote into the data folder's `exports/` is offered
 * once under an unguessable id; the host (`GET /api/download/<id>`, behind the launch token)
 * streams it and deletes it. An offer nobody takes goes after ten minutes, and whatever is left
 * of earlier launches goes at start. The window never names a file. The folder is the data
 * folder's like any other: owner-only (0700), narrowed when it is wider (`store/files.ts`), and it
 * goes again once the last file in it was taken or expired (no empty `exports/` left behind).
 */
import { randomUUID } from 'node:crypto';
import { rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { ensurePrivateDir } from '../store/files';

export interface Download {
  file: string;
  name: string;
  type: string;
}

const EXPIRE_MS = 10 * 60_000;

export class Downloads {
  private readonly offers = new Map<string, Download & { timer: NodeJS.Timeout }>();
  /** Paths handed out by pathFor and not yet offered (being written). */
  private writing = 0;
  readonly folder: string;
  /** What is left of earlier launches, being removed. */
  private readonly cleared: Promise<void>;

  constructor(dataDir: string) {
    this.folder = path.join(dataDir, 'exports');
    this.cleared = rm(this.folder, { recursive: true, force: true }).catch(() => undefined);
  }

  /** A fresh file path in the exports folder (its name is main's, never the window's), the folder there and 0700. */
  async pathFor(ext: string): Promise<string> {
    await this.cleared;
    this.writing += 1;
    await ensurePrivateDir(this.folder);
    return path.join(this.folder, `${randomUUID()}.${ext}`);
  }

  /** Offers a written file once; answers the address the window downloads it from. */
  offer(d: Download): string {
    this.writing = Math.max(0, this.writing - 1);
    const id = randomUUID();
    const timer = setTimeout(() => void this.take(id)?.discard(), EXPIRE_MS).unref();
    this.offers.set(id, { ...d, timer });
    return `/api/download/${id}`;
  }

  /** The offer under `id`, removed; `discard` deletes its file (after it was sent, or when it expired). */
  take(id: string): (Download & { discard(): Promise<void> }) | undefined {
    const o = this.offers.get(id);
    if (!o) return undefined;
    this.offers.delete(id);
    clearTimeout(o.timer);
    return {
      file: o.file,
      name: o.name,
      type: o.type,
      discard: async () => {
        await rm(o.file, { force: true });
        // The last one: the folder goes too (a file still there, e.g. a failed write's, keeps it).
        if (this.offers.size === 0 && this.writing === 0) await rmdir(this.folder).catch(() => undefined);
      },
    };
  }
}
