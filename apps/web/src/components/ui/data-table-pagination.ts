import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '../../lib/list-state';

type PaginationControl = 'first' | 'last' | 'previous' | 'next';

/**
 * The pagination props every server-paged mantine-datatable shares: the page sizes, the "1–25 of 300" text
 * and accessible names for the first/previous/next/last buttons. Spread them into `<DataTable>`.
 */
export function useDataTablePagination() {
  const { t } = useTranslation();
  const labels: Record<PaginationControl, string> = {
    first: t('common.pagination.first', 'First page'),
    last: t('common.pagination.last', 'Last page'),
    previous: t('common.pagination.previous', 'Previous page'),
    next: t('common.pagination.next', 'Next page'),
  };
  return {
    recordsPerPageOptions: [...PAGE_SIZES],
    paginationText: ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
      t('common.pagination.range', '{{from}}–{{to}} of {{total}}', { from, to, total: totalRecords }),
    getPaginationControlProps: (control: PaginationControl) => ({ 'aria-label': labels[control] }),
  };
}

/** Whether a row click landed on something with its own action (a link, button or checkbox). */
export function isInteractiveTarget(event: MouseEvent): boolean {
  return (event.target as HTMLElement).closest('a, button, input, label') !== null;
}
