import { Anchor, Button, Text } from '@mantine/core';
import type { GROUP_SORTS, Group } from '@palisade/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListColumn } from '../../../components/list/column-choice';
import { useFormatters } from '../../../lib/format-time';

/** A sortable column of the groups list (the contract's `sort` values). */
export type GroupSort = (typeof GROUP_SORTS)[number];

/**
 * The columns of the groups list: the name (a link, so keyboard users reach each group by Tab), description,
 * member count, creation date and, for those who may create, a per-row copy action.
 */
export function useGroupColumns({ canCopy }: { canCopy: boolean }): ListColumn<Group>[] {
  const { t } = useTranslation();
  const format = useFormatters();
  const numberFormat = new Intl.NumberFormat(format.locale);
  return [
    {
      accessor: 'name',
      title: t('groups.columns.name', 'Name'),
      sortable: true,
      noWrap: true,
      isEssential: true,
      render: (group) => (
        <Anchor component={Link} to={`/groups/${group.id}`} fw={500}>
          {group.name}
        </Anchor>
      ),
    },
    {
      accessor: 'description',
      title: t('groups.columns.description', 'Description'),
      render: (group) =>
        group.description ? (
          <Text size="sm" lineClamp={2}>
            {group.description}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      accessor: 'memberCount',
      title: t('groups.columns.memberCount', 'Members'),
      sortable: true,
      textAlign: 'right',
      isEssential: true,
      render: (group) => numberFormat.format(group.memberCount),
    },
    {
      accessor: 'createdAt',
      title: t('groups.columns.createdAt', 'Created'),
      sortable: true,
      noWrap: true,
      render: (group) => format.date(group.createdAt),
    },
    {
      accessor: 'actions',
      title: t('groups.columns.actions', 'Actions'),
      hidden: !canCopy,
      isAlwaysShown: true,
      textAlign: 'right',
      render: (group) => (
        <Button
          component={Link}
          to={`/groups/${group.id}/copy`}
          size="compact-sm"
          variant="subtle"
          aria-label={t('groups.list.copyGroup', 'Copy {{name}}', { name: group.name })}
        >
          {t('groups.list.copy', 'Copy')}
        </Button>
      ),
    },
  ];
}
