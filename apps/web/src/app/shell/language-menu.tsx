import { Menu } from '@mantine/core';
import { LOCALES, type Locale } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { useUpdateProfile } from '../../features/settings/api/profile';
import { useSession } from '../../lib/auth';
import { changeLanguage, currentLocale, LANGUAGE_NAMES } from '../../lib/i18n';
import { LanguageButton } from './language-button';

/** Switches between English and Deutsch; a signed-in user's choice is saved to the profile. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const { session } = useSession();
  const updateProfile = useUpdateProfile();
  const active = currentLocale();

  function handleSelect(locale: Locale) {
    void changeLanguage(locale);
    if (session && session.language !== locale) updateProfile.mutate({ language: locale });
  }

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <LanguageButton />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('shell.language.title', 'Language')}</Menu.Label>
        {LOCALES.map((locale) => (
          <Menu.Item
            key={locale}
            lang={locale}
            onClick={() => handleSelect(locale)}
            aria-current={locale === (i18n.resolvedLanguage ?? active) ? 'true' : undefined}
            fw={locale === active ? 600 : undefined}
          >
            {LANGUAGE_NAMES[locale]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
