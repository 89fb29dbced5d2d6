import { Button, Code, Group } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Props of {@link CollapsibleList}. */
export interface CollapsibleListProps {
  items: string[];
  /** How many show before "+N more". */
  visible?: number;
  /** What the items are, for the toggle's accessible name ("Show all 12 domains of Slack"). */
  label: string;
}

/** Short values (networks, domains) as code chips, the first few only until "+N more" is pressed. */
export function CollapsibleList({ items, visible = 3, label }: CollapsibleListProps) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const hidden = items.length - visible;
  const shown = isOpen || hidden <= 0 ? items : items.slice(0, visible);
  return (
    <Group gap={4} component="span" wrap="wrap">
      {shown.map((item) => (
        <Code key={item}>{item}</Code>
      ))}
      {hidden > 0 ? (
        <Button
          variant="subtle"
          size="compact-xs"
          aria-expanded={isOpen}
          aria-label={
            isOpen
              ? t('policyObjects.collapse.lessNamed', 'Show fewer {{label}}', { label })
              : t('policyObjects.collapse.moreNamed', 'Show all {{count}} {{label}}', {
                  count: items.length,
                  label,
                })
          }
          onClick={() => setOpen((open) => !open)}
        >
          {isOpen
            ? t('policyObjects.collapse.less', 'Show fewer')
            : t('policyObjects.collapse.more', '+{{count}} more', { count: hidden })}
        </Button>
      ) : null}
    </Group>
  );
}
