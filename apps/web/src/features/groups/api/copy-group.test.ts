import { MAX_PAGE_SIZE } from '@palisade/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../testing/render';
import { copyGroup } from './copy-group';

const SOURCE = '11111111-1111-4111-8111-111111111111';
const NEW = '22222222-2222-4222-8222-222222222222';
const memberId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function stubApi(memberTotal: number, { failAdd = false } = {}) {
  const adds: string[][] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url);
      if (input.method === 'POST' && url.pathname === '/api/groups/acme') {
        const body = await input.json();
        return jsonResponse(
          { id: NEW, memberCount: 0, createdAt: '', updatedAt: '', description: '', ...body },
          201,
        );
      }
      if (input.method === 'GET' && url.pathname === `/api/groups/acme/${SOURCE}/members`) {
        const offset = Number(url.searchParams.get('offset'));
        const limit = Number(url.searchParams.get('limit'));
        const ids = Array.from({ length: Math.max(0, Math.min(limit, memberTotal - offset)) }, (_, i) =>
          memberId(offset + i),
        );
        return jsonResponse({
          items: ids.map((id) => ({ id, username: id, fullname: id, connstatus: 'never' })),
          total: memberTotal,
        });
      }
      if (input.method === 'POST' && url.pathname === `/api/groups/acme/${NEW}/members`) {
        if (failAdd) return jsonResponse({ errcode: 3, code: 'forbidden', message: 'No.' }, 403);
        const { userIds } = (await input.json()) as { userIds: string[] };
        adds.push(userIds);
        return jsonResponse({ added: userIds.length });
      }
      return jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }),
  );
  return adds;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('copyGroup', () => {
  it('creates the group, then adds every member of the source, page by page and in chunks', async () => {
    const total = MAX_PAGE_SIZE * 6 + 7;
    const adds = stubApi(total);
    const result = await copyGroup('acme', SOURCE, { name: 'Copy', description: '' }, { withMembers: true });
    expect(result.membersError).toBeNull();
    expect(result.group).toMatchObject({ id: NEW, name: 'Copy', memberCount: total });
    expect(adds.map((chunk) => chunk.length)).toEqual([1000, total - 1000]);
    expect(new Set(adds.flat()).size).toBe(total);
  });

  it('leaves the members out when not asked', async () => {
    const adds = stubApi(3);
    const result = await copyGroup('acme', SOURCE, { name: 'Copy' }, { withMembers: false });
    expect(result.group.id).toBe(NEW);
    expect(adds).toEqual([]);
  });

  it('reports a failure to add members without losing the created group', async () => {
    stubApi(2, { failAdd: true });
    const result = await copyGroup('acme', SOURCE, { name: 'Copy' }, { withMembers: true });
    expect(result.group.id).toBe(NEW);
    expect(result.membersError).toBeTruthy();
  });
});
