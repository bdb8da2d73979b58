/**
 * The ZTA export as it was before it streamed from the store (issue 25.3, C-86): the whole columnar
 * snapshot in memory, filtered and ordered by `rowsInOrder`, in chunks of EXPORT_CHUNK. The unit
 * tests feed the exporter synthetic snapshots through it, and the stream's tests compare the store's
 * export with it on the snapshot the same store gives.
 */
import { EXPORT_CHUNK, type ExportSource } from '../../electron/edr/zta-export-source';
import { exportHead, exportPieces } from '../../electron/edr/zta-export';
import { rowsInOrder, snapshotRow, type ZtaFilter, type ZtaSnapshot } from '../../shared/model/zta';
import type { ExportFormat } from '../../shared/contract-zta';

export function snapshotExportSource(s: ZtaSnapshot, chunk = EXPORT_CHUNK): ExportSource {
  return {
    connectors: async () => s.connectors,
    count: async (filter) => rowsInOrder(s, filter).length,
    async *rows(filter) {
      const rows = rowsInOrder(s, filter);
      for (let i = 0; i < rows.length; i += chunk) yield rows.slice(i, i + chunk).map((r) => snapshotRow(s, r));
    },
  };
}

/** The whole text of an export from a source. */
export async function exportText(source: ExportSource, format: ExportFormat, filter: ZtaFilter, exportedAt: Date): Promise<string> {
  const head = exportHead(await source.connectors());
  let text = '';
  for await (const piece of exportPieces(head, source.rows(filter, head.connectors), format, filter, exportedAt)) text += piece.text;
  return text;
}
