import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Input,
  Loader,
  Modal,
  Pagination,
  Paper,
  Progress,
  Radio,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { type IMPORT_MODES, type ImportJob, MAX_IMPORT_BYTES } from '@palisade/contracts';
import {
  type QueryKey,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { serverFieldErrors } from '../../lib/form-errors';

/** all: nothing is saved when a row is bad; valid: good rows are saved, bad ones reported. */
export type ImportMode = (typeof IMPORT_MODES)[number];

/** Row errors shown per page of the result table. */
export const ERRORS_PER_PAGE = 50;

/** The texts of an import that name what it imports (users, groups…); the rest are shared. */
export interface CsvImportTexts {
  /** The dialog's title, e.g. "Import users from CSV". */
  title: string;
  /** The title of a finished import that saved rows, e.g. "12 users created". */
  done: (job: ImportJob) => string;
  /** The title of a preview (dry run), e.g. "12 users would be created". */
  preview: (job: ImportJob) => string;
  /** The text of a failed import, e.g. "The import stopped before the end. The users list shows what was saved." */
  failed: string;
}

/** One CSV cell, quoted when it holds a separator, a quote or a line break. */
export function csvCell(value: string): string {
  return /[",;\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The outcome of a finished import: what was saved, and the row errors by line and column. */
export function ImportResult({
  job,
  texts,
}: {
  job: ImportJob;
  texts: Pick<CsvImportTexts, 'done' | 'preview' | 'failed'>;
}) {
  const { t, i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language);
  const [page, setPage] = useState(1);

  const summary = () => {
    if (job.status === 'failed') {
      return (
        <Alert
          color="red"
          variant="light"
          title={
            job.dryRun
              ? t('common.csvImport.previewFailed', 'The file could not be checked')
              : t('common.csvImport.failed', 'The import failed')
          }
          role="alert"
        >
          {job.dryRun
            ? t('common.csvImport.previewFailedText', 'The check stopped before the end. Nothing was saved.')
            : texts.failed}
        </Alert>
      );
    }
    if (job.errorCount > 0 && job.mode === 'all') {
      return (
        <Alert
          color="red"
          variant="light"
          title={
            job.dryRun
              ? t('common.csvImport.wouldBlock', 'Nothing would be imported')
              : t('common.csvImport.blocked', 'Nothing was imported')
          }
          role="alert"
        >
          {t('common.csvImport.blockedText', {
            count: job.errorCount,
            defaultValue_one: 'The file has 1 error. Fix it and import the file again.',
            defaultValue_other: 'The file has {{count, number}} errors. Fix them and import the file again.',
          })}
        </Alert>
      );
    }
    return (
      <Alert
        color={job.errorCount > 0 ? 'yellow' : job.dryRun ? 'blue' : 'green'}
        variant="light"
        title={job.dryRun ? texts.preview(job) : texts.done(job)}
        role="status"
      >
        {job.dryRun
          ? job.errorCount > 0
            ? t('common.csvImport.previewSkipped', {
                count: job.errorCount,
                defaultValue_one: 'Nothing is saved yet. 1 error; the rows with errors would be skipped.',
                defaultValue_other:
                  'Nothing is saved yet. {{count, number}} errors; the rows with errors would be skipped.',
              })
            : t('common.csvImport.previewGood', 'Nothing is saved yet. Every row can be imported.')
          : job.errorCount > 0
            ? t('common.csvImport.skipped', {
                count: job.errorCount,
                defaultValue_one: '1 error; the rows with errors were skipped.',
                defaultValue_other: '{{count, number}} errors; the rows with errors were skipped.',
              })
            : t('common.csvImport.allGood', 'Every row was imported.')}
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
          {t('common.csvImport.statRows', 'Rows read')}: <strong>{format.format(job.total)}</strong>
        </Text>
        <Text size="sm">
          {t('common.csvImport.statCreated', 'Created')}: <strong>{format.format(job.created)}</strong>
        </Text>
        {job.updated === undefined ? null : (
          <Text size="sm">
            {t('common.csvImport.statUpdated', 'Updated')}: <strong>{format.format(job.updated)}</strong>
          </Text>
        )}
        <Text size="sm">
          {t('common.csvImport.statErrors', 'Errors')}: <strong>{format.format(job.errorCount)}</strong>
        </Text>
      </Group>
      {job.errors.length > 0 ? (
        <Stack gap="xs">
          <Table.ScrollContainer minWidth={420} maxHeight={320}>
            <Table striped withTableBorder stickyHeader captionSide="top">
              <Table.Caption>{t('common.csvImport.errorsCaption', 'Row errors')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('common.csvImport.errLine', 'Line')}</Table.Th>
                  <Table.Th scope="col">{t('common.csvImport.errColumn', 'Column')}</Table.Th>
                  <Table.Th scope="col">{t('common.csvImport.errMessage', 'Problem')}</Table.Th>
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
                  'aria-label': t('common.csvImport.errorsPage', 'Errors page {{page}}', { page: item }),
                })}
              />
            ) : (
              <span />
            )}
            {notListed > 0 ? (
              <Text size="sm" c="dimmed">
                {t('common.csvImport.more', { count: notListed, defaultValue: 'and {{count, number}} more' })}
              </Text>
            ) : null}
          </Group>
        </Stack>
      ) : null}
    </Stack>
  );
}

