import { execFileSync } from 'node:child_process';
import { generateKeyPair, publicKeyOf } from '@palisade/gateway-config/keys';
import { describe, expect, it } from 'vitest';
import { TOOL_ENV } from './exec';
import { needsTest } from './test-kit';

const KEY = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

describe('WireGuard keys (node:crypto x25519)', () => {
  it('makes raw 32-byte base64 keys, clamped like wg genkey, each pair different', () => {
    const a = generateKeyPair();
    const b = generateKeyPair();
    for (const key of [a.privateKey, a.publicKey]) expect(key).toMatch(KEY);
    expect(a.privateKey).not.toBe(b.privateKey);
    const raw = Buffer.from(a.privateKey, 'base64');
    expect(raw[0] & 7).toBe(0);
    expect(raw[31] & 0xc0).toBe(0x40);
    expect(publicKeyOf(a.privateKey)).toBe(a.publicKey);
    expect(() => publicKeyOf('nope')).toThrow();
  });

  it('derives the RFC 7748 test vector', () => {
    // RFC 7748 §6.1: Alice's private key and public key.
    const alice = Buffer.from('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a', 'hex');
    expect(Buffer.from(publicKeyOf(alice.toString('base64')), 'base64').toString('hex')).toBe(
      '8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a',
    );
  });

  needsTest('agrees with wg pubkey', ['wg'], () => {
    for (let i = 0; i < 5; i++) {
      const { privateKey, publicKey } = generateKeyPair();
      const derived = execFileSync('wg', ['pubkey'], {
        input: `${privateKey}\n`,
        env: TOOL_ENV,
        encoding: 'utf8',
      });
      expect(derived.trim()).toBe(publicKey);
    }
    // And a key wg made.
    const made = execFileSync('wg', ['genkey'], { env: TOOL_ENV, encoding: 'utf8' }).trim();
    const derived = execFileSync('wg', ['pubkey'], { input: `${made}\n`, env: TOOL_ENV, encoding: 'utf8' });
    expect(publicKeyOf(made)).toBe(derived.trim());
  });
});
