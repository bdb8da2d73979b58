/**
 * Where the app keeps its settings, vault, databases and log: shown (read-only) with a way to copy
 * it; the desktop app also opens it in the file manager. Main opens its own folder: the request
 * names no path.
 */
import { FolderOpen } from 'lucide-react';
import { toast } from 'sonner';
import { useAppInfo } from '../../api/app';
import { useOpenDataDir } from '../../api/settings';
import { CopyButton } from '../../components/CopyButton';
import { Spinner } from '../../components/Spinner';

export function DataFolder() {
  const info = useAppInfo().data;
  const open = useOpenDataDir();
  return (
    <section className="card" aria-labelledby="data-folder-title" data-testid="data-folder">
      <h2 id="data-folder-title">Data folder</h2>
      <p className="muted">Settings, the password vault (encrypted), the inventory and risk score databases and the log. Only your user can read it.</p>
      {info ? (
        <div className="path-row">
          <code className="path-value" data-testid="data-folder-path">
            {info.dataDir}
          </code>
          <CopyButton value={info.dataDir} label="Copy" what="Data folder location" />
          {info.canOpenDataDir ? (
            <button type="button" className="button button-small" onClick={() => open.mutate(undefined, { onSuccess: () => toast.success('Opened the data folder in the file manager.') })} disabled={open.isPending}>
              {open.isPending ? <Spinner /> : <FolderOpen size={14} aria-hidden="true" />}
              Open folder
            </button>
          ) : null}
        </div>
      ) : (
        <Spinner label="Loading" />
      )}
    </section>
  );
}
