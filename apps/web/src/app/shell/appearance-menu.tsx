import { ActionIcon, Button, Divider, Popover, Stack, Switch, Text } from '@mantine/core';
import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { PalettePicker, ThemePicker } from '../../components/ui/appearance-pickers';
import { PaletteIcon } from '../../components/ui/icons';
import { useUpdateProfile } from '../../features/settings/api/profile';
import { useSession } from '../../lib/auth';
import type { LayoutAction, LayoutState } from './layout-state';
import { useAppearance } from './use-appearance';

/** Props of {@link AppearanceMenu}. */
export interface AppearanceMenuProps {
  layout: LayoutState;
  dispatch: Dispatch<LayoutAction>;
}

/** Theme and palette (saved to the user), and the layout switches (kept in this browser). */
export function AppearanceMenu({ layout, dispatch }: AppearanceMenuProps) {
  const { t } = useTranslation();
  const { session } = useSession();
  const appearance = useAppearance();
  const updateProfile = useUpdateProfile();
  const hasOwnChoice = Boolean(session?.theme || session?.palette);

  return (
    <Popover position="bottom-end" width={300} shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          c="inherit"
          size="lg"
          aria-label={t('shell.appearance.open', 'Appearance')}
        >
          <PaletteIcon />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="md">
          <Text fw={600} size="sm">
            {t('shell.appearance.title', 'Appearance')}
          </Text>
          <ThemePicker
            label={t('theme.theme', 'Theme')}
            value={appearance.theme}
            onChange={(theme) => updateProfile.mutate({ theme })}
          />
          <PalettePicker
            label={t('theme.palette', 'Palette')}
            value={appearance.palette}
            onChange={(palette) => updateProfile.mutate({ palette })}
          />
          {hasOwnChoice ? (
            <Button
              variant="light"
              size="xs"
              onClick={() => updateProfile.mutate({ theme: null, palette: null })}
            >
              {t('theme.useTenantDefault', 'Use the tenant default')}
            </Button>
          ) : null}
          <Divider />
          <Switch
            label={t('shell.appearance.boxed', 'Boxed layout')}
            checked={layout.isBoxed}
            onChange={(event) => dispatch({ type: 'layout/setBoxed', isBoxed: event.currentTarget.checked })}
          />
          <Switch
            label={t('shell.appearance.sticky', 'Sticky sidebar')}
            description={
              layout.isBoxed
                ? t('shell.appearance.stickyBoxed', 'Turning this on leaves the boxed layout.')
                : undefined
            }
            checked={layout.sidebar.isSticky}
            onChange={(event) =>
              dispatch({ type: 'sidebar/setSticky', isSticky: event.currentTarget.checked })
            }
          />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
