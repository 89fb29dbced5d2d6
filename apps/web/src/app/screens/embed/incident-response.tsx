import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { RangePicker, useDashboardRange } from '../../../features/dashboards/components/range-picker';
import { DecisionPanel } from '../../../features/embed/components/decision-panel';
import { KioskFrame } from '../../../features/embed/components/kiosk-frame';

/**
 * `/embed/incident-response/:tenant`: the incident-response dashboard, embedded — the blocked requests of the
 * time range, newest first, from the decision list (its `decision=block` filter; the list has no filter for
 * "any threat", so the blocks the policy made are included with those threat intelligence made).
 */
export function Component() {
  const { t } = useTranslation();
  const { tenant = '' } = useParams();
  return (
    <KioskFrame
      title={t('embed.titles.incidentResponse', 'Incident response: blocked requests')}
      tenant={tenant}
    >
      <BlockedRequests />
    </KioskFrame>
  );
}

function BlockedRequests() {
  const { t } = useTranslation();
  const range = useDashboardRange();
  return (
    <>
      <RangePicker range={range} />
      <DecisionPanel
        title={t('embed.incidents.title', 'Blocked requests')}
        description={t(
          'embed.incidents.description',
          'Every request threat intelligence or the policy blocked in the time range, newest first.',
        )}
        filters={range.apiRange ? { ...range.apiRange, decision: 'block' } : null}
        emptyText={t('embed.incidents.empty', 'Nothing was blocked in this time range.')}
      />
    </>
  );
}
