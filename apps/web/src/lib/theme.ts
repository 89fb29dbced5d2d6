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
  DEFAULT_THEME,
  darken,
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
 * The palettes. Classic's primary `#47bac1` is the spec's: too light for white labels (2.3:1), so its filled
 * buttons get black ones and its text a darker shade (see {@link contentTokens}). The other values are ours,
 * picked to read as distinct families (teal, blue, violet); corporate's and modern's primaries carry white
 * labels at 4.5:1.
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
    primary: '#1f6fd6',
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

/** `#rrggbb`, `#rgb`, `rgb()` or `rgba()` as channels 0–255 and alpha 0–1. */
function parseColor(color: string): { r: number; g: number; b: number; a: number } {
  const value = color.trim().toLowerCase();
  const rgb = /^rgba?\(([^)]+)\)$/.exec(value);
  if (rgb) {
    const [r, g, b, a = 1] = rgb[1].split(',').map((part) => Number.parseFloat(part));
    return { r, g, b, a };
  }
  const hex = value.length === 4 ? `#${[1, 2, 3].map((i) => value[i].repeat(2)).join('')}` : value;
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return { r, g, b, a: 1 };
}

/** `color` (possibly translucent) painted over the opaque `backdrop`, as `#rrggbb`. */
export function composite(color: string, backdrop: string): string {
  const top = parseColor(color);
  const bottom = parseColor(backdrop);
  const channel = (a: number, b: number) =>
    Math.round(a * top.a + b * (1 - top.a))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(top.r, bottom.r)}${channel(top.g, bottom.g)}${channel(top.b, bottom.b)}`;
}

function relativeLuminance(color: string): number {
  const { r, g, b } = parseColor(color);
  const [lr, lg, lb] = [r, g, b].map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
}

/** WCAG contrast ratio of two opaque colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG 2.2 AA: body text needs 4.5:1; focus indicators and other non-text parts 3:1. */
export const MIN_TEXT_CONTRAST = 4.5;
export const MIN_FOCUS_CONTRAST = 3;

/**
 * Mantine's `autoContrast` writes black on a filled colour brighter than this luminance, else white. 0.18 is
 * where both reach 4.5:1 (white needs ≤ 0.183, black ≥ 0.175); Mantine's default 0.3 puts white on colours
 * such as red 6 at 3.3:1.
 */
export const LUMINANCE_THRESHOLD = 0.18;

/** Black or white, whichever Mantine's `autoContrast` writes on `background` with {@link LUMINANCE_THRESHOLD}. */
export function labelOn(background: string): string {
  return relativeLuminance(background) > LUMINANCE_THRESHOLD ? '#000000' : '#ffffff';
}

/** Mantine's dark colour tuple (the dark scheme's surfaces and text). */
const DARK = DEFAULT_THEME.colors.dark;
const GRAY = DEFAULT_THEME.colors.gray;

/** The page background behind the content in the light scheme. */
export const LIGHT_BODY_BG = '#f5f7fb';

/**
 * What text sits on, per colour scheme: the page, cards and inputs, striped and hovered table rows (light:
 * white, the body, gray 0 and 1; dark: dark 7, 6 and 8, and dark 5, Mantine's hovered table row). Every text colour
 * below reads on all of them.
 */
export const SURFACES: Record<'light' | 'dark', readonly string[]> = {
  light: ['#ffffff', LIGHT_BODY_BG, GRAY[0], GRAY[1]],
  dark: [DARK[7], DARK[6], DARK[8], DARK[5]],
};

/** `from`, then `from` mixed towards black (`towards` 0) or white (255) in 5 % steps, ending at black or white. */
function series(from: string, towards: 0 | 255): string[] {
  return Array.from({ length: 21 }, (_, step) => mix(from, towards, step / 20));
}

/** The first colour of `candidates` that reaches `min` on every background (the last one otherwise). */
function firstReadable(candidates: string[], backgrounds: readonly string[], min: number): string {
  return (
    candidates.find((color) => backgrounds.every((bg) => contrastRatio(color, bg) >= min)) ??
    candidates[candidates.length - 1]
  );
}

/**
 * The colour closest to `from` (darkened in the light scheme, lightened in the dark one) that reads at `min` on
 * every background: the brand colour stays the brand colour where it is a fill, and its text is a shade of it.
 */
export function readableOn(
  from: string,
  backgrounds: readonly string[],
  scheme: 'light' | 'dark',
  min = MIN_TEXT_CONTRAST,
): string {
  return firstReadable(series(from, scheme === 'light' ? 0 : 255), backgrounds, min);
}

/** The Mantine colour scheme of a theme: only the dark theme is dark; mixed and colored have light content. */
export function colorSchemeOf(theme: Theme): 'light' | 'dark' {
  return theme === 'dark' ? 'dark' : 'light';
}

/**
 * The shade Mantine fills with, per scheme: 6 in both, the palette colour itself. Mantine's variant resolver
 * picks a filled label from the light scheme's shade, so a different dark shade would get the wrong label.
 */
export const PRIMARY_SHADE = { light: 6, dark: 6 } as const;

/** Every colour the Mantine theme of an appearance defines: Mantine's own and the palette roles. */
export function themeColors(appearance: Appearance): Record<string, MantineColorsTuple> {
  const colors = paletteColors(appearance);
  return {
    ...DEFAULT_THEME.colors,
    ...Object.fromEntries(PALETTE_ROLES.map((role) => [role, shadesOf(colors[role])])),
  };
}

/** The text colours of one theme colour in one scheme (Mantine's `-text`, `-light-color`, `-outline`). */
export interface ColorTextTokens {
  /** `c="red"`, and the outline variant's text and border: on the surfaces. */
  text: string;
  /** The light, subtle and transparent variants' text: on the light background and the surfaces. */
  lightColor: string;
  /** The light variant's background and its hover (the colour's shades 1 and 2; dark: shade 9 darkened). */
  lightBg: string;
  lightHoverBg: string;
  /** The filled variant's background (the primary shade of the scheme) and the label `autoContrast` writes. */
  filled: string;
  filledLabel: string;
}

/**
 * The text colours of `tuple` in `scheme`, each the Mantine default shade moved just far enough to reach
 * 4.5:1: light text from shade 6 (light variant from 9) darker, dark text from shade 4 (light variant from 0)
 * lighter.
 */
export function colorTextTokens(tuple: MantineColorsTuple, scheme: 'light' | 'dark'): ColorTextTokens {
  const surfaces = SURFACES[scheme];
  const filled = tuple[PRIMARY_SHADE[scheme]];
  if (scheme === 'light') {
    const lightBg = tuple[1];
    const lightHoverBg = tuple[2];
    return {
      text: readableOn(tuple[6], surfaces, 'light'),
      lightColor: readableOn(tuple[9], [lightBg, lightHoverBg, ...surfaces], 'light'),
      lightBg,
      lightHoverBg,
      filled,
      filledLabel: labelOn(filled),
    };
  }
  const lightBg = composite(darken(tuple[9], 0.5), DARK[7]);
  const lightHoverBg = composite(darken(tuple[9], 0.3), DARK[7]);
  return {
    text: readableOn(tuple[4], surfaces, 'dark'),
    lightColor: readableOn(tuple[0], [lightBg, lightHoverBg, ...surfaces], 'dark'),
    lightBg,
    lightHoverBg,
    filled,
    filledLabel: labelOn(filled),
  };
}

/** The colours a screen's content is painted with in one appearance, all as `#rrggbb`. */
export interface ContentTokens {
  scheme: 'light' | 'dark';
  /** The page background and the text on it. */
  body: string;
  text: string;
  /** Secondary text (`c="dimmed"`, input descriptions) and input placeholders. */
  dimmed: string;
  /** Links. */
  anchor: string;
  /** Validation messages. */
  error: string;
  /** The focus ring: 3:1 against every surface. */
  focusRing: string;
  /** Per theme colour: its text, light-variant and filled-variant colours. */
  colors: Record<string, ColorTextTokens>;
}

