import { toast } from 'sonner';
import type { ConnectorView } from '../../../shared/model/connector';
import { useDeleteConnector } from '../../api/mutations';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { vendorLabel } from './labels';

export function DeleteConnectorDialog({ connector, onClose }: { connector: ConnectorView; onClose(): void }) {
  const del = useDeleteConnector();
  const confirm = async () => {
    try {
      await del.mutateAsync({ connectorId: connector.id });
      toast.success(`Deleted “${connector.name}”.`);
      onClose();
    } catch {
      // reported by the query client
    }
  };
  return (
    <Dialog
      role="alertdialog"
      size="sm"
      title={`Delete ${connector.name}?`}
      onClose={onClose}
      testId="delete-connector-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={() => void confirm()} disabled={del.isPending}>
            {del.isPending ? <Spinner /> : null}
            Delete
          </button>
        </>
      }
    >
      <p>
        The {vendorLabel[connector.vendor]} connector for tenant <strong>{connector.tenantId}</strong> is removed with its stored client secret. Its hosts are no
        longer polled. This cannot be undone.
      </p>
    </Dialog>
  );
}
