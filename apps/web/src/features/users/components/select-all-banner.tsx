import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Props of {@link SelectAllBanner}. */
export interface SelectAllBannerProps {
  /** How many users the page shows (all of them selected). */
  pageCount: number;
  /** How many users the search matches across all pages. */
  total: number;
  /** `total` is the server's estimate: every count says "about". */
  isTotalEstimate?: boolean;
  /** True when the list is searched (the wording says "matching"). */
  isSearching: boolean;
  /** True once every matching user is selected, not only the page. */
  isAllMatching: boolean;
  onSelectAll: () => void;
  onClear: () => void;
}

/**
 * Shown when every row of the page is selected and the search has more: offers to select every matching user
 * (Gmail-style), and once that is done says so and offers to clear the selection.
 */
export function SelectAllBanner({
  pageCount,
  total,
  isTotalEstimate = false,
  isSearching,
  isAllMatching,
  onSelectAll,
  onClear,
}: SelectAllBannerProps) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="sm" px="md" py="xs" bg="var(--mantine-color-default-hover)">
      <Group justify="center" gap="xs" role="status" aria-live="polite">
        {isAllMatching ? (
          <>
            <Text size="sm">
              {isTotalEstimate
                ? isSearching
                  ? t('users.selectAll.allMatchingSelectedAbout', {
                      count: total,
                      defaultValue: 'All matching users (about {{count, number}}) are selected.',
                    })
                  : t('users.selectAll.allUsersSelectedAbout', {
                      count: total,
                      defaultValue: 'All users (about {{count, number}}) are selected.',
                    })
                : isSearching
                  ? t('users.selectAll.allMatchingSelected', {
                      count: total,
                      defaultValue: 'All {{count, number}} matching users are selected.',
                    })
                  : t('users.selectAll.allUsersSelected', {
                      count: total,
                      defaultValue: 'All {{count, number}} users are selected.',
                    })}
            </Text>
            <Button variant="subtle" size="compact-sm" onClick={onClear}>
              {t('users.selectAll.clear', 'Clear selection')}
            </Button>
          </>
        ) : (
          <>
            <Text size="sm">
              {t('users.selectAll.pageSelected', {
                count: pageCount,
                defaultValue: 'All {{count, number}} on this page are selected.',
              })}
            </Text>
            <Button variant="subtle" size="compact-sm" onClick={onSelectAll}>
              {isTotalEstimate
                ? isSearching
                  ? t('users.selectAll.selectMatchingAbout', {
                      count: total,
                      defaultValue: 'Select all matching users (about {{count, number}})',
                    })
                  : t('users.selectAll.selectAllUsersAbout', {
                      count: total,
                      defaultValue: 'Select all users (about {{count, number}})',
                    })
                : isSearching
                  ? t('users.selectAll.selectMatching', {
                      count: total,
                      defaultValue: 'Select all {{count, number}} matching users',
                    })
                  : t('users.selectAll.selectAllUsers', {
                      count: total,
                      defaultValue: 'Select all {{count, number}} users',
                    })}
            </Button>
          </>
        )}
      </Group>
    </Paper>
  );
}
