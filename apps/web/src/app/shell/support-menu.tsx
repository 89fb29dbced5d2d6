import { Menu, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/auth';
import { usePartnerInfo } from '../../lib/partner-info';

/**
 * The support contact of the signed-in user's partner, in the account menu: its e-mail, phone and web address as
 * links, and its hours. Nothing when the tenant has no partner or the partner gave no contact.
 */
export function SupportMenuItems() {
  const { t } = useTranslation();
  const { session } = useSession();
  const info = usePartnerInfo(session?.tenant ?? '', Boolean(session?.partnername));
  const support = info.data?.support;
  if (!support || !(support.email || support.phone || support.url || support.hours)) return null;
  return (
    <>
      <Menu.Divider />
      <Menu.Label>
        {t('shell.support.title', 'Support by {{partner}}', { partner: info.data?.displayName ?? '' })}
      </Menu.Label>
      {support.email ? (
        <Menu.Item component="a" href={`mailto:${support.email}`}>
          {support.email}
        </Menu.Item>
      ) : null}
      {support.phone ? (
        <Menu.Item component="a" href={`tel:${support.phone.replace(/[^+0-9]/g, '')}`}>
          {support.phone}
        </Menu.Item>
      ) : null}
      {support.url ? (
        <Menu.Item component="a" href={support.url} target="_blank" rel="noopener noreferrer">
          {t('shell.support.website', 'Support website')}
        </Menu.Item>
      ) : null}
      {support.hours ? (
        <Text size="xs" c="dimmed" px="sm" py={4}>
          {t('shell.support.hours', 'Hours: {{hours}}', { hours: support.hours })}
        </Text>
      ) : null}
    </>
  );
}
