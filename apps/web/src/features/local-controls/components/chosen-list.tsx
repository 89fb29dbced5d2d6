import { List, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link ChosenList}. */
export interface ChosenListProps {
  /** The list's name, as the editable field would have it. */
  label: string;
  /** The names of the chosen entries. */
  names: string[];
}

/**
 * What is chosen, read-only, for a role that may see the site gateways but not the tenant's policies and policy
 * objects the choice is made from.
 */
export function ChosenList({ label, names }: ChosenListProps) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <Stack gap={6}>
      <Text fw={500} size="sm" id={labelId}>
        {label}
      </Text>
      <Text size="sm" c="dimmed">
        {t(
          'localControls.noLookup',
          'Your role cannot see the tenant’s policies and policy objects, so the choice is shown here without them and cannot be changed.',
        )}
      </Text>
      {names.length === 0 ? (
        <Text size="sm">{t('localControls.noneChosen', 'Nothing chosen.')}</Text>
      ) : (
        <List size="sm" aria-labelledby={labelId}>
          {names.map((name) => (
            <List.Item key={name}>{name}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
