import { Alert, Code, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import type { ImportJob } from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Row errors shown per page of the result table. */
export const ERRORS_PER_PAGE = 50;

/** The outcome of a finished import: what was created, and the row errors by line and column. */
export function ImportResult({ job }: { job: ImportJob }) {
  const { t, i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language);
  const [page, setPage] = useState(1);

  const summary = () => {
    if (job.status === 'failed') {
      return (
        <Alert color="red" variant="light" title={t('users.import.failed', 'The import failed')} role="alert">
          {t('users.import.failedText', 'No users were created from this file.')}
        </Alert>
      );
    }
    if (job.errorCount > 0 && job.mode === 'all') {
      return (
        <Alert
          color="red"
          variant="light"
          title={t('users.import.blocked', 'Nothing was imported')}
          role="alert"
        >
          {t('users.import.blockedText', {
            count: job.errorCount,
            defaultValue_one: 'The file has 1 error. Fix it and import the file again.',
            defaultValue_other: 'The file has {{count, number}} errors. Fix them and import the file again.',
          })}
        </Alert>
      );
    }
    return (
      <Alert
        color={job.errorCount > 0 ? 'yellow' : 'green'}
        variant="light"
        title={t('users.import.created', {
          count: job.created,
          defaultValue_one: '1 user created',
          defaultValue_other: '{{count, number}} users created',
        })}
        role="status"
      >
        {job.errorCount > 0
          ? t('users.import.skipped', {
              count: job.errorCount,
              defaultValue_one: '1 error; the rows with errors were skipped.',
              defaultValue_other: '{{count, number}} errors; the rows with errors were skipped.',
            })
          : t('users.import.allGood', 'Every row was imported.')}
      </Alert>
    );
  };

  const controlLabels: Record<string, string> = {
    first: t('common.pagination.first', 'First page'),
    previous: t('common.pagination.previous', 'Previous page'),
    next: t('common.pagination.next', 'Next page'),
    last: t('common.pagination.last', 'Last page'),
  };
  const pages = Math.ceil(job.errors.length / ERRORS_PER_PAGE);
  const shown = job.errors.slice((page - 1) * ERRORS_PER_PAGE, page * ERRORS_PER_PAGE);
  const notListed = job.errorCount - job.errors.length;

  return (
    <Stack gap="md">
      {summary()}
      <Group gap="xl">
        <Text size="sm">
          {t('users.import.statRows', 'Rows read')}: <strong>{format.format(job.total)}</strong>
        </Text>
        <Text size="sm">
          {t('users.import.statCreated', 'Created')}: <strong>{format.format(job.created)}</strong>
        </Text>
        <Text size="sm">
          {t('users.import.statErrors', 'Errors')}: <strong>{format.format(job.errorCount)}</strong>
        </Text>
      </Group>
      {job.errors.length > 0 ? (
        <Stack gap="xs">
          <Table.ScrollContainer minWidth={420} maxHeight={320}>
            <Table striped withTableBorder stickyHeader captionSide="top">
              <Table.Caption>{t('users.import.errorsCaption', 'Row errors')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('users.import.errLine', 'Line')}</Table.Th>
                  <Table.Th scope="col">{t('users.import.errColumn', 'Column')}</Table.Th>
                  <Table.Th scope="col">{t('users.import.errMessage', 'Problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((error) => (
                  <Table.Tr key={`${error.row}-${error.field}-${error.message}`}>
                    <Table.Td>{error.row > 0 ? format.format(error.row) : '—'}</Table.Td>
                    <Table.Td>
                      <Code>{error.field}</Code>
                    </Table.Td>
                    <Table.Td>
                      {t(error.message, {
                        defaultValue: t('validation.invalid', 'This value is not valid.'),
                      })}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" gap="sm">
            {pages > 1 ? (
              <Pagination
                size="sm"
                total={pages}
                value={page}
                onChange={setPage}
                getControlProps={(control) => ({ 'aria-label': controlLabels[control] })}
                getItemProps={(item) => ({
                  'aria-label': t('users.import.errorsPage', 'Errors page {{page}}', { page: item }),
                })}
              />
            ) : (
              <span />
            )}
            {notListed > 0 ? (
              <Text size="sm" c="dimmed">
                {t('users.import.more', { count: notListed, defaultValue: 'and {{count, number}} more' })}
              </Text>
            ) : null}
          </Group>
        </Stack>
      ) : null}
    </Stack>
  );
}
