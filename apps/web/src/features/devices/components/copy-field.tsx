import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link CopyField}. */
export interface CopyFieldProps {
  /** What the value is, e.g. "Enrolment link". */
  label: string;
  value: string;
  /** Text of the copy button, e.g. "Copy link". */
  copyLabel: string;
  /** Shown as a block (commands, long values) rather than inline. */
  isBlock?: boolean;
}

/** A labelled value in monospace with a copy button that says "Copied" for a moment after a click. */
export function CopyField({ label, value, copyLabel, isBlock = true }: CopyFieldProps) {
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
            <Button
              size="compact-sm"
              variant="light"
              color={copied ? 'teal' : undefined}
              onClick={copy}
              aria-label={copied ? t('devices.copy.copied', 'Copied') : copyLabel}
            >
              {copied ? t('devices.copy.copied', 'Copied') : copyLabel}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code
        block={isBlock}
        aria-labelledby={labelId}
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
      >
        {value}
      </Code>
    </Stack>
  );
}
