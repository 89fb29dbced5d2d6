import type { GeometryCollection, Topology } from 'topojson-specification';
import { describe, expect, it } from 'vitest';
import world from 'world-atlas/countries-110m.json';
import { alpha2Of } from './world-countries';

const topology = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
/** The shapes of the topology as the map reads them: their id and name. */
const shapes = topology.objects.countries.geometries.map((shape) => ({
  id: shape.id,
  properties: { name: (shape.properties as { name?: string } | undefined)?.name ?? '' },
}));

describe('the world map’s country codes', () => {
  it('names every shape of the topology but two by a distinct ISO alpha-2 code', () => {
    const codes = shapes.map((shape) => alpha2Of(shape));
    const missing = shapes.filter((_, index) => codes[index] === null).map((shape) => shape.properties.name);
    expect(missing.sort()).toEqual(['N. Cyprus', 'Somaliland']);
    const known = codes.filter((code): code is string => code !== null);
    expect(new Set(known).size).toBe(known.length);
    expect(known.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
  });

  it('finds the codes Natural Earth names differently, and Kosovo without a numeric id', () => {
    const byName = (name: string) =>
      alpha2Of(shapes.find((shape) => shape.properties.name === name) ?? { id: 'none' });
    expect(byName('Germany')).toBe('DE');
    expect(byName('United States of America')).toBe('US');
    expect(byName('Dem. Rep. Congo')).toBe('CD');
    expect(byName("Côte d'Ivoire")).toBe('CI');
    expect(byName('Kosovo')).toBe('XK');
  });
});
