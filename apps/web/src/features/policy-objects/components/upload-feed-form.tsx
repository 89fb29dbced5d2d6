import { Alert, FileInput, List, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import {
  type FeedLineError,
  isTxtFileName,
  MAX_FEED_BYTES,
  parseFeedText,
  UploadFeedInput,
} from '@palisade/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { translateKey, zodValidator } from '../../../lib/form-errors';
import { formatNumber } from '../../../lib/i18n';
import { handleFormError } from '../api/mutation';
import { ObjectFormActions } from './object-form';
import { useTestFailures } from './policy-test-failures-alert';

interface UploadFeedFormValues {
  name: string;
  fileName: string;
  content: string;
  enabled: boolean;
}

/** What the chosen file holds, as the server will read it. */
interface Preview {
  ips: number;
  domains: number;
  errors: FeedLineError[];
}

/** At most this many line errors are listed; the rest are counted. */
const MAX_LINE_ERRORS = 20;

/**
 * Line errors of a refused upload (400): details whose path names a line of the content
 * (`body.content.7` = line 7), as the server reports what it could not read.
 */
function serverLineErrors(error: unknown): FeedLineError[] {
  if (!(error instanceof ApiError) || !error.details) return [];
  const lines: FeedLineError[] = [];
  for (const detail of error.details) {
    const match = /^(?:body\.)?content\.(\d+)$/.exec(detail.path);
    if (match) lines.push({ line: Number(match[1]), value: '', message: detail.message });
  }
  return lines;
}

/** Props of {@link UploadFeedFormModal}. */
export interface UploadFeedFormModalProps {
  opened: boolean;
  onSubmit: (input: UploadFeedInput) => Promise<unknown>;
  onCancel: () => void;
}

/** "Upload .txt": a feed from a text file, checked and counted before it is sent. */
export function UploadFeedFormModal({ opened, onSubmit, onCancel }: UploadFeedFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      size="lg"
      title={t('policyObjects.feeds.upload.title', 'Upload a feed file')}
    >
      <UploadFeedForm onSubmit={onSubmit} onCancel={onCancel} />
    </Modal>
  );
}

/**
 * The upload form. The file must be a `.txt` file (the contract's `isTxtFileName`); it is read here and parsed
 * with the contract's `parseFeedText`, so the admin sees how many IPs and domains it holds and which lines
 * cannot be read (by line number) before anything is sent. Lines the server refuses are shown the same way.
 */
