import { groupEndpoints } from '@palisade/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { copyGroup } from './copy-group';

const SOURCE = '11111111-1111-4111-8111-111111111111';
const NEW = '22222222-2222-4222-8222-222222222222';

/** A fake API that copies groups (a taken name is refused like the server does). */
function fakeCopyApi({ memberCount = 3 } = {}) {
  return fakeApi().on(groupEndpoints.copyGroup, ({ params, body }) => {
    if (params.id !== SOURCE) return apiError('not_found');
    if (body.name === 'Sales') {
      return apiError('conflict', {
        message: 'A group with this name exists.',
        details: [{ path: 'body.name', message: 'validation.groupNameTaken' }],
      });
    }
    return {
      id: NEW,
      name: body.name,
      description: body.description ?? '',
      memberCount: body.withMembers ? memberCount : 0,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
    };
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('copyGroup', () => {
  it('copies the group with its members in one call, leaving the members to the server', async () => {
    const api = fakeCopyApi({ memberCount: 6007 });
    const group = await copyGroup(
      'acme',
      SOURCE,
      { name: 'Copy', description: 'Sells' },
      { withMembers: true },
    );
    expect(group).toMatchObject({ id: NEW, name: 'Copy', memberCount: 6007 });
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({
      method: 'POST',
      endpoint: groupEndpoints.copyGroup,
      params: { tenant: 'acme', id: SOURCE },
    });
    expect(api.calls(groupEndpoints.copyGroup)[0].sentBody).toEqual({
      name: 'Copy',
      description: 'Sells',
      withMembers: true,
    });
  });

  it('asks for no members when not asked', async () => {
    const api = fakeCopyApi();
    const group = await copyGroup('acme', SOURCE, { name: 'Copy' }, { withMembers: false });
    expect(group).toMatchObject({ id: NEW, memberCount: 0 });
    expect(api.requests).toHaveLength(1);
    expect(api.calls(groupEndpoints.copyGroup).map((call) => call.sentBody)).toEqual([
      { name: 'Copy', withMembers: false },
    ]);
  });

  it("rejects with the server's field details when the name is taken, so the form can show them", async () => {
    const api = fakeCopyApi();
    const refused = copyGroup('acme', SOURCE, { name: 'Sales' }, { withMembers: true });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      status: 409,
      details: [{ path: 'body.name', message: 'validation.groupNameTaken' }],
    });
    expect(api.requests).toHaveLength(1);
    expect(api.calls(groupEndpoints.copyGroup)[0].status).toBe(409);
  });
});
