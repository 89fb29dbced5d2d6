import { ColorSwatch, Group, Radio, Stack } from '@mantine/core';
import { PALETTES, type Palette, THEMES, type Theme } from '@palisade/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PALETTE_COLORS } from '../../lib/theme';

/** Translated names of the themes, with static keys. */
export function useThemeLabels(): Record<Theme, string> {
  const { t } = useTranslation();
  return {
    light: t('theme.names.light', 'Light'),
    dark: t('theme.names.dark', 'Dark'),
    mixed: t('theme.names.mixed', 'Mixed'),
    colored: t('theme.names.colored', 'Colored'),
  };
}

/** Translated names of the palettes, with static keys. */
export function usePaletteLabels(): Record<Palette, string> {
  const { t } = useTranslation();
  return {
    classic: t('theme.palettes.classic', 'Classic'),
    corporate: t('theme.palettes.corporate', 'Corporate'),
    modern: t('theme.palettes.modern', 'Modern'),
  };
}

/** Props of the two pickers. */
interface PickerProps<T> {
  label: ReactNode;
  value: T;
  onChange: (value: T) => void;
}

/** Theme radio buttons. */
export function ThemePicker({ label, value, onChange }: PickerProps<Theme>) {
  const labels = useThemeLabels();
  return (
    <Radio.Group label={label} value={value} onChange={(next) => onChange(next as Theme)}>
      <Group gap="md" mt="xs">
        {THEMES.map((theme) => (
          <Radio key={theme} value={theme} label={labels[theme]} />
        ))}
      </Group>
    </Radio.Group>
  );
}

/** Palette radio buttons, each with its primary, secondary and tertiary colours. */
export function PalettePicker({ label, value, onChange }: PickerProps<Palette>) {
  const labels = usePaletteLabels();
  return (
    <Radio.Group label={label} value={value} onChange={(next) => onChange(next as Palette)}>
      <Stack gap="xs" mt="xs">
        {PALETTES.map((palette) => (
          <Radio
            key={palette}
            value={palette}
            label={
              <Group gap={6} wrap="nowrap">
                <span>{labels[palette]}</span>
                <Group gap={2} aria-hidden="true" wrap="nowrap">
                  <ColorSwatch color={PALETTE_COLORS[palette].primary} size={14} withShadow={false} />
                  <ColorSwatch color={PALETTE_COLORS[palette].secondary} size={14} withShadow={false} />
                  <ColorSwatch color={PALETTE_COLORS[palette].tertiary} size={14} withShadow={false} />
                </Group>
              </Group>
            }
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
