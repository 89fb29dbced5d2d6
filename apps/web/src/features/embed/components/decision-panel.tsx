import { Stack } from '@mantine/core';
import { DecisionEvents } from '../../../components/charts/decision-drill-down';
import type { DecisionFilters } from '../../../components/charts/drill-down';
import { PageHeader } from '../../../components/ui/page-header';
import { useWorkingTenant } from '../../../lib/auth';

/** Props of {@link DecisionPanel}. */
export interface DecisionPanelProps {
  title: string;
  description?: string;
  /** The decisions shown: a range and the event filters; null while the range is not one yet. */
  filters: DecisionFilters | null;
  /** What an empty list says. */
  emptyText: string;
}

/** An embedded view's list of decisions (the drill-down's list, page by page, with the CSV export). */
export function DecisionPanel({ title, description, filters, emptyText }: DecisionPanelProps) {
  const tenant = useWorkingTenant();
  return (
    <Stack gap="sm">
      <PageHeader title={title} description={description} />
      {filters ? (
        <DecisionEvents tenant={tenant} filters={filters} caption={title} emptyText={emptyText} />
      ) : null}
    </Stack>
  );
}
