import { createRequire } from 'node:module';

/**
 * The vendor of a MAC address from the IEEE registries (MA-L, MA-M, MA-S), as the `oui-data` package ships them
 * (silverwind/oui-data, BSD-2-Clause, rebuilt from the IEEE's public listings). Its entries are keyed by 6, 7 or
 * 9 upper-case hex digits — an MA-M or MA-S block lies inside an MA-L block assigned to the IEEE Registration
 * Authority, so the longest prefix is matched first — and hold the organisation's name and postal address, one
 * line each; the name is the first line.
 */
const DATA_PACKAGE = 'oui-data';

let registry: Readonly<Record<string, string>> | null = null;

/** Loads the registry on first use (a 5.6 MB JSON file, read once), then keeps it. */
function ouiRegistry(): Readonly<Record<string, string>> {
  if (!registry) registry = createRequire(import.meta.url)(DATA_PACKAGE) as Record<string, string>;
  return registry;
}

/**
 * The organisation a MAC address (`aa:bb:cc:dd:ee:ff`, any separator or case) is registered to, or null: for a
 * locally administered address (the random, private addresses phones and laptops use per network), a group
 * (multicast) address, and a prefix the registry does not list.
 */
export function macVendor(mac: string): string | null {
  const hex = mac.replace(/[^0-9a-f]/gi, '').toUpperCase();
  if (hex.length !== 12) return null;
  const firstOctet = Number.parseInt(hex.slice(0, 2), 16);
  // Bit 1: locally administered (not from a registry); bit 0: a group address.
  if (firstOctet & 0b11) return null;
  const data = ouiRegistry();
  const entry = data[hex.slice(0, 9)] ?? data[hex.slice(0, 7)] ?? data[hex.slice(0, 6)];
  const name = entry?.split('\n')[0]?.trim();
  // An MA-L block the IEEE subdivides names the authority, not a vendor: an unlisted part of it is unknown.
  return name && name !== 'IEEE Registration Authority' ? name : null;
}
