import { toast } from 'sonner';
import type { ConnectorView } from '../../../shared/model/connector';
import { useDeleteConnector } from '../../api/connectors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { vendorLabel } from '../../components/connector-labels';

export function DeleteConnectorDialog({ connector, onClose }: { connector: ConnectorView; onClose(): void }) {
  const del = useDeleteConnector();
  return (
    <ConfirmDialog
      title={`Delete ${connector.name}?`}
      confirmLabel="Delete"
      tone="danger"
      onClose={onClose}
      testId="delete-connector-dialog"
      onConfirm={async () => {
        await del.mutateAsync({ connectorId: connector.id });
        toast.success(`Deleted “${connector.name}”.`);
      }}
    >
      <p>
        The {vendorLabel[connector.vendor]} connector for tenant <strong>{connector.tenantId}</strong> is removed with its stored client secret. Its hosts are no
        longer polled. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
