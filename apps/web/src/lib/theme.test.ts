import {
  DEFAULT_THEME,
  defaultVariantColorsResolver,
  getPrimaryContrastColor,
  type MantineTheme,
  mergeMantineTheme,
} from '@mantine/core';
import { PALETTES, THEMES } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import {
  type Appearance,
  buildMantineTheme,
  chromeColors,
  colorSchemeOf,
  composite,
  contentTokens,
  contrastRatio,
  cssVariablesResolverFor,
  LIGHT_BODY_BG,
  LUMINANCE_THRESHOLD,
  MIN_FOCUS_CONTRAST,
  MIN_TEXT_CONTRAST,
  PALETTE_COLORS,
  PALETTE_ROLES,
  PRIMARY_SHADE,
  resolveAppearance,
  SURFACES,
  shadesOf,
} from './theme';

describe('resolveAppearance', () => {
  it('defaults to light/classic with the spec primary', () => {
    expect(resolveAppearance({})).toEqual({
      theme: 'light',
      palette: 'classic',
      primaryColor: '#47bac1',
      source: 'default',
    });
  });

  it("uses the tenant's theme and palette when the user chose nothing", () => {
    const look = resolveAppearance({
      userTheme: null,
      userPalette: null,
      tenantTheme: 'dark',
      tenantPalette: 'modern',
    });
    expect(look).toMatchObject({ theme: 'dark', palette: 'modern', source: 'tenant' });
    expect(look.primaryColor).toBe(PALETTE_COLORS.modern.primary);
  });

  it("lets the user's choice beat the tenant's", () => {
    const look = resolveAppearance({
      userTheme: 'colored',
      userPalette: 'corporate',
      tenantTheme: 'dark',
      tenantPalette: 'modern',
    });
    expect(look).toMatchObject({ theme: 'colored', palette: 'corporate', source: 'user' });
  });

  it('resolves theme and palette separately', () => {
    const look = resolveAppearance({ userTheme: 'mixed', tenantTheme: 'dark', tenantPalette: 'corporate' });
    expect(look.theme).toBe('mixed');
    expect(look.palette).toBe('corporate');
  });

  it("applies the tenant's primary colour only to the tenant's palette", () => {
    expect(resolveAppearance({ tenantPalette: 'classic', tenantPrimaryColor: '#ff8800' }).primaryColor).toBe(
      '#ff8800',
    );
    expect(
      resolveAppearance({ userPalette: 'modern', tenantPalette: 'classic', tenantPrimaryColor: '#ff8800' })
        .primaryColor,
    ).toBe(PALETTE_COLORS.modern.primary);
    expect(resolveAppearance({ tenantPrimaryColor: 'not-a-colour' }).primaryColor).toBe('#47bac1');
  });

  it('ignores values that are not themes or palettes', () => {
    expect(resolveAppearance({ userTheme: 'neon' as never, tenantTheme: 'dark' }).theme).toBe('dark');
  });
});

