/**
 * The chosen CSV file, before it is parsed (csv.ts): refused when it is too large or not UTF-8
 * text (csv-bytes.ts), with what to do instead.
 */
import { formatCount } from '../../../components/format';
import { MAX_ROWS, parseDeviceCsv, refusedCsv, type ParsedCsv } from './csv';
import { MAX_FILE_BYTES, decodeCsvBytes } from './csv-bytes';

/** The chosen file, refused when it is too large or not text, else parsed. */
export async function readDeviceCsvFile(file: Blob): Promise<ParsedCsv> {
  if (file.size > MAX_FILE_BYTES) {
    return refusedCsv(`The file is ${Math.round(file.size / 1024 / 1024)} MB; a CSV of ${formatCount(MAX_ROWS)} devices is a few MB. Choose the CSV file, or split it.`);
  }
  return parseCsvBytes(new Uint8Array(await file.arrayBuffer()));
}

/** The file's bytes: refused when they are not UTF-8 text (csv-bytes.ts), else parsed. */
export function parseCsvBytes(bytes: Uint8Array): ParsedCsv {
  const decoded = decodeCsvBytes(bytes);
  return 'refused' in decoded ? refusedCsv(decoded.refused) : parseDeviceCsv(decoded.text);
}
