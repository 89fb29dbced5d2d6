import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addAccountWithoutPassword, PASSWORD, useFixture } from '../../../test/helper';

// Counts every argon2 verification the server runs, whatever it verifies.
const verified = vi.hoisted(() => ({ count: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...argon2,
    verify: (...args: Parameters<typeof argon2.verify>) => {
      verified.count += 1;
      return argon2.verify(...args);
    },
  };
});

const f = useFixture();
beforeAll(() => addAccountWithoutPassword(f));
const signIn = (username: string, password: string) =>
  f.app.inject({ method: 'POST', url: '/api/session', payload: { username, password } });

describe('sign-in timing', () => {
  beforeEach(() => {
    verified.count = 0;
  });

  it('runs argon2 once for an unknown address, an account without a password, and a wrong or right password', async () => {
    for (const [username, password, status] of [
      ['ghost@nowhere.test', 'not-the-password', 401],
      ['nopassword@acme.test', 'not-the-password', 401],
      ['admin@acme.test', 'not-the-password', 401],
      ['admin@acme.test', PASSWORD, 200],
    ] as const) {
      verified.count = 0;
      expect((await signIn(username, password)).statusCode, username).toBe(status);
      expect(verified.count, `${username} / ${password}`).toBe(1);
    }
  });

  it('does the same work for an unknown address as for an account, attempt after attempt', async () => {
    const trace = async (username: string) => {
      const steps: string[] = [];
      for (let i = 0; i < 7; i++) {
        verified.count = 0;
        const res = await f.app.inject({
          method: 'POST',
          url: '/api/session',
          remoteAddress: '203.0.113.50',
          payload: { username, password: `wrong-${i}` },
        });
        steps.push(`${res.statusCode}:${verified.count}`);
      }
      return steps;
    };
    const account = await trace('helpdesk@acme.test');
    expect(account).toEqual(['401:1', '401:1', '401:1', '401:1', '423:1', '423:0', '423:0']);
    expect(await trace('nobody-here@acme.test')).toEqual(account);
  });
});
