/**
 * Looks (spec §1): themes light (default), dark, mixed (light content, dark sidebar and header) and colored
 * (sidebar and header in the primary colour) × palettes classic, corporate and modern. The effective choice is
 * the user's saved one, else the tenant's, else light/classic. Everything the shell paints comes from CSS
 * variables, so a change of theme is a change of variables, not of components.
 */
import {
  type CSSVariablesResolver,
  colorsTuple,
  createTheme,
  isLightColor,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';
import { PALETTES, type Palette, THEMES, type Theme } from '@palisade/contracts';

/** The seven colours every palette defines. */
export const PALETTE_ROLES = [
  'primary',
  'secondary',
  'tertiary',
  'success',
  'info',
  'warning',
  'danger',
] as const;
export type PaletteRole = (typeof PALETTE_ROLES)[number];
export type PaletteColors = Record<PaletteRole, string>;

/**
 * The palettes. Classic's primary `#47bac1` is the spec's; the other values are ours, picked for 4.5:1 text
 * contrast on their shade 7 and to read as distinct families (teal, blue, violet).
 */
export const PALETTE_COLORS: Record<Palette, PaletteColors> = {
  classic: {
    primary: '#47bac1',
    secondary: '#a180da',
    tertiary: '#5fc27e',
    success: '#5fc27e',
    info: '#5b7dff',
    warning: '#fcc100',
    danger: '#f44455',
  },
  corporate: {
    primary: '#3086ff',
    secondary: '#495057',
    tertiary: '#00a3a3',
    success: '#28a745',
    info: '#17a2b8',
    warning: '#ffc107',
    danger: '#dc3545',
  },
  modern: {
    primary: '#6f42c1',
    secondary: '#e83e8c',
    tertiary: '#20c997',
    success: '#2fb380',
    info: '#3b82f6',
    warning: '#f5a524',
    danger: '#e5484d',
  },
};

/** The dark surface of the mixed theme's sidebar and header. */
export const MIXED_CHROME_COLOR = '#222e3c';

/** A resolved look: what the shell and MantineProvider render. */
export interface Appearance {
  theme: Theme;
  palette: Palette;
  /** The primary colour actually used: the palette's, or the tenant's own primary colour. */
  primaryColor: string;
  /** Where the choice came from (shown in settings as "tenant default"). */
  source: 'user' | 'tenant' | 'default';
}

/** Inputs of {@link resolveAppearance}: the user's saved choice and the tenant's defaults, any may be missing. */
export interface AppearanceInput {
  userTheme?: Theme | null;
  userPalette?: Palette | null;
  tenantTheme?: Theme | null;
  tenantPalette?: Palette | null;
  /** The tenant's own primary colour; applies when the palette is the tenant's. */
  tenantPrimaryColor?: string | null;
}

const isTheme = (value: unknown): value is Theme => (THEMES as readonly unknown[]).includes(value);
const isPalette = (value: unknown): value is Palette => (PALETTES as readonly unknown[]).includes(value);
const HEX = /^#[0-9a-f]{6}$/i;

/**
 * The effective look: the user's saved theme and palette beat the tenant's, which beat light/classic. Theme and
 * palette resolve separately, so a user may keep the tenant's palette and pick only a theme. A tenant primary
 * colour replaces the palette's primary only when the palette itself comes from the tenant.
 */
export function resolveAppearance(input: AppearanceInput): Appearance {
  const theme = isTheme(input.userTheme)
    ? input.userTheme
    : isTheme(input.tenantTheme)
      ? input.tenantTheme
      : 'light';
  const isUserPalette = isPalette(input.userPalette);
  const palette = isUserPalette
    ? (input.userPalette as Palette)
    : isPalette(input.tenantPalette)
      ? input.tenantPalette
      : 'classic';
  const tenantPrimary =
    input.tenantPrimaryColor && HEX.test(input.tenantPrimaryColor) ? input.tenantPrimaryColor : null;
  const primaryColor = !isUserPalette && tenantPrimary ? tenantPrimary : PALETTE_COLORS[palette].primary;
  const isUserChoice = isTheme(input.userTheme) || isUserPalette;
  const isTenantChoice = isTheme(input.tenantTheme) || isPalette(input.tenantPalette);
  return {
    theme,
    palette,
    primaryColor,
    source: isUserChoice ? 'user' : isTenantChoice ? 'tenant' : 'default',
  };
}

/** The colours of a palette with the appearance's primary colour applied. */
export function paletteColors(appearance: Appearance): PaletteColors {
  return { ...PALETTE_COLORS[appearance.palette], primary: appearance.primaryColor };
}

function mix(hex: string, target: number, amount: number): string {
  const channels = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `#${channels
    .map((c) => Math.round(c + (target - c) * amount))
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;
}

/** Ten shades of `hex` for Mantine, lightest first, with `hex` itself at index 6 (the primary shade). */
export function shadesOf(hex: string): MantineColorsTuple {
  const lighter = [0.92, 0.8, 0.64, 0.48, 0.32, 0.16].map((amount) => mix(hex, 255, amount));
  const darker = [0.14, 0.28, 0.42].map((amount) => mix(hex, 0, amount));
  return colorsTuple([...lighter, hex.toLowerCase(), ...darker]);
}

function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two hex colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The lightest shade of `hex` (from the primary shade down) that reads as text on white at WCAG AA (4.5:1):
 * links in a palette whose primary is light, like classic's, would otherwise be hard to read.
 */
export function readableTextShade(hex: string): string {
  const shades = shadesOf(hex);
  return shades.slice(6).find((shade) => contrastRatio(shade, '#ffffff') >= 4.5) ?? shades[9];
}

/** The Mantine colour scheme of a theme: only the dark theme is dark; mixed and colored have light content. */
export function colorSchemeOf(theme: Theme): 'light' | 'dark' {
  return theme === 'dark' ? 'dark' : 'light';
}

/**
 * The Mantine theme of an appearance: palette roles as colour names, primary as the primary colour.
 * `closeLabel` names the close button of every modal and drawer for screen readers (translated by the caller).
 */
export function buildMantineTheme(appearance: Appearance, closeLabel = 'Close'): MantineThemeOverride {
  const colors = paletteColors(appearance);
  const tuples = Object.fromEntries(PALETTE_ROLES.map((role) => [role, shadesOf(colors[role])])) as Record<
    PaletteRole,
    MantineColorsTuple
  >;
  return createTheme({
    primaryColor: 'primary',
    primaryShade: { light: 6, dark: 5 },
    colors: tuples,
    autoContrast: true,
    defaultRadius: 'md',
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    headings: { fontWeight: '600' },
    other: { appearance },
    components: {
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
      Drawer: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
    },
  });
}

/** Colours of the shell's chrome (sidebar and header) for a theme. */
export interface ChromeColors {
  sidebarBg: string;
  sidebarFg: string;
  sidebarActiveBg: string;
  headerBg: string;
  headerFg: string;
  headerBorder: string;
}

/** The sidebar and header colours of an appearance (CSS values; `var(--mantine-…)` where the scheme decides). */
export function chromeColors(appearance: Appearance): ChromeColors {
  const primary = appearance.primaryColor;
  switch (appearance.theme) {
    case 'dark':
      return {
        sidebarBg: 'var(--mantine-color-dark-8)',
        sidebarFg: 'var(--mantine-color-dark-0)',
        sidebarActiveBg: 'rgba(255, 255, 255, 0.08)',
        headerBg: 'var(--mantine-color-dark-7)',
        headerFg: 'var(--mantine-color-dark-0)',
        headerBorder: 'var(--mantine-color-dark-4)',
      };
    case 'mixed':
      return {
        sidebarBg: MIXED_CHROME_COLOR,
        sidebarFg: '#e9ecef',
        sidebarActiveBg: 'rgba(255, 255, 255, 0.1)',
        headerBg: MIXED_CHROME_COLOR,
        headerFg: '#e9ecef',
        headerBorder: MIXED_CHROME_COLOR,
      };
    case 'colored': {
      const bg = mix(primary, 0, 0.14);
      const fg = isLightColor(bg) ? '#1a1b1e' : '#ffffff';
      return {
        sidebarBg: bg,
        sidebarFg: fg,
        sidebarActiveBg: isLightColor(bg) ? 'rgba(0, 0, 0, 0.1)' : 'rgba(255, 255, 255, 0.16)',
        headerBg: bg,
        headerFg: fg,
        headerBorder: bg,
      };
    }
    default:
      return {
        sidebarBg: '#ffffff',
        sidebarFg: 'var(--mantine-color-gray-8)',
        sidebarActiveBg: 'var(--mantine-color-primary-light)',
        headerBg: '#ffffff',
        headerFg: 'var(--mantine-color-gray-8)',
        headerBorder: 'var(--mantine-color-gray-3)',
      };
  }
}

/** CSS variables of the shell chrome, named `--pal-*`. */
export function chromeCssVariables(appearance: Appearance): Record<string, string> {
  const c = chromeColors(appearance);
  return {
    '--pal-sidebar-bg': c.sidebarBg,
    '--pal-sidebar-fg': c.sidebarFg,
    '--pal-sidebar-active-bg': c.sidebarActiveBg,
    '--pal-header-bg': c.headerBg,
    '--pal-header-fg': c.headerFg,
    '--pal-header-border': c.headerBorder,
  };
}

/** Adds the shell chrome and palette role variables to Mantine's generated ones. */
export function cssVariablesResolverFor(appearance: Appearance): CSSVariablesResolver {
  const colors = paletteColors(appearance);
  const roles = Object.fromEntries(PALETTE_ROLES.map((role) => [`--pal-${role}`, colors[role]]));
  return () => ({
    variables: { ...roles, ...chromeCssVariables(appearance) },
    light: { '--pal-body-bg': '#f5f7fb', '--mantine-color-anchor': readableTextShade(colors.primary) },
    dark: { '--pal-body-bg': 'var(--mantine-color-dark-7)' },
  });
}
