import { Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/query-state';

/** Props of {@link EntryPage}. */
export interface EntryPageProps<T> {
  title: string;
  /** What the entries do, in a few sentences under the title. */
  intro: string[];
  query: UseQueryResult<{ items: T[] }>;
  loadingLabel: string;
  emptyMessage: string;
  /** The add button (null without the permission): in the header once there are entries, else in the empty state. */
  addButton: ReactNode;
  children: (items: T[]) => ReactNode;
}

/** The frame of a services or rules screen: title, explanation, then loading → error → empty → the table. */
export function EntryPage<T>({
  title,
  intro,
  query,
  loadingLabel,
  emptyMessage,
  addButton,
  children,
}: EntryPageProps<T>) {
  const items = query.data?.items;
  const renderBody = () => {
    if (query.isPending) return <LoadingState label={loadingLabel} />;
    if (query.isError || !items)
      return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
    if (items.length === 0) return <EmptyState message={emptyMessage} action={addButton} />;
    return children(items);
  };
  return (
    <>
      <PageHeader title={title} actions={items && items.length > 0 ? addButton : null} />
      <Stack gap="md">
        <Stack gap={6} maw={820}>
          {intro.map((paragraph) => (
            <Text key={paragraph} size="sm" c="dimmed">
              {paragraph}
            </Text>
          ))}
        </Stack>
        {renderBody()}
      </Stack>
    </>
  );
}
