import { Button } from '@mantine/core';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon, LanguageIcon } from '../../components/ui/icons';
import { currentLocale, LANGUAGE_NAMES } from '../../lib/i18n';

/**
 * The button that opens the language menu, apart from the menu: the sign-in page paints it at once while the
 * menu (and the popover code under it) arrives as a chunk of its own. Props and ref come from `Menu.Target`.
 */
export function LanguageButton({ ref, ...others }: { ref?: Ref<HTMLButtonElement> }) {
  const { t } = useTranslation();
  const active = currentLocale();
  return (
    <Button
      ref={ref}
      variant="subtle"
      color="gray"
      size="compact-sm"
      c="inherit"
      leftSection={<LanguageIcon size={18} />}
      rightSection={<ChevronDownIcon size={14} />}
      aria-label={t('shell.language.label', 'Language: {{language}}', {
        language: LANGUAGE_NAMES[active],
      })}
      {...others}
    >
      <span lang={active}>{active.toUpperCase()}</span>
    </Button>
  );
}
