import { describe, expect, it } from 'vitest';
import { addPlatformAdmin, useFixture } from '../../../test/helper';
import { caller } from './reports.test-kit';

const f = useFixture({ devOutbox: true });
const call = (...args: Parameters<ReturnType<typeof caller>>) => caller(f.app)(...args);

describe('a mailed report in the dev outbox', () => {
  it('lists the PDF it carries, by name, type and size', async () => {
    const owner = await f.signIn('admin@acme.test');
    const created = await call('POST', '/reports/acme/schedules', owner, {
      kind: 'security-compliance',
      weekday: 3,
      hour: 7,
      timezone: 'UTC',
      // A member (an active administrator of acme): mailed without confirming a link.
      recipients: ['auditor@acme.test'],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await call('POST', `/reports/acme/schedules/${created.json().id}/send`, owner)).statusCode).toBe(
      200,
    );

    await addPlatformAdmin(f.database);
    const root = await f.signIn('root@platform.test');
    const outbox = await call('GET', '/dev/outbox?to=auditor@acme.test', root);
    expect(outbox.statusCode, outbox.body).toBe(200);
    const [mail] = outbox.json();
    expect(mail.subject).toBe('Security compliance – ACME');
    expect(mail.attachments).toEqual([
      {
        filename: expect.stringMatching(/^security-compliance-acme-\d{4}-\d{2}-\d{2}\.pdf$/),
        contentType: 'application/pdf',
        size: expect.any(Number),
      },
    ]);
    expect(mail.attachments[0].size).toBeGreaterThan(1000);
    // Mail without files lists none.
    const invited = await call('POST', '/admins/acme/invite', owner, {
      email: 'new-admin@acme.test',
      firstname: 'New',
      lastname: 'Admin',
      role: 'auditor',
      customRoleId: null,
    });
    expect(invited.statusCode).toBe(201);
    const [invitation] = (await call('GET', '/dev/outbox?to=new-admin@acme.test', root)).json();
    expect(invitation.attachments).toEqual([]);
  });
});
