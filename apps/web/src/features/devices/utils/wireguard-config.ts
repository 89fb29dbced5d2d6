/**
 * A WireGuard configuration made in the browser for the standard WireGuard apps: the key pair is generated
 * here, only the public key goes to the server, and the private key goes into the server's `wg-quick` text.
 * `@noble/curves` and `qrcode` are loaded on demand, so the enrolment page's first chunk does not carry them.
 */

/**
 * Where the server's `wg-quick` text leaves the private key for the device to fill in. The same literal as
 * `PRIVATE_KEY_PLACEHOLDER` of packages/gateway-config (not importable from the web); keep the two equal.
 */
export const PRIVATE_KEY_PLACEHOLDER = '@PALISADE_GATEWAY_PRIVATE_KEY@';

/** A WireGuard key pair, both keys base64 of 32 bytes (44 characters). */
export interface WireguardKeyPair {
  privateKey: string;
  publicKey: string;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A new X25519 key pair from the browser's secure random source; nothing is stored. */
export async function generateKeyPair(): Promise<WireguardKeyPair> {
  const { x25519 } = await import('@noble/curves/ed25519.js');
  const secret = x25519.utils.randomSecretKey();
  return { privateKey: toBase64(secret), publicKey: toBase64(x25519.getPublicKey(secret)) };
}

function fromBase64(text: string): Uint8Array | null {
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * The public key of a private key someone pasted (base64 of 32 bytes), or null when it is not a WireGuard key:
 * so a configuration downloaded again is filled in only with the key that belongs to the device. Computed here;
 * the private key is sent nowhere.
 */
export async function publicKeyOf(privateKey: string): Promise<string | null> {
  const trimmed = privateKey.trim();
  if (!/^[A-Za-z0-9+/]{43}=$/.test(trimmed)) return null;
  const secret = fromBase64(trimmed);
  if (secret?.length !== 32) return null;
  const { x25519 } = await import('@noble/curves/ed25519.js');
  return toBase64(x25519.getPublicKey(secret as Uint8Array));
}

/** The server's `wg-quick` text with the private key in place of the placeholder. */
export function fillPrivateKey(config: string, privateKey: string): string {
  return config.split(PRIVATE_KEY_PLACEHOLDER).join(privateKey);
}

/**
 * The download's file name, e.g. `palisade-anns-laptop.conf`. The apps name the tunnel after the file, and
 * tunnel names allow letters, digits and `_=+.-` up to 32 characters.
 */
export function configFileName(deviceName: string): string {
  const slug = deviceName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const base = `palisade-${slug}`.slice(0, 32).replace(/-+$/, '');
  return `${base === 'palisade' ? 'palisade-wireguard' : base}.conf`;
}

/** A QR code of a text (a configuration, a link) as a PNG data URL, for phones to scan; qrcode loads on use. */
export async function qrCodeOf(text: string): Promise<string> {
  const { toDataURL } = await import('qrcode');
  return toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 320 });
}

/** A QR code of the configuration, for the mobile apps to scan. */
export const configQrCode = qrCodeOf;