/** The content colours of an appearance: Mantine's defaults, each moved just far enough to meet WCAG AA. */
export function contentTokens(appearance: Appearance): ContentTokens {
  const scheme = colorSchemeOf(appearance.theme);
  const surfaces = SURFACES[scheme];
  const tuples = themeColors(appearance);
  const colors = Object.fromEntries(
    Object.entries(tuples).map(([name, tuple]) => [name, colorTextTokens(tuple, scheme)]),
  );
  const primary = tuples.primary;
  return {
    scheme,
    body: scheme === 'light' ? LIGHT_BODY_BG : DARK[7],
    text: scheme === 'light' ? DEFAULT_THEME.black : DARK[0],
    dimmed: readableOn(scheme === 'light' ? GRAY[6] : DARK[2], surfaces, scheme),
    anchor: colors.primary.text,
    error: colors.red.text,
    focusRing: readableOn(primary[PRIMARY_SHADE[scheme]], surfaces, scheme, MIN_FOCUS_CONTRAST),
    colors,
  };
}

/** Names of the controls Mantine draws by itself, for screen readers; the caller translates them. */
export interface ThemeLabels {
  /** The close button of every modal, drawer, toast and alert. */
  close: string;
  /** The show-password toggle of every password input (a toggle button: pressed while the password shows). */
  showPassword: string;
  /** The colour inputs' "pick a colour from the screen" button. */
  pickColour: string;
}

/** The English labels, for tests and for the moment before translations load. */
export const DEFAULT_THEME_LABELS: ThemeLabels = {
  close: 'Close',
  showPassword: 'Show password',
  pickColour: 'Pick a colour from the screen',
};