/** The progress of a running import: a bar with "processed of total" once the file has been read. */
export function ImportProgress({ job }: { job: ImportJob | undefined }) {
  const { t, i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language);
  if (!job || job.total === 0) {
    return (
      <Group gap="sm" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden />
        <Text size="sm">{t('common.csvImport.reading', 'Reading and checking the file…')}</Text>
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
        aria-label={t('common.csvImport.progressLabel', 'Import progress')}
      />
      <Text size="sm" role="status" aria-live="polite">
        {t('common.csvImport.progress', '{{processed}} of {{total}} rows processed', {
          processed: format.format(job.processed),
          total: format.format(job.total),
        })}
      </Text>
    </Stack>
  );
}

/** Props of {@link CsvImportModal}. */
export interface CsvImportModalProps<K extends QueryKey = QueryKey> {
  opened: boolean;
  /** Closes the dialog (a started import goes on on the server). */
  onClose: () => void;
  texts: CsvImportTexts;
  /** What the file holds: the columns, shown above the file picker. */
  help: ReactNode;
  /** The example file the dialog offers for download. */
  template: { csv: string; fileName: string };
  /** Uploads the file's text; answers the started job (a preview when `dryRun`). */
  startImport: (csv: string, mode: ImportMode, dryRun: boolean) => Promise<ImportJob>;
  /** Query options that poll a job until it is done. */
  jobQueryOptions: (id: string) => UseQueryOptions<ImportJob, Error, ImportJob, K> & { queryKey: K };
  /** Called on closing once an import has started: refresh what it may have changed. */
  onImported: () => void;
}

/**
 * "Import … from CSV": explains the file, takes it from the file picker or dropped on the dialog, previews what
 * it would change (a dry run: counts and row errors, nothing saved), then imports it, showing the progress and
 * the row errors.
 */
export function CsvImportModal<K extends QueryKey>({
  opened,
  onClose,
  texts,
  ...content
}: CsvImportModalProps<K>) {
  return (
    <Modal opened={opened} onClose={onClose} title={texts.title} size="lg" centered>
      {/* Rendered only while open, so every opening starts with an empty form. */}
      {opened ? <CsvImportContent onClose={onClose} texts={texts} {...content} /> : null}
    </Modal>
  );
}

function CsvImportContent<K extends QueryKey>({
  onClose,
  texts,
  help,
  template,
  startImport,
  jobQueryOptions,
  onImported,
}: Omit<CsvImportModalProps<K>, 'opened'>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const fileInputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mode, setMode] = useState<ImportMode>('all');
  const [jobId, setJobId] = useState<string | null>(null);
  const [isReading, setReading] = useState(false);
  const [isDragging, setDragging] = useState(false);
  /** The file's text once read: the preview and then the import send the same. */
  const [csvText, setCsvText] = useState<string | null>(null);

  const importMutation = useMutation({
    // The dialog shows the failure next to the file.
    meta: { isSilent: true },
    mutationFn: (input: { csv: string; mode: ImportMode; dryRun: boolean }) =>
      startImport(input.csv, input.mode, input.dryRun),
    onSuccess: (started) => {
      queryClient.setQueryData<ImportJob>(jobQueryOptions(started.id).queryKey, started);
      setJobId(started.id);
    },
    onError: (error) => {
      const fields = serverFieldErrors(error, t);
      setFileError(
        fields.body ??
          Object.values(fields)[0] ??
          (error instanceof ApiError
            ? t(`error.${error.errcode}`, { defaultValue: error.message })
            : t('error.genericFetchErrorText', 'Something went wrong while fetching data.')),
      );
    },
  });
  const jobQuery = useQuery({ ...jobQueryOptions(jobId ?? ''), enabled: jobId !== null });
  const job = jobQuery.data;

  const close = () => {
    // Whatever was imported so far shows in the lists.
    if (jobId && !job?.dryRun) onImported();
    onClose();
  };

  const chooseFile = (chosen: File | null) => {
    setFile(chosen);
    setFileError(null);
  };

  const start = async () => {
    if (!file) {
      setFileError(t('common.csvImport.fileRequired', 'Choose a CSV file.'));
      return;
    }
    if (file.size > MAX_IMPORT_BYTES) {
      setFileError(t('common.csvImport.fileTooLarge', 'The file is larger than 20 MB.'));
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
    setCsvText(csv);
    importMutation.mutate({ csv, mode, dryRun: true });
  };

  if (jobId && job && job.status !== 'running' && job.dryRun) {
    const nothingToDo =
      job.status === 'failed' ||
      (job.errorCount > 0 && job.mode === 'all') ||
      job.created + (job.updated ?? 0) === 0;
    return (
      <Stack gap="md">
        <ImportResult job={job} texts={texts} />
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={() => {
              setJobId(null);
              setCsvText(null);
            }}
          >
            {t('common.csvImport.back', 'Choose another file')}
          </Button>
          <Button
            data-autofocus
            disabled={nothingToDo || csvText === null}
            loading={importMutation.isPending}
            onClick={() => {
              if (csvText !== null) importMutation.mutate({ csv: csvText, mode, dryRun: false });
            }}
          >
            {t('common.csvImport.confirm', 'Import')}
          </Button>
        </Group>
      </Stack>
    );
  }

  if (jobId && job && job.status !== 'running') {
    return (
      <Stack gap="md">
        <ImportResult job={job} texts={texts} />
        <Group justify="flex-end">
          <Button onClick={close} data-autofocus>
            {t('common.csvImport.close', 'Done')}
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
            {t('common.csvImport.pollFailed', 'The progress could not be loaded; trying again.')}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {t('common.csvImport.background', 'The import goes on if you close this window.')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.csvImport.close', 'Done')}
          </Button>
        </Group>
      </Stack>
    );
  }

  const isStarting = isReading || importMutation.isPending;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void start();
      }}
    >
      <Stack gap="md">
        {help}
        <Anchor
          href={`data:text/csv;charset=utf-8,${encodeURIComponent(template.csv)}`}
          download={template.fileName}
          size="sm"
        >
          {t('common.csvImport.template', 'Download template')}
        </Anchor>
        <Input.Wrapper
          id={fileInputId}
          label={t('common.csvImport.file', 'CSV file')}
          description={t(
            'common.csvImport.fileHint',
            'A .csv file of up to 20 MB, UTF-8: choose it, or drop it here. Usual column names work too (First name, E-Mail, Vorname…).',
          )}
          descriptionProps={{ id: `${fileInputId}-description` }}
          error={fileError}
          errorProps={{ id: `${fileInputId}-error` }}
          required
        >
          <Paper
            withBorder
            p="md"
            mt={4}
            data-testid="csv-drop-zone"
            data-dragging={isDragging || undefined}
            style={{
              borderStyle: 'dashed',
              borderColor: isDragging ? 'var(--mantine-primary-color-filled)' : undefined,
            }}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(event) => {
              event.preventDefault();
              setDragging(false);
              chooseFile(event.dataTransfer.files[0] ?? null);
            }}
          >
            <input
              id={fileInputId}
              type="file"
              accept=".csv,text/csv"
              aria-describedby={`${fileInputId}-description${fileError ? ` ${fileInputId}-error` : ''}`}
              aria-invalid={fileError ? true : undefined}
              style={{ display: 'block' }}
              onChange={(event) => chooseFile(event.currentTarget.files?.[0] ?? null)}
            />
            {file ? (
              <Text size="sm" mt="xs" role="status">
                {t('common.csvImport.chosen', 'Chosen: {{name}}', { name: file.name })}
              </Text>
            ) : null}
          </Paper>
        </Input.Wrapper>
        <Radio.Group
          label={t('common.csvImport.modeLabel', 'When some rows have errors')}
          value={mode}
          onChange={(value) => setMode(value as ImportMode)}
        >
          <Stack gap="xs" mt="xs">
            <Radio
              value="all"
              label={t('common.csvImport.modeAll', 'All or nothing')}
              description={t('common.csvImport.modeAllHint', 'Nothing is imported until every row is valid.')}
            />
            <Radio
              value="valid"
              label={t('common.csvImport.modeValid', 'Import valid rows, report the rest')}
              description={t(
                'common.csvImport.modeValidHint',
                'Good rows are imported; the bad ones are listed.',
              )}
            />
          </Stack>
        </Radio.Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={isStarting}>
            {t('common.csvImport.cancel', 'Cancel')}
          </Button>
          <Button type="submit" loading={isStarting}>
            {t('common.csvImport.check', 'Check the file')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
