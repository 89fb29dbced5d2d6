import { Button, Group, type MantineSpacing, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { CreatedKey } from '../api/create-deployment-key';
import { CopyField } from './copy-field';

/** A deployment key just created, with its token: kept on its screen only, never in the query cache. */
export interface FreshKey {
  tenant: string;
  name: string;
  token: string;
}

/**
 * The deployment key a screen just created: `keep(created)` holds it for the working tenant, `hide()` drops it.
 * `fresh` is null for a key of another tenant, which never fills this tenant's commands.
 */
export function useFreshKey(tenant: string) {
  const [freshKey, setFreshKey] = useState<FreshKey | null>(null);
  return {
    fresh: freshKey?.tenant === tenant ? freshKey : null,
    keep: (created: CreatedKey) => setFreshKey({ tenant, name: created.key.name, token: created.token }),
    hide: () => setFreshKey(null),
  };
}

/** Props of {@link FreshKeyPanel}: its texts come translated from the screen. */
export interface FreshKeyPanelProps {
  /** The id of the panel's heading, which labels the panel. */
  headingId: string;
  /** The key's token. */
  token: string;
  title: string;
  warning: string;
  tokenLabel: string;
  copyLabel: string;
  hideLabel: string;
  gap: MantineSpacing;
  /** What follows the token (the install commands that carry it). */
  children?: ReactNode;
  onHide: () => void;
}

/** The new key's token, shown once with a warning, a copy button and a way to put it away. */
export function FreshKeyPanel({
  headingId,
  title,
  warning,
  tokenLabel,
  copyLabel,
  hideLabel,
  gap,
  children,
  token,
  onHide,
}: FreshKeyPanelProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The dialog that created the key has closed: bring the reader here, where the token is.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      p="md"
      radius="sm"
      bg="var(--mantine-color-orange-light)"
      style={{ borderColor: 'var(--mantine-color-orange-outline)' }}
    >
      <Stack gap={gap}>
        <Title order={2} size="h4" id={headingId} ref={headingRef} tabIndex={-1}>
          {title}
        </Title>
        <Text size="sm">{warning}</Text>
        <CopyField label={tokenLabel} value={token} copyLabel={copyLabel} />
        {children}
        <Group justify="flex-end">
          <Button variant="default" size="xs" onClick={onHide}>
            {hideLabel}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