/** The Mantine theme of an appearance: palette roles as colour names, primary as the primary colour. */
export function buildMantineTheme(
  appearance: Appearance,
  labels: ThemeLabels = DEFAULT_THEME_LABELS,
): MantineThemeOverride {
  const colors = paletteColors(appearance);
  const tuples = Object.fromEntries(PALETTE_ROLES.map((role) => [role, shadesOf(colors[role])])) as Record<
    PaletteRole,
    MantineColorsTuple
  >;
  return createTheme({
    primaryColor: 'primary',
    primaryShade: PRIMARY_SHADE,
    colors: tuples,
    autoContrast: true,
    luminanceThreshold: LUMINANCE_THRESHOLD,
    defaultRadius: 'md',
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    headings: { fontWeight: '600' },
    other: { appearance },
    components: {
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': labels.close } } },
      Drawer: { defaultProps: { closeButtonProps: { 'aria-label': labels.close } } },
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': labels.close } } },
      Alert: { defaultProps: { closeButtonLabel: labels.close } },
      // Mantine leaves the toggle out of the tab order; keyboard users need it as much as anyone.
      PasswordInput: {
        defaultProps: {
          visibilityToggleFocusable: true,
          visibilityToggleButtonProps: { 'aria-label': labels.showPassword },
        },
      },
      // A link inside a sentence is told apart by its underline, not by colour alone (WCAG 1.4.1).
      Anchor: { defaultProps: { underline: 'always' } },
      ColorInput: { defaultProps: { eyeDropperButtonProps: { 'aria-label': labels.pickColour } } },
    },
  });
}

/** Colours of the shell's chrome (sidebar and header) for a theme, all as `#rrggbb` or `rgba()`. */
export interface ChromeColors {
  sidebarBg: string;
  sidebarFg: string;
  sidebarActiveBg: string;
  headerBg: string;
  headerFg: string;
  headerBorder: string;
  /** The focus ring inside the chrome: its text colour, which reads on it whatever the palette. */
  focusRing: string;
}

/** The sidebar and header colours of an appearance. */
export function chromeColors(appearance: Appearance): ChromeColors {
  const primary = appearance.primaryColor;
  switch (appearance.theme) {
    case 'dark':
      return {
        sidebarBg: DARK[8],
        sidebarFg: DARK[0],
        sidebarActiveBg: 'rgba(255, 255, 255, 0.08)',
        headerBg: DARK[7],
        headerFg: DARK[0],
        headerBorder: DARK[4],
        focusRing: DARK[0],
      };
    case 'mixed':
      return {
        sidebarBg: MIXED_CHROME_COLOR,
        sidebarFg: '#e9ecef',
        sidebarActiveBg: 'rgba(255, 255, 255, 0.1)',
        headerBg: MIXED_CHROME_COLOR,
        headerFg: '#e9ecef',
        headerBorder: MIXED_CHROME_COLOR,
        focusRing: '#e9ecef',
      };
    case 'colored': {
      const bg = mix(primary, 0, 0.14);
      const fg = labelOn(bg);
      return {
        sidebarBg: bg,
        sidebarFg: fg,
        // The active row moves away from the text colour, so it reads at least as well as the rest.
        sidebarActiveBg: fg === '#ffffff' ? 'rgba(0, 0, 0, 0.2)' : 'rgba(255, 255, 255, 0.25)',
        headerBg: bg,
        headerFg: fg,
        headerBorder: bg,
        focusRing: fg,
      };
    }
    default:
      return {
        sidebarBg: '#ffffff',
        sidebarFg: GRAY[8],
        sidebarActiveBg: shadesOf(primary)[1],
        headerBg: '#ffffff',
        headerFg: GRAY[8],
        headerBorder: GRAY[3],
        focusRing: GRAY[8],
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
    '--pal-chrome-focus-ring': c.focusRing,
  };
}

/** The Mantine variables that carry the content colours of {@link contentTokens}. */
export function contentCssVariables(tokens: ContentTokens): Record<string, string> {
  const variables: Record<string, string> = {
    '--pal-body-bg': tokens.body,
    '--pal-focus-ring': tokens.focusRing,
    '--mantine-color-dimmed': tokens.dimmed,
    '--mantine-color-placeholder': tokens.dimmed,
    '--mantine-color-anchor': tokens.anchor,
    '--mantine-color-error': tokens.error,
    '--mantine-color-success': tokens.colors.teal.text,
  };
  for (const [name, color] of Object.entries(tokens.colors)) {
    variables[`--mantine-color-${name}-text`] = color.text;
    variables[`--mantine-color-${name}-outline`] = color.text;
    variables[`--mantine-color-${name}-light-color`] = color.lightColor;
  }
  return variables;
}

/** Adds the shell chrome, the palette roles and the readable content colours to Mantine's generated variables. */
export function cssVariablesResolverFor(appearance: Appearance): CSSVariablesResolver {
  const colors = paletteColors(appearance);
  const roles = Object.fromEntries(PALETTE_ROLES.map((role) => [`--pal-${role}`, colors[role]]));
  const tokens = contentTokens(appearance);
  const content = contentCssVariables(tokens);
  return () => ({
    variables: { ...roles, ...chromeCssVariables(appearance) },
    light: tokens.scheme === 'light' ? content : {},
    dark: tokens.scheme === 'dark' ? content : {},
  });
}
