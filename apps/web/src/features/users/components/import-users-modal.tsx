import {
  Anchor,
  Button,
  Code,
  Group,
  Input,
  List,
  Loader,
  Modal,
  Progress,
  Radio,
  Stack,
  Text,
} from '@mantine/core';
import { type ImportJob, MAX_IMPORT_BYTES, USER_CSV_COLUMNS } from '@palisade/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { serverFieldErrors } from '../../../lib/form-errors';
import { useImportJob } from '../api/get-import-job';
import { type ImportMode, useImportUsers } from '../api/import-users';
import { usersKeys } from '../api/users-keys';
import { ImportResult } from './import-result';

/** The columns the template offers: all of the export's except the connection status, which import ignores. */
export const TEMPLATE_COLUMNS = USER_CSV_COLUMNS.filter((column) => column !== 'connstatus');

/** One CSV cell, quoted when it holds a separator, a quote or a line break. */
function csvCell(value: string): string {
  return /[",;\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The template file: the header and one example row (in a group of the tenant when it has one). */
export function templateCsv(exampleGroup: string | undefined): string {
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
  return `${TEMPLATE_COLUMNS.join(',')}\r\n${TEMPLATE_COLUMNS.map((column) => csvCell(example[column])).join(',')}\r\n`;
}

/** Props of {@link ImportUsersModal}. */
export interface ImportUsersModalProps {
  opened: boolean;
  tenant: string;
  /** The tenant's groups; the first one names the template's example group. */
  groups: { id: string; name: string }[];
  onClose: () => void;
}

/** "Import users from CSV": explains the file, uploads it, shows the progress and then the row errors. */
export function ImportUsersModal({ opened, tenant, groups, onClose }: ImportUsersModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('users.import.title', 'Import users from CSV')}
      size="lg"
      centered
    >
      {/* Rendered only while open, so every opening starts with an empty form. */}
      {opened ? <ImportUsersContent tenant={tenant} groups={groups} onClose={onClose} /> : null}
    </Modal>
  );
}

