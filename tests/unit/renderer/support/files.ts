/** Files that are not CSV, built byte by byte for the bulk onboarding tests. */

/** A ZIP file of empty stored entries, as far as its local file headers go (what the console reads of it). */
export function zipOf(...names: string[]): Uint8Array<ArrayBuffer> {
  const parts: number[] = [];
  for (const name of names) {
    const header = new Uint8Array(30);
    const v = new DataView(header.buffer);
    v.setUint32(0, 0x04034b50, true); // PK\x03\x04
    v.setUint16(4, 20, true);
    v.setUint16(26, name.length, true);
    parts.push(...header, ...new TextEncoder().encode(name));
  }
  return new Uint8Array(parts);
}

/** An Excel workbook's first entries (no sheet data: the console stops at the names). */
export const xlsxBytes = () => zipOf('[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml');

/** Bytes and text mixed, e.g. a CSV line with one Latin-1 byte in it. */
export const bytesOf = (...parts: Array<string | number[]>): Uint8Array<ArrayBuffer> => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));
