/** Small, pure formatting helpers for the UI. */

const plural = (n: number, unit: string) => `${n} ${unit}`;

/** 3600 → "1 h", 5400 → "1 h 30 min", 86400 → "1 d", 90 → "1 min 30 s". */
export function formatDuration(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds < 0) return '';
  const s = Math.floor(totalSeconds);
  if (s < 60) return plural(s, 's');
  const parts: string[] = [];
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d) parts.push(plural(d, 'd'));
  if (h) parts.push(plural(h, 'h'));
  if (m) parts.push(plural(m, 'min'));
  if (sec && !d) parts.push(plural(sec, 's'));
  return parts.slice(0, 2).join(' ');
}

/** Token expiry as the badge says it: "expires in 54 min", "no expiry", "token expired". */
export function expiryText(expiresAt: string | null | undefined, now: number): string | undefined {
  if (expiresAt === null) return 'no expiry';
  if (expiresAt === undefined) return undefined;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return undefined;
  const left = Math.floor((at - now) / 1000);
  if (left <= 0) return 'token expired';
  if (left < 60) return 'expires in <1 min';
  const min = Math.floor(left / 60);
  if (min < 60) return `expires in ${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `expires in ${h} h${min % 60 ? ` ${min % 60} min` : ''}`;
  return `expires in ${Math.floor(h / 24)} d`;
}

/** "AB:CD:…" (32 bytes) → 4 lines of 8 bytes, each line two groups of 4, colons kept. */
export function fingerprintLines(fp: string): string[][] {
  const bytes = fp.split(':');
  const lines: string[][] = [];
  for (let i = 0; i < bytes.length; i += 8) {
    const line = bytes.slice(i, i + 8);
    const last = i + 8 >= bytes.length;
    const text = (group: string[], end: boolean) => group.join(':') + (end && last ? '' : ':');
    const a = line.slice(0, 4);
    const b = line.slice(4);
    lines.push(b.length ? [text(a, false), text(b, true)] : [text(a, true)]);
  }
  return lines;
}

export function formatDateTime(iso: string | undefined): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return new Date(t).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** ISO instant → value for <input type="datetime-local"> in local time ("" stays ""). */
export function isoToLocalInput(iso: string): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const d = new Date(t);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** <input type="datetime-local"> value (local time) → ISO UTC without milliseconds ("" stays ""). */
export function localInputToIso(local: string): string {
  if (!local) return '';
  const t = new Date(local).getTime();
  if (Number.isNaN(t)) return '';
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** 512 → "512 B", 2048 → "2 KiB", 3_500_000 → "3.3 MiB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/** "just now", "5 min ago", "3 h ago", "2 d ago". */
export function agoText(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const min = Math.floor((now - t) / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  return h < 48 ? `${h} h ago` : `${Math.floor(h / 24)} d ago`;
}

/** 1234 → "1,234" (grouping as the operator's locale writes it, English by default). */
export const formatCount = (n: number): string => n.toLocaleString('en');
