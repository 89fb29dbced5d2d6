import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { formatIpv4, ipv4BlockEnd, isIpInCidr, parseIpv4, parseIpv4Cidr } from '@palisade/contracts';
import { Reader, type Response } from 'mmdb-lib';
import { ISO_COUNTRY_CODES } from './data/countries';

/**
 * The shipped GeoIP database: `@ip-location-db/geo-whois-asn-country-mmdb` (CC0, built from the regional
 * internet registries' WHOIS and ASN data), IPv4 only — the policy engine decides IPv4 addresses.
 */
const DB_PACKAGE = '@ip-location-db/geo-whois-asn-country-mmdb';
const DB_FILE = 'geo-whois-asn-country-ipv4.mmdb';
export const GEOIP_DATABASE_NAME = 'geo-whois-asn-country (ip-location-db, IPv4)';

interface CountryRecord {
  country_code?: string;
}

let reader: Reader<Response> | null = null;

/** Opens the database on first use (3 MB read once), then keeps it. */
function geoReader(): Reader<Response> {
  if (!reader) {
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve(`${DB_PACKAGE}/package.json`));
    reader = new Reader<Response>(readFileSync(join(dir, DB_FILE)));
  }
  return reader;
}

/**
 * IANA special-purpose IPv4 blocks (RFC 6890 registry): no country owns them. The WHOIS-derived database
 * carries stray records for some (192.168.0.0/16, 172.16.0.0/12 and two documentation ranges come back as
 * AU), so they are answered here, before the database is asked.
 */
const SPECIAL_PURPOSE = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
];

/** Whether an IPv4 address lies in a special-purpose block (private, loopback, link-local, documentation…). */
export function isSpecialPurposeIpv4(address: string): boolean {
  return SPECIAL_PURPOSE.some((block) => isIpInCidr(address, block));
}

/**
 * The ISO alpha-2 country of an IPv4 address, or null when the address is malformed, special-purpose
 * (private, documentation, reserved…) or not in the database.
 */
export function lookupCountry(ip: string): string | null {
  const address = ip.trim();
  if (parseIpv4(address) === null) return null;
  if (SPECIAL_PURPOSE.some((block) => isIpInCidr(address, block))) return null;
  // The record shape of this database is `{ country_code }`, not MaxMind's.
  const record = geoReader().get(address) as CountryRecord | null;
  const code = record?.country_code;
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
}

/** When the shipped database was built, as an ISO date-time. */
export function geoDatabaseBuiltAt(): string | null {
  const epoch = geoReader().metadata.buildEpoch;
  return epoch instanceof Date && !Number.isNaN(epoch.getTime()) ? epoch.toISOString() : null;
}

let countries: { code: string; name: string }[] | null = null;

/** Every country with its English name, sorted by name. */
export function countryList(): readonly { code: string; name: string }[] {
  if (!countries) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    countries = ISO_COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code }))
      .filter((c) => c.name !== c.code)
      .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  }
  return countries;
}

/** Whether a code is one of {@link countryList}. */
export function isKnownCountry(code: string): boolean {
  return countryList().some((c) => c.code === code);
}

let rangesByCountry: Map<string, string[]> | null = null;

/**
 * Walks the database for {@link countryRanges} now (≈1 s): the server does it before it listens, so the first
 * bundle compiled after a start (a save the gateways wait for) does not pay for it.
 */
export function prepareCountryRanges(): void {
  countryRanges('ZZ');
}

/**
 * The IPv4 ranges (`first-last`) of a country, as {@link lookupCountry} sees them: the shipped database walked
 * block by block once (about 500 000 blocks, ≈1 s, on first use), adjacent blocks of one country merged, and the
 * special-purpose blocks left out as lookupCountry leaves them out. What a gateway's firewall blocks for a country
 * is then exactly what the simulator decides for it.
 */
export function countryRanges(code: string): readonly string[] {
  if (!rangesByCountry) {
    const byCountry = new Map<string, string[]>();
    const db = geoReader();
    // The special-purpose blocks as numbers: a block touching one is no country's.
    const special = SPECIAL_PURPOSE.map((text) => {
      const block = parseIpv4Cidr(text)!;
      return [block.network, ipv4BlockEnd(block)] as const;
    });
    let open: { code: string; first: number; last: number } | null = null;
    const close = () => {
      if (!open) return;
      const list = byCountry.get(open.code) ?? [];
      list.push(`${formatIpv4(open.first)}-${formatIpv4(open.last)}`);
      byCountry.set(open.code, list);
      open = null;
    };
    for (let first = 0; first <= 0xffffffff; ) {
      const [record, prefix] = db.getWithPrefixLength(formatIpv4(first)) as [CountryRecord | null, number];
      const last = first + 2 ** (32 - prefix) - 1;
      const code = record?.country_code;
      const isCountry =
        typeof code === 'string' &&
        /^[A-Z]{2}$/.test(code) &&
        !special.some(([from, to]) => first <= to && last >= from);
      if (isCountry && open?.code === code && open.last + 1 === first) open.last = last;
      else {
        close();
        if (isCountry) open = { code: code as string, first, last };
      }
      first = last + 1;
    }
    close();
    rangesByCountry = byCountry;
  }
  return rangesByCountry.get(code.toUpperCase()) ?? [];
}
