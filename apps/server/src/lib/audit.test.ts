import { describe, expect, it } from 'vitest';
import { redact } from './audit';

describe('redact', () => {
  it('hides whatever a secret-looking key holds, but keeps counts and flags readable', () => {
    expect(
      redact({
        name: 'CI',
        secret: 'pal_abc',
        passwordHash: '$argon2id$…',
        tokens: ['pal_a', 'pal_b'],
        apiKey: { value: 'k' },
        revokedTokens: 2,
        isTotpEnabled: true,
        otpSecret: null,
        nested: [{ token: 'x', count: 1 }],
      }),
    ).toEqual({
      name: 'CI',
      secret: '[redacted]',
      passwordHash: '[redacted]',
      tokens: '[redacted]',
      apiKey: '[redacted]',
      revokedTokens: 2,
      isTotpEnabled: true,
      otpSecret: null,
      nested: [{ token: '[redacted]', count: 1 }],
    });
  });
});
