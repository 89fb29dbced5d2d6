import { describe, expect, it } from 'vitest';
import {
  applyDelta,
  bundleDigest,
  bundleFromParts,
  bundleParts,
  diffLines,
  makeDelta,
  patchLines,
} from './bundle-delta';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const bundle = (rules: number, extra?: string) => ({
  version: 'aaaa.1111',
  createdAt: '2026-12-02T10:00:00.000Z',
  artefacts: {
    wireguard: '[Interface]\nAddress = 100.100.0.1/24\n',
    nftables: Array.from({ length: rules }, (_, i) => `  ip daddr 10.0.${i >> 8}.${i & 255} drop # r${i}`)
      .concat(extra ? [extra] : [])
      .join('\n'),
    rpz: '@ IN SOA ns. admin. ( 1 3600 600 86400 60 )\nhost1.example CNAME .\n',
    squid: '',
    site: { nftables: 'table inet palisade_site {}\n', interfaces: '#!/bin/sh\n' },
  },
  policy: { policies: [{ id: 'p1', rules: Array.from({ length: 3 }, (_, i) => ({ id: `r${i}` })) }] },
  skipped: [],
});

describe('line deltas', () => {
  it('make the new text of the old one for random edits, in few hunks', () => {
    const next = random(23);
    for (let round = 0; round < 200; round++) {
      const from = Array.from({ length: Math.floor(next() * 40) }, () => `line ${Math.floor(next() * 8)}`);
      const to = [...from];
      for (let edit = Math.floor(next() * 6); edit > 0; edit--) {
        const at = Math.floor(next() * (to.length + 1));
        if (next() < 0.5 && to.length > 0) to.splice(at, 1);
        else to.splice(at, 0, `new ${Math.floor(next() * 8)}`);
      }
      const hunks = diffLines(from.join('\n'), to.join('\n'));
      expect(hunks).not.toBeNull();
      expect(patchLines(from.join('\n'), hunks ?? [])).toBe(to.join('\n'));
    }
  });

  it('carry only the changed lines of a long text', () => {
    const from = Array.from({ length: 100_000 }, (_, i) => `rule ${i}`);
    const to = [...from];
    to.splice(50_000, 1, 'rule changed');
    to[0] = 'serial 2';
    const hunks = diffLines(from.join('\n'), to.join('\n'));
    expect(hunks).toEqual([
      [0, 1, ['serial 2']],
      [50_000, 1, ['rule changed']],
    ]);
  });

  it('give up past the edit limit (the part is then sent whole)', () => {
    const from = Array.from({ length: 100 }, (_, i) => `a${i}`).join('\n');
    const to = Array.from({ length: 100 }, (_, i) => `b${i}`).join('\n');
    expect(diffLines(from, to, 50)).toBeNull();
  });
});

describe('bundle deltas', () => {
  it('split a bundle into parts and put it together again', () => {
    const original = bundle(10);
    const parts = bundleParts(original);
    expect(Object.keys(parts).sort()).toEqual([
      'artefacts.nftables',
      'artefacts.rpz',
      'artefacts.site.interfaces',
      'artefacts.site.nftables',
      'artefacts.squid',
      'artefacts.wireguard',
      'createdAt',
      'policy#json',
      'skipped#json',
      'version',
    ]);
    expect(bundleFromParts(parts)).toEqual(original);
  });

  it('apply a one-rule change of a 10 000-rule bundle from a few hundred bytes, checked by its digest', () => {
    const base = bundleParts(bundle(10_000));
    const nextBundle = { ...bundle(10_000, '  ip daddr 192.0.2.1 drop # new'), version: 'bbbb.1111' };
    const next = bundleParts(nextBundle);
    const delta = makeDelta({ version: 'aaaa.1111', parts: base }, { version: 'bbbb.1111', parts: next });
    expect(Object.keys(delta.parts).sort()).toEqual(['artefacts.nftables', 'version']);
    expect(JSON.stringify(delta).length).toBeLessThan(600);
    const made = applyDelta(base, delta);
    expect(bundleDigest(made)).toBe(bundleDigest(next));
    expect(bundleFromParts(made)).toEqual(nextBundle);
  });

  it('refuse a delta whose result does not match, or whose base lacks a part', () => {
    const base = bundleParts(bundle(100));
    const next = bundleParts({ ...bundle(100, 'extra'), version: 'bbbb.1111' });
    const delta = makeDelta({ version: 'aaaa.1111', parts: base }, { version: 'bbbb.1111', parts: next });
    const changedBase = { ...base, 'artefacts.squid': 'something else' };
    expect(() => applyDelta(changedBase, delta)).toThrow(/SHA-256/);
    const { 'artefacts.rpz': _, ...withoutRpz } = base;
    expect(() => applyDelta(withoutRpz, delta)).toThrow(/no part artefacts.rpz/);
  });

  it('drop a part the new version no longer has', () => {
    const { site: _, ...artefacts } = bundle(5).artefacts;
    const next = bundleParts({ ...bundle(5), artefacts });
    const made = applyDelta(
      bundleParts(bundle(5)),
      makeDelta({ version: 'a', parts: bundleParts(bundle(5)) }, { version: 'aaaa.1111', parts: next }),
    );
    expect(bundleFromParts(made)).toEqual({ ...bundle(5), artefacts });
  });
});
