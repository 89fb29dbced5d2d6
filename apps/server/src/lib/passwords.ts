import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2 defaults to argon2id. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes). */
export const hashPassword = (password: string) => hash(password, OPTIONS);

/** A hash of nothing in particular, so an unknown user costs as much time as a wrong password. */
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  dummyHash ??= hashPassword('not-a-real-password');
  const target = storedHash ?? (await dummyHash);
  const ok = await verify(target, password).catch(() => false);
  return ok && storedHash !== null;
}