export function UploadFeedForm({ onSubmit, onCancel }: Omit<UploadFeedFormModalProps, 'opened'>) {
  const { t } = useTranslation();
  const failures = useTestFailures();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [serverLines, setServerLines] = useState<FeedLineError[]>([]);
  const form = useForm<UploadFeedFormValues>({
    mode: 'controlled',
    initialValues: { name: '', fileName: '', content: '', enabled: true },
    validate: (values) => {
      const errors: FormErrors = zodValidator(UploadFeedInput, t)(values);
      if (!values.fileName && !errors.fileName) errors.fileName = translateKey(t, 'validation.required');
      return errors;
    },
  });

  const handleFile = async (chosen: File | null) => {
    setFile(chosen);
    setPreview(null);
    setServerLines([]);
    failures.clear();
    // Changing the values clears every error; the file's own error is set in one go after that (setting a
    // field error equal to the one being cleared would be skipped by the form).
    form.setValues({ fileName: chosen?.name ?? '', content: '' });
    if (!chosen) return;
    if (!isTxtFileName(chosen.name)) {
      form.setErrors({ fileName: translateKey(t, 'validation.txtFile') });
      return;
    }
    if (chosen.size > MAX_FEED_BYTES) {
      form.setErrors({ fileName: translateKey(t, 'validation.fileTooLarge') });
      return;
    }
    const content = await chosen.text();
    const parsed = parseFeedText(content);
    form.setValues({ content });
    if (parsed.ips.length + parsed.domains.length + parsed.errors.length === 0)
      form.setErrors({ content: translateKey(t, 'validation.feedEmpty') });
    if (!form.values.name.trim()) form.setFieldValue('name', chosen.name.replace(/\.txt$/i, ''));
    setPreview({ ips: parsed.ips.length, domains: parsed.domains.length, errors: parsed.errors });
  };

  const lineErrors = serverLines.length > 0 ? serverLines : (preview?.errors ?? []);
  const fileError = form.errors.fileName ?? form.errors.content;
  const canUpload = preview !== null && preview.errors.length === 0 && !fileError;

  const handleSubmit = form.onSubmit(async (values) => {
    failures.clear();
    setServerLines([]);
    try {
      await onSubmit({
        name: values.name,
        fileName: values.fileName,
        content: values.content,
        enabled: values.enabled,
      });
    } catch (error) {
      const lines = serverLineErrors(error);
      if (lines.length > 0) {
        setServerLines(lines);
        return;
      }
      handleFormError(t, error, { captureFailures: failures.capture, setErrors: form.setErrors });
    }
  });

  const rest = lineErrors.length - MAX_LINE_ERRORS;
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <FileInput
          label={t('policyObjects.feeds.upload.file', 'Feed file (.txt)')}
          description={t(
            'policyObjects.feeds.upload.fileHint',
            'One IP, CIDR block or domain per line; # starts a comment; hosts-file lines are read too.',
          )}
          placeholder={t('policyObjects.feeds.upload.choose', 'Choose a file')}
          accept=".txt,text/plain"
          required
          clearable
          value={file}
          onChange={(chosen) => void handleFile(chosen)}
          error={fileError}
          data-path="fileName"
        />
        <TextInput
          label={t('policyObjects.feeds.form.name', 'Name')}
          required
          autoComplete="off"
          {...form.getInputProps('name')}
        />
        <Switch
          label={t('policyObjects.feeds.form.enabled', 'Block its entries from now on')}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        {preview ? (
          <Text size="sm" role="status">
            {t('policyObjects.feeds.upload.preview', '{{ips}} and {{domains}} found.', {
              ips: t('policyObjects.feeds.ipCount', {
                count: preview.ips,
                formatted: formatNumber(preview.ips),
                defaultValue_one: '{{formatted}} IP or CIDR block',
                defaultValue_other: '{{formatted}} IPs or CIDR blocks',
              }),
              domains: t('policyObjects.feeds.domainCount', {
                count: preview.domains,
                formatted: formatNumber(preview.domains),
                defaultValue_one: '{{formatted}} domain',
                defaultValue_other: '{{formatted}} domains',
              }),
            })}
          </Text>
        ) : null}
        {lineErrors.length > 0 ? (
          <Alert
            color="red"
            variant="light"
            role="alert"
            title={t('policyObjects.feeds.upload.lineErrors', {
              count: lineErrors.length,
              defaultValue_one: 'One line cannot be read. Fix it and choose the file again.',
              defaultValue_other: '{{count}} lines cannot be read. Fix them and choose the file again.',
            })}
          >
            <List
              size="sm"
              spacing={2}
              aria-label={t('policyObjects.feeds.upload.lineErrorList', 'Lines that cannot be read')}
            >
              {lineErrors.slice(0, MAX_LINE_ERRORS).map((error) => (
                <List.Item key={error.line}>
                  {error.value
                    ? t(
                        'policyObjects.feeds.upload.lineWithValue',
                        'Line {{line}}: “{{value}}” — {{message}}',
                        {
                          line: error.line,
                          value: error.value,
                          message: translateKey(t, error.message),
                        },
                      )
                    : t('policyObjects.lineError', 'Line {{line}}: {{message}}', {
                        line: error.line,
                        message: translateKey(t, error.message),
                      })}
                </List.Item>
              ))}
              {rest > 0 ? (
                <List.Item>
                  {t('policyObjects.moreLineErrors', {
                    count: rest,
                    defaultValue_one: 'and {{count}} more line',
                    defaultValue_other: 'and {{count}} more lines',
                  })}
                </List.Item>
              ) : null}
            </List>
          </Alert>
        ) : null}
        <ObjectFormActions
          failures={failures}
          isSubmitting={form.submitting}
          isSubmitDisabled={!canUpload}
          onCancel={onCancel}
          submitLabel={t('policyObjects.feeds.upload.submit', 'Upload')}
        />
      </Stack>
    </form>
  );
}
