import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format-time';
import type { GatewayCreatedAnswer } from '../api/gateways-keys';
import { installCommand } from '../utils/gateway-facts';

/** A labelled value in monospace with a copy button that says "Copied" for a moment after a click. */
function CopyValue({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <Stack gap={6}>
      <Group justify="space-between" align="center" gap="sm" wrap="nowrap">
        <Text size="sm" fw={500} id={labelId}>
          {label}
        </Text>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
              {copied ? t('gateways.token.copied', 'Copied') : copyLabel}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block aria-labelledby={labelId} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {value}
      </Code>
    </Stack>
  );
}

/** Props of {@link EnrolmentToken}. */
export interface EnrolmentTokenProps {
  answer: GatewayCreatedAnswer;
  onDone: () => void;
}

/**
 * A gateway's one-time enrolment token with its expiry and the install command, each with a copy button, and a
 * plain warning that it is shown only this once.
 */
export function EnrolmentToken({ answer, onDone }: EnrolmentTokenProps) {
  const { t } = useTranslation();
  const { token, expiresAt } = answer.enrolmentToken;
  const expiry = useFormatters().dateTime(expiresAt);
  return (
    <Stack gap="md">
      <Alert color="orange" title={t('gateways.token.onceTitle', 'Copy the token now')}>
        {t(
          'gateways.token.onceText',
          'This enrolment token is shown only this once. If it is lost, rotate the credentials of “{{name}}” to get a new one.',
          { name: answer.cybernode.name },
        )}
      </Alert>
      <CopyValue
        label={t('gateways.token.label', 'Enrolment token')}
        value={token}
        copyLabel={t('gateways.token.copyToken', 'Copy token')}
      />
      <Text size="sm">
        {t('gateways.token.expires', 'Valid until {{date}}; it works for one enrolment.', { date: expiry })}
      </Text>
      <CopyValue
        label={t('gateways.token.command', 'Install command')}
        value={installCommand(token)}
        copyLabel={t('gateways.token.copyCommand', 'Copy command')}
      />
      <Text size="sm" c="dimmed">
        {t(
          'gateways.token.commandHint',
          'Run it on the gateway machine: it generates its WireGuard key there, enrols, and fetches the policy.',
        )}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone}>{t('gateways.token.done', 'I have stored it')}</Button>
      </Group>
    </Stack>
  );
}
