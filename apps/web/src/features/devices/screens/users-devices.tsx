import { useTranslation } from 'react-i18next';
import { UserDevicesPanel } from '../components/user-devices-panel';

/**
 * `/users/users-devices`: end users with their devices and enrolment state; send or revoke enrolment links and
 * remove devices.
 */
export function Component() {
  const { t } = useTranslation();
  return <UserDevicesPanel method="any" title={t('devices.usersDevices.title', 'Users and devices')} />;
}
