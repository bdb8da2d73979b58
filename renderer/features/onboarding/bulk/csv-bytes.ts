/**
 * Is the chosen file text at all? A CSV is UTF-8 text (MN-48); a workbook, a PDF or an image
 * chosen by mistake is refused as what it is, with what to do instead, before any row is read
 * (read as text, its bytes would become nonsense columns and rows). The checks that decide are
 * the platform's: a NUL byte, and UTF-8 that TextDecoder refuses. The signatures only name the
 * usual mistakes so the advice fits; a content-sniffing library would name more kinds of file,
 * but not say how to get a CSV out of each, and needs Node ≥ 22 (the tests run on 20).
 */

/** Larger than any CSV of MAX_ROWS devices by far; read into memory whole, so bounded. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

const SAVE_AS_CSV = 'save it as CSV (UTF-8) first and choose that file';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
const latin1 = (b: Uint8Array) => String.fromCharCode(...b);

/** Names of the first entries of a ZIP file, from its local file headers (no decompression). */
function zipEntryNames(b: Uint8Array, max = 32): string[] {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const names: string[] = [];
  let at = 0;
  while (names.length < max && at + 30 <= b.length && startsWith(b, [0x50, 0x4b, 0x03, 0x04], at)) {
    const flags = view.getUint16(at + 6, true);
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    names.push(latin1(b.subarray(at + 30, Math.min(b.length, at + 30 + nameLength))));
    // With a data descriptor (flag bit 3) the size follows the data: the next header is not found.
    if (flags & 0x08) break;
    at += 30 + nameLength + extraLength + size;
  }
  return names;
}

/** What a ZIP-based file is, by the names of its entries (Office Open XML, OpenDocument, Numbers). */
function zipKind(b: Uint8Array): string {
  const names = zipEntryNames(b);
  const has = (prefix: string) => names.some((n) => n.startsWith(prefix));
  if (has('xl/')) return `This is an Excel workbook; ${SAVE_AS_CSV} (Excel: File › Save As › CSV UTF-8).`;
  if (has('word/')) return 'This is a Word document, not a CSV file. Choose the CSV file (the template shows its format).';
  if (has('ppt/')) return 'This is a PowerPoint presentation, not a CSV file. Choose the CSV file (the template shows its format).';
  if (names[0] === 'mimetype') {
    const spreadsheet = latin1(b.subarray(30 + 8, 30 + 8 + 80)).includes('opendocument.spreadsheet');
    return spreadsheet ? `This is an OpenDocument spreadsheet; ${SAVE_AS_CSV} (LibreOffice: File › Save As, type Text CSV, character set UTF-8).` : 'This is an OpenDocument file, not a CSV file. Choose the CSV file (the template shows its format).';
  }
  if (has('Index/')) return 'This is a Numbers spreadsheet; export it as CSV first (File › Export To › CSV, text encoding UTF-8) and choose that file.';
  if (has('[Content_Types].xml')) return `This is an Excel workbook (or another Office document); ${SAVE_AS_CSV}.`;
  return 'This is a ZIP archive; unpack it and choose the CSV file inside.';
}

/** Files that are not text, by their first bytes: what the file is and what to do instead. */
const SIGNATURES: ReadonlyArray<{ sig: readonly number[]; says: (b: Uint8Array) => string }> = [
  { sig: [0x50, 0x4b, 0x03, 0x04], says: zipKind },
  { sig: [0x50, 0x4b, 0x05, 0x06], says: () => 'This is an empty ZIP archive, not a CSV file.' },
  { sig: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], says: () => `This is an older Office file (an Excel 97–2003 workbook or similar); ${SAVE_AS_CSV}.` },
  { sig: ascii('%PDF-'), says: () => 'This is a PDF document, not a CSV file. Choose the CSV file (the template shows its format).' },
  { sig: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], says: () => 'This is a PNG image, not a CSV file. Choose the CSV file (the template shows its format).' },
  { sig: [0xff, 0xd8, 0xff], says: () => 'This is a JPEG image, not a CSV file. Choose the CSV file (the template shows its format).' },
  { sig: ascii('GIF8'), says: () => 'This is a GIF image, not a CSV file. Choose the CSV file (the template shows its format).' },
  { sig: [0x1f, 0x8b], says: () => 'This file is compressed (gzip); unpack it and choose the CSV file.' },
  { sig: [0xff, 0xfe], says: () => `This file is UTF-16 text (Excel's “Unicode Text”); ${SAVE_AS_CSV}.` },
  { sig: [0xfe, 0xff], says: () => `This file is UTF-16 text; ${SAVE_AS_CSV}.` },
];

const strict = new TextDecoder('utf-8', { fatal: true });

/** Length of the longest prefix of `b` that is valid UTF-8 (a sequence cut at the end counts as valid). */
function validUtf8Prefix(b: Uint8Array): number {
  const valid = (n: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, n), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let ok = 0;
  let bad = b.length;
  while (bad - ok > 1) {
    const mid = Math.floor((ok + bad) / 2);
    if (valid(mid)) ok = mid;
    else bad = mid;
  }
  return ok;
}

const lineAt = (b: Uint8Array, end: number) => {
  let line = 1;
  for (let i = 0; i < end; i++) if (b[i] === 0x0a) line++;
  return line;
};

/**
 * The file's text (UTF-8; a byte order mark is dropped), or why it is not a CSV file at all.
 */
export function decodeCsvBytes(bytes: Uint8Array): { text: string } | { refused: string } {
  for (const { sig, says } of SIGNATURES) if (startsWith(bytes, sig)) return { refused: says(bytes) };
  if (bytes.includes(0)) return { refused: 'This file is not text (it holds binary data), so it is not a CSV file. Choose the CSV file: plain text, one device per line (the template shows its format).' };
  try {
    return { text: strict.decode(bytes) };
  } catch {
    const at = validUtf8Prefix(bytes);
    const byte = (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    return {
      refused: `Line ${lineAt(bytes, at)} is not UTF-8 text (byte 0x${byte}): the file was saved in another encoding, such as Windows-1252. Save it as CSV UTF-8 (Excel: File › Save As › CSV UTF-8) and choose it again.`,
    };
  }
}
