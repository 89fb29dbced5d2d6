import { useTranslation } from 'react-i18next';
import { UserDevicesCard } from '../../features/devices/components/user-devices-card';
import { UserDashboardLink } from '../../features/embed/components/user-dashboard-link';
import { ObjectActivity } from '../../features/events/components/object-activity';
import { UserDetail, type UserPageTab } from '../../features/users/screens/user-detail';
import { useCan } from '../../lib/auth';

/**
 * `/users/:id`: the users area's page of one user, with the tabs other areas add — the user's devices, their
 * recent activity in the event log and the link of their embedded dashboard (what the policy decided for them).
 * Composed here because features never import each other.
 */
export function Component() {
  const { t } = useTranslation();
  const canViewDevices = useCan('devices:view');
  const canViewEvents = useCan('events:view');
  const tabs: UserPageTab[] = [
    ...(canViewDevices
      ? [
          {
            value: 'devices',
            label: t('users.tabs.devices', 'Devices'),
            render: (user: { id: string }) => <UserDevicesCard userId={user.id} />,
          },
        ]
      : []),
    ...(canViewEvents
      ? [
          {
            value: 'activity',
            label: t('users.tabs.activity', 'Activity'),
            render: (user: { id: string }) => <ObjectActivity objectId={user.id} logSearch={user.id} />,
          },
          {
            value: 'dashboard',
            label: t('users.tabs.dashboard', 'Dashboard link'),
            render: (user: { id: string; username: string }) => (
              <UserDashboardLink userId={user.id} userName={user.username} />
            ),
          },
        ]
      : []),
  ];
  return <UserDetail extraTabs={tabs} />;
}
