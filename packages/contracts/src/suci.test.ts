import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSuci, suciToImsi } from './suci';

describe('parseSuci', () => {
  it('splits a null-scheme SUCI', () => {
    expect(parseSuci('suci-0-208-93-0-0-0-0000000003')).toEqual({
      mcc: '208',
      mnc: '93',
      routingIndicator: '0',
      protectionScheme: 0,
      homeNetworkKeyId: 0,
      schemeOutput: '0000000003',
    });
  });

  it('splits a profile-A SUCI with a 3-digit MNC and keeps leading zeros', () => {
    expect(parseSuci('  suci-0-001-010-0123-1-27-9a3cF0  ')).toEqual({
      mcc: '001',
      mnc: '010',
      routingIndicator: '0123',
      protectionScheme: 1,
      homeNetworkKeyId: 27,
      schemeOutput: '9a3cF0',
    });
  });

  it.each([
    '',
    'suci',
    'imsi-208930000000003',
    'suci-1-208-93-0-0-0-0000000003',
    'suci-0-20-93-0-0-0-0000000003',
    'suci-0-2080-93-0-0-0-0000000003',
    'suci-0-208-9-0-0-0-0000000003',
    'suci-0-208-9300-0-0-0-0000000003',
    'suci-0-208-93-12345-0-0-0000000003',
    'suci-0-208-93--0-0-0000000003',
    'suci-0-208-93-0-16-0-00',
    'suci-0-208-93-0-0-256-00',
    'suci-0-208-93-0-0-0-',
    'suci-0-208-93-0-0-0-00zz',
    'suci-0-208-93-0-0-0-0000000003-9',
    'SUCI-0-208-93-0-0-0-0000000003',
  ])('rejects %j', (value) => {
    expect(parseSuci(value)).toBeNull();
  });

  it('parses back whatever it is built from', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{3}$/),
        fc.stringMatching(/^\d{2,3}$/),
        fc.stringMatching(/^\d{1,4}$/),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 0, max: 255 }),
        fc.stringMatching(/^[0-9a-f]{1,64}$/),
        (mcc, mnc, routingIndicator, protectionScheme, homeNetworkKeyId, schemeOutput) => {
          const suci = `suci-0-${mcc}-${mnc}-${routingIndicator}-${protectionScheme}-${homeNetworkKeyId}-${schemeOutput}`;
          expect(parseSuci(suci)).toEqual({
            mcc,
            mnc,
            routingIndicator,
            protectionScheme,
            homeNetworkKeyId,
            schemeOutput,
          });
        },
      ),
    );
  });
});

describe('suciToImsi', () => {
  it.each([
    ['suci-0-208-93-0-0-0-0000000003', '208930000000003'],
    ['suci-0-001-010-0-0-0-123456789', '001010123456789'],
    ['suci-0-310-410-1234-0-0-1', '3104101'],
    ['suci-0-208-93-0-1-1-9a3c0e', null],
    ['suci-0-208-93-0-2-5-0000000003', null],
    ['suci-0-208-93-0-0-0-00000000ab', null],
    ['suci-0-208-93-0-0-0-00000000003', null],
    ['not a suci', null],
  ])('%s → %s', (suci, expected) => {
    expect(suciToImsi(suci)).toBe(expected);
  });

  it('is MCC + MNC + MSIN under the null scheme', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{3}$/),
        fc.stringMatching(/^\d{2,3}$/),
        fc.stringMatching(/^\d{1,9}$/),
        (mcc, mnc, msin) => {
          expect(suciToImsi(`suci-0-${mcc}-${mnc}-0-0-0-${msin}`)).toBe(mcc + mnc + msin);
        },
      ),
    );
  });

  it('is concealed (null) under every other scheme', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 15 }), fc.stringMatching(/^\d{1,9}$/), (scheme, output) => {
        expect(suciToImsi(`suci-0-208-93-0-${scheme}-1-${output}`)).toBeNull();
      }),
    );
  });
});
