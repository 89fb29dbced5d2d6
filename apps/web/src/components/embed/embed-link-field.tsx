import { Button, CopyButton, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify';

/** Props of {@link EmbedLinkField}. */
export interface EmbedLinkFieldProps {
  /** What the link opens (the dashboard's name). */
  label: string;
  link: string;
}

/** An embedded dashboard's link, read-only and selectable, with a copy button that says "Copied" for a moment. */
export function EmbedLinkField({ label, link }: EmbedLinkFieldProps) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        label={label}
        value={link}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
        style={{ flex: 1, minWidth: 0 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <CopyButton value={link}>
        {({ copied, copy }) => (
          <Button
            variant="light"
            color={copied ? 'teal' : undefined}
            aria-label={t('embed.copyLabel', 'Copy the link of {{dashboard}}', { dashboard: label })}
            onClick={() => {
              copy();
              notify(
                t('embed.copied', 'Link copied. Whoever has it sees this dashboard until the link ends.'),
                {
                  color: 'teal',
                  id: 'embed:copied',
                },
              );
            }}
          >
            {copied ? t('embed.copiedShort', 'Copied') : t('embed.copy', 'Copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
