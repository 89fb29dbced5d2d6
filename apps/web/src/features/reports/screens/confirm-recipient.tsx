import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useConfirmRecipient } from '../api/confirm-recipient';

/** What a failed confirmation means for the reader: the link is spent or unknown, expired, or something else. */
export function confirmFailure(error: unknown): 'invalid' | 'expired' | 'failed' {
  if (error instanceof ApiError) {
    if (error.status === 410) return 'expired';
    if (error.status === 404 || error.status === 400) return 'invalid';
  }
  return 'failed';
}

/**
 * `/verify/report-recipient/:id`: the page of the link a report recipient was mailed (public). Nothing is
 * confirmed by opening it — mail scanners open links too — only by the button, once.
 */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const confirm = useConfirmRecipient();

  const renderBody = () => {
    if (confirm.data) {
      return (
        <Alert color="green" title={t('reports.confirm.doneTitle', 'Address confirmed')}>
          {t(
            'reports.confirm.done',
            '{{email}} now receives the reports that administrators of {{tenant}} schedule for it.',
            { email: confirm.data.email, tenant: confirm.data.tenantDisplayName },
          )}
        </Alert>
      );
    }
    const failure = confirm.error ? confirmFailure(confirm.error) : null;
    return (
      <Stack gap="md">
        {failure === 'expired' ? (
          <Alert color="yellow" title={t('reports.confirm.expiredTitle', 'This link has expired')}>
            {t(
              'reports.confirm.expired',
              'Ask an administrator of the workspace to send you a new one. Nothing is mailed to you until you confirm.',
            )}
          </Alert>
        ) : failure === 'invalid' ? (
          <Alert color="yellow" title={t('reports.confirm.invalidTitle', 'This link is not valid')}>
            {t(
              'reports.confirm.invalid',
              'It was already used, a newer one was sent, or it was not copied completely. If you confirmed already, nothing more is needed.',
            )}
          </Alert>
        ) : failure === 'failed' ? (
          <Alert color="red" title={t('reports.confirm.failedTitle', 'The address was not confirmed')}>
            {t('error.genericFetchErrorText', 'We could not load the data. Please try again.')}
          </Alert>
        ) : null}
        {failure === 'expired' || failure === 'invalid' ? null : (
          <Button fullWidth loading={confirm.isPending} onClick={() => confirm.mutate(id)}>
            {t('reports.confirm.submit', 'Confirm and receive the reports')}
          </Button>
        )}
      </Stack>
    );
  };

  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={460}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h3">
            {t('reports.confirm.title', 'Receive Palisade reports')}
          </Title>
          <Text size="sm" c="dimmed">
            {t(
              'reports.confirm.description',
              'An administrator of a Palisade workspace would like to mail security reports to your address. Confirm to receive them; if you did not expect this, close this page and you will receive none.',
            )}
          </Text>
        </Stack>
        {renderBody()}
      </Stack>
    </Paper>
  );
}
