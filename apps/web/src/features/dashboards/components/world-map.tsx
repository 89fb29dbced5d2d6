import { Box, Card, Group, ScrollArea, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { geoEqualEarth, geoPath } from 'd3-geo';
import type { FeatureCollection, Geometry } from 'geojson';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
// Bundled with this chunk (38 kB gzip), so the map draws without a request of its own.
import world from 'world-atlas/countries-110m.json';
import { formatCount, useChartLocale } from '../../../components/charts/format';
import { alpha2Of } from '../utils/world-countries';

const WIDTH = 960;
const HEIGHT = 440;
/** Antarctica takes a fifth of the map and sees no traffic: it is left out. */
const ANTARCTICA = '010';

interface Shape {
  code: string | null;
  name: string;
  d: string;
}

/** The country shapes as SVG paths, projected once (Equal Earth, fitted to the map's box). */
const SHAPES: Shape[] = (() => {
  const topology = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const countries = feature(topology, topology.objects.countries) as FeatureCollection<
    Geometry,
    { name: string }
  >;
  const shown: FeatureCollection<Geometry, { name: string }> = {
    type: 'FeatureCollection',
    features: countries.features.filter((shape) => String(shape.id) !== ANTARCTICA),
  };
  const path = geoPath(geoEqualEarth().fitSize([WIDTH, HEIGHT], shown));
  return shown.features.map((shape) => ({
    code: alpha2Of({ id: shape.id, properties: shape.properties }),
    name: shape.properties?.name ?? '',
    d: path(shape) ?? '',
  }));
})();

/** The shades of the map, lightest first (the theme's reds). */
const SHADES = ['red.2', 'red.4', 'red.5', 'red.7', 'red.9'] as const;
const cssColor = (color: string) => `var(--mantine-color-${color.replace('.', '-')})`;

/** A class of the legend: the counts from `min` to `max` share a shade. */
export interface ColourClass {
  min: number;
  max: number;
  color: string;
}

/**
 * Up to five classes on a logarithmic scale from 1 to `max` (blocked counts spread over orders of magnitude:
 * a linear scale would paint every country but one in the lightest shade). Classes that would be empty are
 * dropped, so a small maximum gives fewer classes.
 */
export function colourClasses(max: number): ColourClass[] {
  if (max < 1) return [];
  const classes: ColourClass[] = [];
  let min = 1;
  SHADES.forEach((color, index) => {
    const upper = Math.max(1, Math.round(max ** ((index + 1) / SHADES.length)));
    if (upper < min) return;
    classes.push({ min, max: upper, color });
    min = upper + 1;
  });
  return classes;
}

/** One country of the map: its code, its name in the language, the blocked requests to it. */
export interface CountryCount {
  code: string;
  name: string;
  blocked: number;
}

/** Props of {@link WorldMap}. */
export interface WorldMapProps {
  title: string;
  countries: CountryCount[];
  onSelect: (country: CountryCount) => void;
}

/**
 * Blocked requests by destination country on a world map, each country shaded by its count on the legend's
 * scale; clicking a country opens its decisions. For keyboard and screen-reader users the same figures are in
 * the table beside the map, each country a button doing the same.
 */
export default function WorldMap({ title, countries, onSelect }: WorldMapProps) {
  const { t } = useTranslation();
  const locale = useChartLocale();
  const headingId = useId();
  const tableCaptionId = useId();
  const byCode = new Map(countries.map((country) => [country.code, country]));
  const max = Math.max(0, ...countries.map((country) => country.blocked));
  const classes = colourClasses(max);
  const total = countries.reduce((sum, country) => sum + country.blocked, 0);
  const fillOf = (blocked: number) => {
    const found = classes.find((entry) => blocked >= entry.min && blocked <= entry.max);
    return found ? cssColor(found.color) : 'var(--mantine-color-default-border)';
  };
  const count = (n: number) => formatCount(n, locale);
  const sorted = [...countries].sort((a, b) => b.blocked - a.blocked);
  const unit = t('dashboards.units.blockedInRange', 'Blocked requests in the time range');

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap={2} mb="sm">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        <Text size="xs" c="dimmed">
          {unit}
        </Text>
      </Stack>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <Box style={{ flex: '3 1 480px', minWidth: 0 }}>
          <svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            width="100%"
            role="img"
            aria-label={t(
              'dashboards.map.name',
              'World map of blocked requests by country: {{countries}} countries, {{total}} blocked requests. The figures are in the table beside the map.',
              { countries: count(countries.length), total: count(total) },
            )}
            style={{ display: 'block' }}
          >
            {SHAPES.map((shape) => {
              const country = shape.code ? byCode.get(shape.code) : undefined;
              return (
                // biome-ignore lint/a11y/noStaticElementInteractions: a mouse shortcut; the table beside the map is the keyboard and screen-reader way to the same drill-down.
                <path
                  // The two shapes without a code have distinct names.
                  key={shape.code ?? shape.name}
                  d={shape.d}
                  data-country={shape.code ?? undefined}
                  fill={country ? fillOf(country.blocked) : 'var(--mantine-color-gray-light)'}
                  stroke="var(--mantine-color-body)"
                  strokeWidth={0.5}
                  style={country ? { cursor: 'pointer' } : undefined}
                  onClick={country ? () => onSelect(country) : undefined}
                >
                  <title>
                    {country ? `${country.name}: ${count(country.blocked)}` : shape.code ? shape.name : ''}
                  </title>
                </path>
              );
            })}
          </svg>
          {classes.length > 0 ? (
            <Group gap="sm" mt="xs" wrap="wrap" aria-label={t('dashboards.map.legend', 'Legend')} role="list">
              {classes.map((entry) => (
                <Group key={entry.color} gap={4} wrap="nowrap" role="listitem">
                  <Box
                    w={14}
                    h={14}
                    style={{ background: cssColor(entry.color), borderRadius: 2 }}
                    aria-hidden
                  />
                  <Text size="xs">
                    {entry.min === entry.max ? count(entry.min) : `${count(entry.min)}–${count(entry.max)}`}
                  </Text>
                </Group>
              ))}
              <Group gap={4} wrap="nowrap" role="listitem">
                <Box
                  w={14}
                  h={14}
                  style={{ background: 'var(--mantine-color-gray-light)', borderRadius: 2 }}
                  aria-hidden
                />
                <Text size="xs">{t('dashboards.map.none', 'None')}</Text>
              </Group>
            </Group>
          ) : null}
        </Box>
        <Box style={{ flex: '1 1 240px', minWidth: 0 }}>
          {sorted.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('dashboards.map.empty', 'No blocked requests to any country in this time range.')}
            </Text>
          ) : (
            <ScrollArea.Autosize mah={HEIGHT}>
              <Table striped captionSide="top" aria-labelledby={tableCaptionId}>
                <Table.Caption id={tableCaptionId}>
                  {t('dashboards.map.table', 'Blocked requests by country')}
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('dashboards.map.country', 'Country')}</Table.Th>
                    <Table.Th scope="col" ta="end">
                      {t('dashboards.map.blocked', 'Blocked')}
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {sorted.map((country) => (
                    <Table.Tr key={country.code}>
                      <Table.Th scope="row" fw={400}>
                        <UnstyledButton
                          onClick={() => onSelect(country)}
                          td="underline"
                          fz="sm"
                          style={{ textAlign: 'start' }}
                        >
                          {country.name}
                        </UnstyledButton>
                      </Table.Th>
                      <Table.Td ta="end" style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {count(country.blocked)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
        </Box>
      </Group>
    </Card>
  );
}
