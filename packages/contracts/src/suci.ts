/**
 * SUCI (subscription concealed identifier, 3GPP TS 23.003 §2.2B) in the dash-separated form the 5G core stores
 * for a private-5G user (spec §3 User.suci): `suci-0-<mcc>-<mnc>-<routing indicator>-<protection scheme>-
 * <home network key id>-<scheme output>`. The leading 0 is the SUPI type "IMSI", the only type used here.
 */

/** The parts of a SUCI. Digit strings stay strings because their leading zeros are significant. */
export interface SuciParts {
  /** Mobile country code, 3 digits. */
  mcc: string;
  /** Mobile network code, 2 or 3 digits. */
  mnc: string;
  /** Routing indicator, 1 to 4 digits. */
  routingIndicator: string;
  /** Protection scheme id 0..15: 0 is the null scheme, 1 ECIES profile A, 2 ECIES profile B. */
  protectionScheme: number;
  /** Home network public key id 0..255. */
  homeNetworkKeyId: number;
  /** Scheme output: the MSIN digits under the null scheme, else the hex-encoded ciphertext. */
  schemeOutput: string;
}

// Field widths follow TS 23.003 (and the `Suci` form schema in users.ts): scheme ids are 4 bits, key ids 8 bits.
const SUCI = /^suci-0-(\d{3})-(\d{2,3})-(\d{1,4})-(\d{1,2})-(\d{1,3})-([0-9a-fA-F]{1,200})$/;
const MAX_PROTECTION_SCHEME = 15;
const MAX_HOME_NETWORK_KEY_ID = 255;
// An IMSI is at most 15 digits (ITU-T E.212), which bounds the MSIN a null-scheme SUCI may carry.
const MAX_IMSI_DIGITS = 15;

/**
 * Splits a SUCI into its parts, or returns `null` when it is not of the form
 * `suci-0-<mcc>-<mnc>-<routing>-<scheme>-<keyid>-<output>`. Surrounding whitespace is ignored (as the `Suci`
 * schema trims), a scheme id above 15 or a key id above 255 is rejected.
 *
 * @example parseSuci('suci-0-208-93-0-0-0-0000000003')
 * // { mcc: '208', mnc: '93', routingIndicator: '0', protectionScheme: 0, homeNetworkKeyId: 0,
 * //   schemeOutput: '0000000003' }
 */
export function parseSuci(s: string): SuciParts | null {
  if (typeof s !== 'string') return null;
  const match = SUCI.exec(s.trim());
  if (match === null) return null;
  const [, mcc, mnc, routingIndicator, scheme, keyId, schemeOutput] = match;
  const protectionScheme = Number(scheme);
  const homeNetworkKeyId = Number(keyId);
  if (protectionScheme > MAX_PROTECTION_SCHEME || homeNetworkKeyId > MAX_HOME_NETWORK_KEY_ID) return null;
  return { mcc, mnc, routingIndicator, protectionScheme, homeNetworkKeyId, schemeOutput };
}

/**
 * The IMSI (MCC + MNC + MSIN) carried by a SUCI, or `null` when it cannot be read. Only the null protection
 * scheme (0) leaves the MSIN in clear as the scheme output; any other scheme conceals it, and the UI then
 * shows "concealed". Also `null` when the SUCI is malformed or its null-scheme output is not a decimal MSIN
 * that keeps the IMSI within 15 digits.
 *
 * @example suciToImsi('suci-0-208-93-0-0-0-0000000003') // '208930000000003'
 * @example suciToImsi('suci-0-208-93-0-1-1-9a3c…') // null (profile A: concealed)
 */
export function suciToImsi(s: string): string | null {
  const parts = parseSuci(s);
  if (parts === null || parts.protectionScheme !== 0) return null;
  if (!/^\d+$/.test(parts.schemeOutput)) return null;
  const imsi = parts.mcc + parts.mnc + parts.schemeOutput;
  return imsi.length <= MAX_IMSI_DIGITS ? imsi : null;
}
