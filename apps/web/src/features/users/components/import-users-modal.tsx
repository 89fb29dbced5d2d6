import { Code, List, Text } from '@mantine/core';
import { USER_CSV_COLUMNS } from '@palisade/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CsvImportModal, csvCell } from '../../../components/ui/csv-import';
import { useLostSession } from '../../../lib/file-request';
import { useFeature } from '../../../lib/tenant-flags';
import { importJobQueryOptions } from '../api/get-import-job';
import { importUsers } from '../api/import-users';
import { usersKeys } from '../api/users-keys';

/** The columns the template offers: all of the export's except the connection status, which import ignores. */
export const TEMPLATE_COLUMNS = USER_CSV_COLUMNS.filter((column) => column !== 'connstatus');

/**
 * The template file: the header and one example row (in a group of the tenant when it has one). Without XDR in
 * the working tenant it has no `isxdrenabled` column (the server refuses rows that turn XDR on).
 */
export function templateCsv(exampleGroup: string | undefined, hasXdr = true): string {
  const columns = hasXdr ? TEMPLATE_COLUMNS : TEMPLATE_COLUMNS.filter((column) => column !== 'isxdrenabled');
  const example: Record<(typeof TEMPLATE_COLUMNS)[number], string> = {
    username: 'jane.doe@example.com',
    firstname: 'Jane',
    lastname: 'Doe',
    email: 'jane.doe@example.com',
    groups: exampleGroup ?? '',
    isprvaccess: 'true',
    issiauser: 'true',
    isxdrenabled: 'false',
    suci: '',
  };
  return `${columns.join(',')}\r\n${columns.map((column) => csvCell(example[column])).join(',')}\r\n`;
}

/** Props of {@link ImportUsersModal}. */
export interface ImportUsersModalProps {
  opened: boolean;
  tenant: string;
  /** The tenant's groups; the first one names the template's example group. */
  groups: { id: string; name: string }[];
  onClose: () => void;
}

/** "Import users from CSV": the shared import dialog with the users' columns and template. */
export function ImportUsersModal({ opened, tenant, groups, onClose }: ImportUsersModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const onLostSession = useLostSession();
  const hasXdr = useFeature('xdr');
  return (
    <CsvImportModal
      opened={opened}
      onClose={onClose}
      texts={{
        title: t('users.import.title', 'Import users from CSV'),
        done: (job) =>
          t('users.import.created', {
            count: job.created,
            defaultValue_one: '1 user created',
            defaultValue_other: '{{count, number}} users created',
          }),
        preview: (job) =>
          t('users.import.preview', {
            count: job.created,
            defaultValue_one: '1 user would be created',
            defaultValue_other: '{{count, number}} users would be created',
          }),
        failed: t(
          'users.import.failedText',
          'The import stopped before the end. The users list shows what was saved.',
        ),
      }}
      help={
        <>
          <Text size="sm">
            {t(
              'users.import.intro',
              'The first line names the columns; username, firstname and lastname are required, the others optional.',
            )}
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              <Code>username</Code> —{' '}
              {t('users.import.colUsername', 'the e-mail address the user signs in with (unique).')}
            </List.Item>
            <List.Item>
              <Code>firstname</Code>, <Code>lastname</Code>, <Code>email</Code> —{' '}
              {t('users.import.colNames', 'names, and where notifications go (the username when empty).')}
            </List.Item>
            <List.Item>
              <Code>groups</Code> —{' '}
              {t('users.import.colGroups', 'names of existing groups, separated by ";".')}
            </List.Item>
            {hasXdr ? (
              <List.Item>
                <Code>isprvaccess</Code>, <Code>issiauser</Code>, <Code>isxdrenabled</Code> —{' '}
                {t('users.import.colFlags', 'private access, internet access and XDR: true or false.')}
              </List.Item>
            ) : (
              <List.Item>
                <Code>isprvaccess</Code>, <Code>issiauser</Code> —{' '}
                {t('users.import.colFlagsNoXdr', 'private access and internet access: true or false.')}
              </List.Item>
            )}
            <List.Item>
              <Code>suci</Code> — {t('users.import.colSuci', 'optional, for private 5G.')}{' '}
              <Code>connstatus</Code> — {t('users.import.colConnstatus', 'ignored (it is in exports only).')}
            </List.Item>
          </List>
        </>
      }
      template={{ csv: templateCsv(groups[0]?.name, hasXdr), fileName: 'users-import-template.csv' }}
      startImport={(csv, mode, dryRun) => importUsers(tenant, csv, mode, onLostSession, dryRun)}
      jobQueryOptions={(id) => importJobQueryOptions(tenant, id)}
      onImported={() => void queryClient.invalidateQueries({ queryKey: usersKeys.lists(tenant) })}
    />
  );
}
