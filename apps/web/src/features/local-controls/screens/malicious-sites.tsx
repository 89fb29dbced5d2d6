import type { Feed } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { catalogName } from '../../../lib/policy-names';
import { useThreatFeeds } from '../api/lookups';
import { ChecklistField } from '../components/checklist-field';
import { ChosenList } from '../components/chosen-list';
import { type ControlFieldProps, LocalControlsFrame } from '../components/local-controls-frame';

/** The tenant's threat-intelligence feeds to block, with their kind and how many entries they hold. */
function FeedField({ value, onChange, errors, isReadOnly }: ControlFieldProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canLookup = useCan('policies:view');
  const feeds = useThreatFeeds(tenant, canLookup);
  const label = t('localControls.feeds.label', 'Threat-intelligence feeds to block');

  if (!canLookup) {
    return <ChosenList label={label} names={value.map((id) => catalogName(t, 'feed', id, id))} />;
  }
  if (feeds.isPending) {
    return <LoadingState label={t('localControls.feeds.loading', 'Loading threat-intelligence feeds…')} />;
  }
  if (feeds.isError) return <ErrorState error={feeds.error} onRetry={() => void feeds.refetch()} />;

  const kindLabel = (feed: Feed) =>
    ({
      builtin: t('localControls.feeds.builtin', 'Built-in feed'),
      upload: t('localControls.feeds.upload', 'Uploaded list'),
      url: t('localControls.feeds.url', 'URL feed'),
    })[feed.kind];
  const options = feeds.data.map((feed) => ({
    value: feed.id,
    label: catalogName(t, 'feed', feed.id, feed.name),
    details: [
      kindLabel(feed),
      t('localControls.feeds.domains', {
        count: feed.domainCount,
        defaultValue_one: '{{count, number}} domain',
        defaultValue_other: '{{count, number}} domains',
      }),
      t('localControls.feeds.ips', {
        count: feed.ipCount,
        defaultValue_one: '{{count, number}} IP entry',
        defaultValue_other: '{{count, number}} IP entries',
      }),
      ...(feed.enabled ? [] : [t('localControls.feeds.disabled', 'Disabled')]),
    ].join(' · '),
  }));
  return (
    <ChecklistField
      label={label}
      description={t(
        'localControls.feeds.chosen',
        '{{chosen, number}} chosen. Their domains do not resolve and their addresses cannot be reached from the gateway’s LANs.',
        { chosen: value.length },
      )}
      options={options}
      value={value}
      onChange={onChange}
      errors={errors}
      isReadOnly={isReadOnly}
      searchLabel={t('localControls.feeds.search', 'Find a feed')}
      emptyMessage={t(
        'localControls.feeds.none',
        'This tenant has no threat-intelligence feeds yet. Add one under Threat intelligence first.',
      )}
      unknownLabel={(id) => t('localControls.unknownEntry', 'Not found ({{id}})', { id })}
    />
  );
}

/**
 * `/devices/malicious-sites`: the threat-intelligence feeds a site gateway blocks itself for the hosts on its
 * LANs, by name and by address.
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <LocalControlsFrame
      field="feeds"
      title={t('localControls.feeds.title', 'Malicious sites')}
      description={t(
        'localControls.feeds.description',
        'A site gateway blocks the domains and addresses of the threat-intelligence feeds chosen here itself, for the hosts on its LANs and VLANs, without the tunnel to a cybernode. It receives a change with its next bundle.',
      )}
      sectionTitle={(name) => t('localControls.feeds.section', 'Feeds blocked by {{name}}', { name })}
    >
      {(props) => <FeedField {...props} />}
    </LocalControlsFrame>
  );
}
