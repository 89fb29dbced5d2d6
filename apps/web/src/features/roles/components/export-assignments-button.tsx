import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useWorkingTenant } from '../../../lib/auth';
import { useExportAssignments } from '../api/export-assignments';

/** Downloads the role assignments of the administrators matching `q` (every page) as CSV. */
export function ExportAssignmentsButton({ q }: { q: string }) {
  const { t } = useTranslation();
  const exportMutation = useExportAssignments(useWorkingTenant());
  return (
    <Button
      variant="default"
      loading={exportMutation.isPending}
      onClick={() => exportMutation.mutate({ q: q.trim() || undefined })}
    >
      {t('roles.assign.export', 'Export CSV')}
    </Button>
  );
}
