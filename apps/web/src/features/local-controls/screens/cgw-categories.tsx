import type { WebCategory } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../../../components/ui/query-state';
import { useCan, useWorkingTenant } from '../../../lib/auth';
import { catalogName } from '../../../lib/policy-names';
import { useWebCategories } from '../api/lookups';
import { ChecklistField } from '../components/checklist-field';
import { ChosenList } from '../components/chosen-list';
import { type ControlFieldProps, LocalControlsFrame } from '../components/local-controls-frame';

/** The web categories to block, shipped and custom, by name. */
function CategoryField({ value, onChange, errors, isReadOnly }: ControlFieldProps) {
  const { t } = useTranslation();
  const tenant = useWorkingTenant();
  const canLookup = useCan('policies:view');
  const categories = useWebCategories(tenant, canLookup);
  const label = t('localControls.categories.label', 'Web categories to block');
  const nameOf = (id: string) => catalogName(t, 'category', id, id);

  if (!canLookup) return <ChosenList label={label} names={value.map(nameOf)} />;
  if (categories.isPending) {
    return <LoadingState label={t('localControls.categories.loading', 'Loading web categories…')} />;
  }
  if (categories.isError) {
    return <ErrorState error={categories.error} onRetry={() => void categories.refetch()} />;
  }

  const classLabel = (category: WebCategory) =>
    ({
      content: t('localControls.categories.content', 'Content category'),
      security: t('localControls.categories.security', 'Security category'),
      custom: t('localControls.categories.custom', 'Custom category'),
    })[category.class];
  const options = categories.data.map((category) => ({
    value: category.id,
    label: catalogName(t, 'category', category.id, category.name),
    details: [
      classLabel(category),
      t('localControls.categories.domains', {
        count: category.domainCount,
        defaultValue_one: '{{count, number}} domain',
        defaultValue_other: '{{count, number}} domains',
      }),
    ].join(' · '),
  }));
  return (
    <ChecklistField
      label={label}
      description={t(
        'localControls.categories.chosen',
        '{{chosen, number}} chosen. Their domains do not resolve for the hosts on the gateway’s LANs.',
        { chosen: value.length },
      )}
      options={options}
      value={value}
      onChange={onChange}
      errors={errors}
      isReadOnly={isReadOnly}
      searchLabel={t('localControls.categories.search', 'Find a category')}
      emptyMessage={t('localControls.categories.none', 'There are no web categories to choose from.')}
      unknownLabel={(id) => t('localControls.unknownEntry', 'Not found ({{id}})', { id })}
    />
  );
}

/** `/devices/cgw-categories`: the web categories a site gateway blocks itself for the hosts on its LANs. */
export function Component() {
  const { t } = useTranslation();
  return (
    <LocalControlsFrame
      field="categories"
      title={t('localControls.categories.title', 'Local web categories')}
      description={t(
        'localControls.categories.description',
        'A site gateway blocks the web categories chosen here itself, for the hosts on its LANs and VLANs: their domains do not resolve, without the tunnel to a cybernode. It receives a change with its next bundle.',
      )}
      sectionTitle={(name) =>
        t('localControls.categories.section', 'Web categories blocked by {{name}}', { name })
      }
    >
      {(props) => <CategoryField {...props} />}
    </LocalControlsFrame>
  );
}
