import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../test/helper';
import { tenants, users } from '../db/schema';
import { seed } from './seed';

const f = useFixture();

describe('the platform administrator of ADMIN_EMAIL/ADMIN_PASSWORD', () => {
  it('refuses to start with a password the policy refuses, writing nothing', async () => {
    for (const [adminPassword, reason] of [
      ['short', 'it is shorter than 10 characters'],
      ['password1234', 'it is too easy to guess: This is similar to a commonly used password.'],
      ['root-of-all-2026', 'it contains the e-mail address'],
      ['platform-keeper-99', 'it contains the workspace name'],
    ]) {
      await expect(
        seed(f.database, { ...f.config, seedDemo: false, adminEmail: 'root@example.test', adminPassword }),
        adminPassword,
      ).rejects.toThrow(`ADMIN_PASSWORD is refused: ${reason}`);
    }
    expect(await f.database.db.select().from(tenants).where(eq(tenants.name, 'platform'))).toEqual([]);
    expect(await f.database.db.select().from(users).where(eq(users.role, 'platform_admin'))).toEqual([]);
  });

  it('creates the administrator with a strong password, who can sign in', async () => {
    const result = await seed(f.database, {
      ...f.config,
      seedDemo: false,
      adminEmail: 'root@example.test',
      adminPassword: 'dolphin-autumn-marble-41',
    });
    expect(result.lines).toContain('  Platform administrator created: root@example.test');
    expect(await f.signIn('root@example.test', 'dolphin-autumn-marble-41')).toBeTruthy();
  });
});
