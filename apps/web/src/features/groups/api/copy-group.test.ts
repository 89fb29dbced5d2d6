import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { jsonResponse } from '../../../testing/render';
import { copyGroup } from './copy-group';

const SOURCE = '11111111-1111-4111-8111-111111111111';
const NEW = '22222222-2222-4222-8222-222222222222';

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/** A fake API that copies groups (a taken name is refused like the server does) and records every call. */
function stubApi({ memberCount = 3 } = {}) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url);
      const text = await input.clone().text();
      const body = text ? JSON.parse(text) : undefined;
      sent.push({ method: input.method, path: url.pathname, body });
      if (input.method === 'POST' && url.pathname === `/api/groups/acme/${SOURCE}/copy`) {
        if (body.name === 'Sales') {
          return jsonResponse(
            {
              errcode: 5,
              code: 'conflict',
              message: 'A group with this name exists.',
              details: [{ path: 'body.name', message: 'validation.groupNameTaken' }],
            },
            409,
          );
        }
        return jsonResponse(
          {
            id: NEW,
            name: body.name,
            description: body.description ?? '',
            memberCount: body.withMembers ? memberCount : 0,
            createdAt: '2026-03-01T10:00:00.000Z',
            updatedAt: '2026-03-01T10:00:00.000Z',
          },
          201,
        );
      }
      return jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }),
  );
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('copyGroup', () => {
  it('copies the group with its members in one call, leaving the members to the server', async () => {
    const sent = stubApi({ memberCount: 6007 });
    const group = await copyGroup(
      'acme',
      SOURCE,
      { name: 'Copy', description: 'Sells' },
      { withMembers: true },
    );
    expect(group).toMatchObject({ id: NEW, name: 'Copy', memberCount: 6007 });
    expect(sent).toEqual([
      {
        method: 'POST',
        path: `/api/groups/acme/${SOURCE}/copy`,
        body: { name: 'Copy', description: 'Sells', withMembers: true },
      },
    ]);
  });

  it('asks for no members when not asked', async () => {
    const sent = stubApi();
    const group = await copyGroup('acme', SOURCE, { name: 'Copy' }, { withMembers: false });
    expect(group).toMatchObject({ id: NEW, memberCount: 0 });
    expect(sent.map((call) => call.body)).toEqual([{ name: 'Copy', withMembers: false }]);
  });

  it("rejects with the server's field details when the name is taken, so the form can show them", async () => {
    const sent = stubApi();
    const refused = copyGroup('acme', SOURCE, { name: 'Sales' }, { withMembers: true });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      status: 409,
      details: [{ path: 'body.name', message: 'validation.groupNameTaken' }],
    });
    expect(sent).toHaveLength(1);
  });
});
