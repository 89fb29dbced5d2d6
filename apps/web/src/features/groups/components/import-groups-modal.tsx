import { Code, List, Text } from '@mantine/core';
import { GROUP_CSV_COLUMNS, GROUP_CSV_MEMBER_SEPARATOR } from '@palisade/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CsvImportModal, csvCell } from '../../../components/ui/csv-import';
import { useLostSession } from '../../../lib/file-request';
import { groupImportJobQueryOptions } from '../api/get-group-import-job';
import { groupsKeys } from '../api/groups-keys';
import { importGroups } from '../api/import-groups';

/** The template file: the header and one example row. */
export function templateCsv(): string {
  const example: Record<(typeof GROUP_CSV_COLUMNS)[number], string> = {
    name: 'Engineering',
    description: 'Builds the product',
    members: ['jane.doe@example.com', 'john.roe@example.com'].join(GROUP_CSV_MEMBER_SEPARATOR),
  };
  return `${GROUP_CSV_COLUMNS.join(',')}\r\n${GROUP_CSV_COLUMNS.map((column) => csvCell(example[column])).join(',')}\r\n`;
}

/** Props of {@link ImportGroupsModal}. */
export interface ImportGroupsModalProps {
  opened: boolean;
  tenant: string;
  onClose: () => void;
}

/** "Import groups from CSV": the shared import dialog with the groups' columns and template. */
export function ImportGroupsModal({ opened, tenant, onClose }: ImportGroupsModalProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const onLostSession = useLostSession();
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language);
  return (
    <CsvImportModal
      opened={opened}
      onClose={onClose}
      texts={{
        title: t('groups.import.title', 'Import groups from CSV'),
        done: (job) =>
          t('groups.import.done', 'Groups imported: {{created}} created, {{updated}} changed', {
            created: format.format(job.created),
            updated: format.format(job.updated ?? 0),
          }),
        preview: (job) =>
          t('groups.import.preview', 'The import would create {{created}} groups and change {{updated}}', {
            created: format.format(job.created),
            updated: format.format(job.updated ?? 0),
          }),
        failed: t(
          'groups.import.failedText',
          'The import stopped because of an error. The groups list shows what was saved.',
        ),
      }}
      help={
        <>
          <Text size="sm">
            {t(
              'groups.import.intro',
              'The first line names the columns; name is required, description and members are optional. A row with the name of an existing group changes that group; any other row creates one.',
            )}
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              <Code>name</Code> —{' '}
              {t(
                'groups.import.colName',
                "the group's name (unique in this tenant; upper and lower case count as the same).",
              )}
            </List.Item>
            <List.Item>
              <Code>description</Code> —{' '}
              {t(
                'groups.import.colDescription',
                'optional; for an existing group it replaces the description, an empty cell keeps it.',
              )}
            </List.Item>
            <List.Item>
              <Code>members</Code> —{' '}
              {t(
                'groups.import.colMembers',
                'usernames of end users of this tenant, separated by ";". They are added; members already in the group stay.',
              )}
            </List.Item>
          </List>
        </>
      }
      template={{ csv: templateCsv(), fileName: 'groups-import-template.csv' }}
      startImport={(csv, mode, dryRun) => importGroups(tenant, csv, mode, onLostSession, dryRun)}
      jobQueryOptions={(id) => groupImportJobQueryOptions(tenant, id)}
      onImported={() => {
        // Groups, their members and the users' group memberships may all have changed.
        void queryClient.invalidateQueries({ queryKey: groupsKeys.all(tenant) });
        void queryClient.invalidateQueries({ queryKey: groupsKeys.users(tenant) });
      }}
    />
  );
}