describe('palettes', () => {
  it('define all seven colours as hex for every palette', () => {
    for (const palette of PALETTES) {
      for (const role of PALETTE_ROLES) expect(PALETTE_COLORS[palette][role]).toMatch(/^#[0-9a-f]{6}$/i);
    }
  });

  it('keep the spec classic primary and differ from each other', () => {
    expect(PALETTE_COLORS.classic.primary).toBe('#47bac1');
    expect(new Set(PALETTES.map((p) => PALETTE_COLORS[p].primary)).size).toBe(PALETTES.length);
  });
});

describe('shadesOf and buildMantineTheme', () => {
  it('makes ten shades, lightest first, with the colour itself at 6', () => {
    const shades = shadesOf('#47bac1');
    expect(shades).toHaveLength(10);
    expect(shades[6]).toBe('#47bac1');
    const lightness = (hex: string) =>
      [1, 3, 5].reduce((sum, i) => sum + Number.parseInt(hex.slice(i, i + 2), 16), 0);
    for (let i = 1; i < 10; i += 1)
      expect(lightness(shades[i])).toBeLessThanOrEqual(lightness(shades[i - 1]));
  });

  it('names every palette role as a Mantine colour and uses primary as the primary colour', () => {
    const theme = buildMantineTheme(resolveAppearance({ userPalette: 'corporate' }));
    expect(theme.primaryColor).toBe('primary');
    for (const role of PALETTE_ROLES) expect(theme.colors?.[role]?.[6]).toBe(PALETTE_COLORS.corporate[role]);
  });

  it('uses the dark scheme only for the dark theme', () => {
    expect(THEMES.map(colorSchemeOf)).toEqual(['light', 'dark', 'light', 'light']);
  });

  it('paints the chrome dark for mixed and in the primary colour for colored', () => {
    expect(chromeColors(resolveAppearance({ userTheme: 'mixed' })).sidebarBg).toBe('#222e3c');
    const colored = chromeColors(resolveAppearance({ userTheme: 'colored', userPalette: 'corporate' }));
    expect(colored.sidebarBg).toBe(shadesOf(PALETTE_COLORS.corporate.primary)[7]);
    expect(colored.headerBg).toBe(colored.sidebarBg);
    expect(chromeColors(resolveAppearance({})).sidebarBg).toBe('#ffffff');
  });
});

describe('contrast of every theme × palette (WCAG AA)', () => {
  /** A colour as the browser gets it: Mantine's black/white variables resolved to the theme's values. */
  function resolveVar(value: string, theme: MantineTheme): string {
    if (value === 'var(--mantine-color-black)') return theme.black;
    if (value === 'var(--mantine-color-white)') return theme.white;
    return value;
  }

  /** Every key pair of an appearance below its minimum, as `what: fg on bg ratio`. */
  function failures(appearance: Appearance): string[] {
    const tokens = contentTokens(appearance);
    const chrome = chromeColors(appearance);
    const { scheme } = tokens;
    const theme = mergeMantineTheme(DEFAULT_THEME, buildMantineTheme(appearance));
    const pairs: [string, string, string, number][] = [];
    const onSurfaces = (what: string, fg: string, min = MIN_TEXT_CONTRAST) => {
      for (const surface of SURFACES[scheme]) pairs.push([what, fg, surface, min]);
    };
    onSurfaces('text', tokens.text);
    onSurfaces('dimmed text', tokens.dimmed);
    onSurfaces('link', tokens.anchor);
    onSurfaces('error text', tokens.error);
    onSurfaces('focus ring', tokens.focusRing, MIN_FOCUS_CONTRAST);
    // The primary button's label, as Mantine writes it (autoContrast with the theme's threshold).
    const primaryFilled = theme.colors.primary[PRIMARY_SHADE[scheme]];
    pairs.push([
      'button label on primary',
      resolveVar(getPrimaryContrastColor(theme, scheme), theme),
      primaryFilled,
      MIN_TEXT_CONTRAST,
    ]);
    for (const [name, color] of Object.entries(tokens.colors)) {
      onSurfaces(`${name} text`, color.text);
      pairs.push([`${name} light badge`, color.lightColor, color.lightBg, MIN_TEXT_CONTRAST]);
      pairs.push([`${name} light badge (hover)`, color.lightColor, color.lightHoverBg, MIN_TEXT_CONTRAST]);
      onSurfaces(`${name} subtle button`, color.lightColor);
      // Filled buttons and badges: the label Mantine's variant resolver picks, on the fill the CSS paints.
      const { color: label } = defaultVariantColorsResolver({ color: name, theme, variant: 'filled' });
      pairs.push([`${name} filled label`, resolveVar(label, theme), color.filled, MIN_TEXT_CONTRAST]);
      pairs.push([`${name} filled label (token)`, color.filledLabel, color.filled, MIN_TEXT_CONTRAST]);
    }
    const activeBg = composite(chrome.sidebarActiveBg, chrome.sidebarBg);
    pairs.push(['sidebar text', chrome.sidebarFg, chrome.sidebarBg, MIN_TEXT_CONTRAST]);
    pairs.push(['sidebar active item', chrome.sidebarFg, activeBg, MIN_TEXT_CONTRAST]);
    pairs.push(['header text', chrome.headerFg, chrome.headerBg, MIN_TEXT_CONTRAST]);
    pairs.push(['sidebar focus ring', chrome.focusRing, chrome.sidebarBg, MIN_FOCUS_CONTRAST]);
    pairs.push(['sidebar focus ring (active)', chrome.focusRing, activeBg, MIN_FOCUS_CONTRAST]);
    pairs.push(['header focus ring', chrome.focusRing, chrome.headerBg, MIN_FOCUS_CONTRAST]);
    return pairs
      .filter(([, fg, bg, min]) => contrastRatio(fg, bg) < min)
      .map(([what, fg, bg, min]) => `${what}: ${fg} on ${bg} ${contrastRatio(fg, bg).toFixed(2)} < ${min}`);
  }

  const combinations = THEMES.flatMap((theme) => PALETTES.map((palette) => [theme, palette] as const));

  it.each(combinations)('%s × %s: text 4.5:1, focus ring 3:1', (theme, palette) => {
    expect(failures(resolveAppearance({ userTheme: theme, userPalette: palette }))).toEqual([]);
  });

  it.each(['#ffcc00', '#1c5d99', '#777777', '#ffffff', '#000000'])(
    "holds for a tenant's own primary colour %s in every theme",
    (primary) => {
      for (const theme of THEMES) {
        const appearance = resolveAppearance({ tenantTheme: theme, tenantPrimaryColor: primary });
        expect(failures(appearance)).toEqual([]);
      }
    },
  );

  it("would fail on Mantine's defaults, which the tokens replace", () => {
    // Grey hint text, green badges, the classic teal as link and focus ring: what axe found before.
    expect(contrastRatio(DEFAULT_THEME.colors.gray[6], LIGHT_BODY_BG)).toBeLessThan(MIN_TEXT_CONTRAST);
    expect(contrastRatio(DEFAULT_THEME.colors.green[9], DEFAULT_THEME.colors.green[1])).toBeLessThan(
      MIN_TEXT_CONTRAST,
    );
    expect(contrastRatio('#47bac1', LIGHT_BODY_BG)).toBeLessThan(MIN_FOCUS_CONTRAST);
    expect(contrastRatio('#ffffff', DEFAULT_THEME.colors.red[6])).toBeLessThan(MIN_TEXT_CONTRAST);
  });

  it('keeps the classic primary as the fill and darkens only its text', () => {
    const tokens = contentTokens(resolveAppearance({}));
    expect(tokens.colors.primary.filled).toBe('#47bac1');
    expect(tokens.anchor).not.toBe('#47bac1');
    expect(tokens.colors.primary.filledLabel).toBe('#000000');
    for (const palette of ['corporate', 'modern'] as const) {
      expect(contentTokens(resolveAppearance({ userPalette: palette })).colors.primary.filledLabel).toBe(
        '#ffffff',
      );
    }
  });

  it('hands the tokens to Mantine as CSS variables of the scheme in force', () => {
    for (const theme of THEMES) {
      const appearance = resolveAppearance({ userTheme: theme });
      const tokens = contentTokens(appearance);
      const mantine = mergeMantineTheme(DEFAULT_THEME, buildMantineTheme(appearance));
      const resolved = cssVariablesResolverFor(appearance)(mantine);
      const variables = resolved[tokens.scheme];
      expect(variables['--mantine-color-dimmed']).toBe(tokens.dimmed);
      expect(variables['--mantine-color-anchor']).toBe(tokens.anchor);
      expect(variables['--pal-focus-ring']).toBe(tokens.focusRing);
      expect(variables['--mantine-color-green-light-color']).toBe(tokens.colors.green.lightColor);
      expect(variables['--mantine-color-red-text']).toBe(tokens.colors.red.text);
      expect(resolved.variables['--pal-chrome-focus-ring']).toBe(chromeColors(appearance).focusRing);
      expect(mantine.luminanceThreshold).toBe(LUMINANCE_THRESHOLD);
    }
  });
});