function ImportUsersContent({ tenant, groups, onClose }: Omit<ImportUsersModalProps, 'opened'>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const fileInputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mode, setMode] = useState<ImportMode>('all');
  const [jobId, setJobId] = useState<string | null>(null);
  const [isReading, setReading] = useState(false);

  const importMutation = useImportUsers(tenant, {
    onError: (error) => {
      const fields = serverFieldErrors(error, t);
      const message =
        fields.body ??
        Object.values(fields)[0] ??
        (error instanceof ApiError
          ? t(`error.${error.errcode}`, { defaultValue: error.message })
          : t('error.genericFetchErrorText', 'Something went wrong while fetching data.'));
      setFileError(message);
    },
  });
  const jobQuery = useImportJob(tenant, jobId);
  const job = jobQuery.data;

  const close = () => {
    // Whatever was imported so far shows in the list.
    if (jobId) void queryClient.invalidateQueries({ queryKey: usersKeys.lists(tenant) });
    onClose();
  };

  const start = async () => {
    if (!file) {
      setFileError(t('users.import.fileRequired', 'Choose a CSV file.'));
      return;
    }
    if (file.size > MAX_IMPORT_BYTES) {
      setFileError(t('users.import.fileTooLarge', 'The file is larger than 20 MB.'));
      return;
    }
    setReading(true);
    let csv: string;
    try {
      csv = await file.text();
    } catch {
      setFileError(t('validation.csvUnreadable', 'The file is not a readable CSV file.'));
      return;
    } finally {
      setReading(false);
    }
    importMutation.mutate(
      { csv, mode },
      {
        onSuccess: (started: ImportJob) => {
          queryClient.setQueryData(usersKeys.importJob(tenant, started.id), started);
          setJobId(started.id);
        },
      },
    );
  };

  if (jobId && job && job.status !== 'running') {
    return (
      <Stack gap="md">
        <ImportResult job={job} />
        <Group justify="flex-end">
          <Button onClick={close} data-autofocus>
            {t('users.import.close', 'Close')}
          </Button>
        </Group>
      </Stack>
    );
  }

  if (jobId) {
    return (
      <Stack gap="md">
        <ImportProgress job={job} />
        {jobQuery.isError ? (
          <Text size="sm" c="red" role="alert">
            {t('users.import.pollFailed', 'The progress could not be loaded; trying again.')}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {t('users.import.background', 'The import goes on if you close this window.')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('users.import.close', 'Close')}
          </Button>
        </Group>
      </Stack>
    );
  }

  const template = `data:text/csv;charset=utf-8,${encodeURIComponent(templateCsv(groups[0]?.name))}`;
  const isStarting = isReading || importMutation.isPending;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
    >
      <Stack gap="md">
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
            <Code>groups</Code> — {t('users.import.colGroups', 'names of existing groups, separated by ";".')}
          </List.Item>
          <List.Item>
            <Code>isprvaccess</Code>, <Code>issiauser</Code>, <Code>isxdrenabled</Code> —{' '}
            {t('users.import.colFlags', 'private access, internet access and XDR: true or false.')}
          </List.Item>
          <List.Item>
            <Code>suci</Code> — {t('users.import.colSuci', 'optional, for private 5G.')}{' '}
            <Code>connstatus</Code> — {t('users.import.colConnstatus', 'ignored (it is in exports only).')}
          </List.Item>
        </List>
        <Anchor href={template} download="users-import-template.csv" size="sm">
          {t('users.import.template', 'Download template')}
        </Anchor>
        <Input.Wrapper
          id={fileInputId}
          label={t('users.import.file', 'CSV file')}
          description={t('users.import.fileHint', 'A .csv file of up to 20 MB, UTF-8.')}
          descriptionProps={{ id: `${fileInputId}-description` }}
          error={fileError}
          errorProps={{ id: `${fileInputId}-error` }}
          required
        >
          <input
            id={fileInputId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={`${fileInputId}-description${fileError ? ` ${fileInputId}-error` : ''}`}
            aria-invalid={fileError ? true : undefined}
            style={{ display: 'block', marginTop: 4 }}
            onChange={(event) => {
              setFile(event.currentTarget.files?.[0] ?? null);
              setFileError(null);
            }}
          />
        </Input.Wrapper>
        <Radio.Group
          label={t('users.import.modeLabel', 'When some rows have errors')}
          value={mode}
          onChange={(value) => setMode(value as ImportMode)}
        >
          <Stack gap="xs" mt="xs">
            <Radio
              value="all"
              label={t('users.import.modeAll', 'All or nothing')}
              description={t('users.import.modeAllHint', 'Nothing is imported until every row is valid.')}
            />
            <Radio
              value="valid"
              label={t('users.import.modeValid', 'Import valid rows, report the rest')}
              description={t('users.import.modeValidHint', 'Good rows are created; the bad ones are listed.')}
            />
          </Stack>
        </Radio.Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={isStarting}>
            {t('users.import.cancel', 'Cancel')}
          </Button>
          <Button type="submit" loading={isStarting}>
            {t('users.import.submit', 'Import')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The progress of a running import: a bar with "processed of total" once the file has been read. */
function ImportProgress({ job }: { job: ImportJob | undefined }) {
  const { t, i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language);
  if (!job || job.total === 0) {
    return (
      <Group gap="sm" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden />
        <Text size="sm">{t('users.import.reading', 'Reading and checking the file…')}</Text>
      </Group>
    );
  }
  const percent = Math.min(100, Math.round((job.processed / job.total) * 100));
  return (
    <Stack gap="xs">
      <Progress
        value={percent}
        size="lg"
        animated
        aria-label={t('users.import.progressLabel', 'Import progress')}
      />
      <Text size="sm" role="status" aria-live="polite">
        {t('users.import.progress', '{{processed}} of {{total}} rows processed', {
          processed: format.format(job.processed),
          total: format.format(job.total),
        })}
      </Text>
    </Stack>
  );
}
