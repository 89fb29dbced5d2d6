import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/ui/query-state';
import { RangePicker, useDashboardRange } from '../../../features/dashboards/components/range-picker';
import { DecisionPanel } from '../../../features/embed/components/decision-panel';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/** The decision list filters users by their id. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `/embed/user-tag/:tenant/:userId/:userName`: one user's dashboard, embedded — what the policy decided for the
 * user in the time range (the decision list's user filter), titled with the user's name.
 */
export function Component() {
  const { t } = useTranslation();
  const { tenant = '', userId = '', userName = '' } = useParams();
  return (
    <KioskFrame
      title={t('embed.titles.userTag', 'User dashboard: {{user}}', { user: userName })}
      tenant={tenant}
    >
      {UUID.test(userId) ? (
        <UserDecisions userId={userId} userName={userName} />
      ) : (
        <EmptyState
          message={t(
            'embed.user.badId',
            'This link does not name a user. Copy it again from the user’s page.',
          )}
        />
      )}
    </KioskFrame>
  );
}

function UserDecisions({ userId, userName }: { userId: string; userName: string }) {
  const { t } = useTranslation();
  const range = useDashboardRange();
  return (
    <>
      <RangePicker range={range} />
      <DecisionPanel
        title={t('embed.user.title', 'Requests of {{user}}', { user: userName })}
        description={t(
          'embed.user.description',
          'What the policy decided for the user’s requests in the time range, newest first.',
        )}
        filters={range.apiRange ? { ...range.apiRange, userId } : null}
        emptyText={t('embed.user.empty', 'No request of this user in this time range.')}
      />
    </>
  );
}
