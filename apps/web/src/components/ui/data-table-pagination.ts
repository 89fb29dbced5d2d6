import { type MouseEvent, useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES } from '../../lib/list-state';

type PaginationControl = 'first' | 'last' | 'previous' | 'next';

/** The sort-state icons of mantine-datatable's sortable headers (part of each header button's name). */
const SORTED_ICON = 'mantine-datatable-header-cell-sortable-icon';
const UNSORTED_ICON = 'mantine-datatable-header-cell-sortable-unsorted-icon';

/**
 * A table ref that translates the names of the sort-state icons, which mantine-datatable writes in English
 * ("Sorted ascending", "Not sorted") with no prop to change them. It relabels them whenever the header changes.
 */
function useSortStateLabels(): (table: HTMLTableElement | null) => void {
  const { t } = useTranslation();
  const ascending = t('common.sort.ascending', 'Sorted ascending');
  const descending = t('common.sort.descending', 'Sorted descending');
  const unsorted = t('common.sort.none', 'Not sorted');
  const disconnect = useRef<(() => void) | null>(null);
  return useCallback(
    (table: HTMLTableElement | null) => {
      disconnect.current?.();
      disconnect.current = null;
      if (!table) return;
      const relabel = () => {
        for (const icon of table.querySelectorAll(`.${SORTED_ICON}, .${UNSORTED_ICON}`)) {
          const label = icon.classList.contains(UNSORTED_ICON)
            ? unsorted
            : icon.classList.contains(`${SORTED_ICON}-reversed`)
              ? descending
              : ascending;
          if (icon.getAttribute('aria-label') !== label) icon.setAttribute('aria-label', label);
        }
      };
      relabel();
      const observer = new MutationObserver(relabel);
      observer.observe(table, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['aria-label', 'class'],
      });
      disconnect.current = () => observer.disconnect();
    },
    [ascending, descending, unsorted],
  );
}

/**
 * The props every server-paged mantine-datatable shares: the page sizes, the "1–25 of 300" text ("of about"
 * when `isTotalEstimate`), accessible names for the first/previous/next/last buttons and translated sort states
 * (through `tableRef`). Spread them into `<DataTable>`.
 */
export function useDataTablePagination({ isTotalEstimate = false }: { isTotalEstimate?: boolean } = {}) {
  const { t } = useTranslation();
  const tableRef = useSortStateLabels();
  const labels: Record<PaginationControl, string> = {
    first: t('common.pagination.first', 'First page'),
    last: t('common.pagination.last', 'Last page'),
    previous: t('common.pagination.previous', 'Previous page'),
    next: t('common.pagination.next', 'Next page'),
  };
  return {
    recordsPerPageOptions: [...PAGE_SIZES],
    // A list past the server's exact-count limit has an estimated total (see KeysetPage in the contracts).
    paginationText: ({ from, to, totalRecords }: { from: number; to: number; totalRecords: number }) =>
      isTotalEstimate
        ? t('common.pagination.rangeEstimate', '{{from}}–{{to}} of about {{total}}', {
            from,
            to,
            total: totalRecords,
          })
        : t('common.pagination.range', '{{from}}–{{to}} of {{total}}', { from, to, total: totalRecords }),
    getPaginationControlProps: (control: PaginationControl) => ({ 'aria-label': labels[control] }),
    tableRef,
  };
}

/** Whether a row click landed on something with its own action (a link, button or checkbox). */
export function isInteractiveTarget(event: MouseEvent): boolean {
  return (event.target as HTMLElement).closest('a, button, input, label') !== null;
}
