import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';

/**
 * WireGuard keys, made where they are used (the reference gateway, the demo seed, tests) with node:crypto's
 * X25519: raw 32-byte keys in base64, as `wg genkey` and `wg pubkey` print them. A gateway's or device's private
 * key never leaves it: the server learns only the public key. (apps/gateway/src/keys.test.ts checks them
 * against `wg pubkey`.)
 */

/** The DER prefix of a PKCS#8 X25519 private key; the 32 raw bytes follow. */
const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const KEY = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

export interface KeyPair {
  privateKey: string;
  publicKey: string;
}

/** Clamps a Curve25519 scalar as `wg genkey` does (the curve clamps anyway; this keeps the stored key canonical). */
function clamp(raw: Buffer): Buffer {
  const key = Buffer.from(raw);
  key[0] &= 248;
  key[31] = (key[31] & 127) | 64;
  return key;
}

/** The public key of a base64 private key (what `wg pubkey` prints for it). */
export function publicKeyOf(privateKey: string): string {
  const raw = Buffer.from(privateKey, 'base64');
  if (!KEY.test(privateKey) || raw.length !== 32) throw new Error('not a WireGuard private key');
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_X25519, raw]), format: 'der', type: 'pkcs8' });
  const der = createPublicKey(key).export({ type: 'spki', format: 'der' });
  return der.subarray(der.length - 32).toString('base64');
}

/** A new key pair, like `wg genkey | tee private | wg pubkey`. */
export function generateKeyPair(): KeyPair {
  const privateKey = clamp(randomBytes(32)).toString('base64');
  return { privateKey, publicKey: publicKeyOf(privateKey) };
}
