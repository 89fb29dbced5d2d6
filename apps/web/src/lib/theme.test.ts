import { PALETTES, THEMES } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import {
  buildMantineTheme,
  chromeColors,
  colorSchemeOf,
  contrastRatio,
  PALETTE_COLORS,
  PALETTE_ROLES,
  readableTextShade,
  resolveAppearance,
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

describe('readableTextShade', () => {
  it('darkens a light primary until links reach 4.5:1 on white', () => {
    expect(contrastRatio('#47bac1', '#ffffff')).toBeLessThan(4.5);
    for (const palette of PALETTES) {
      expect(
        contrastRatio(readableTextShade(PALETTE_COLORS[palette].primary), '#ffffff'),
      ).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps a primary that is dark enough already', () => {
    expect(readableTextShade('#1a4f8b')).toBe('#1a4f8b');
  });
});
