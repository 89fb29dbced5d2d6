import { describe, expect, it } from 'vitest';
import { referencedIds } from './audit-values';

const GROUP = '77f104bd-5f83-4a02-9022-3c6fadcf6009';
const USER = 'c1356351-4ffe-4e2a-9a4d-e4fe6e970637';

describe('referencedIds', () => {
  it('asks to look up only what an event refers to by id', () => {
    // Newer events name groups and users when they are written: nothing to look up.
    expect(referencedIds([null, { username: 'a@acme.example', groups: ['Sales'] }])).toEqual({
      kinds: new Set(),
      userIds: [],
    });
    // Older ones carry the groups' ids.
    expect(referencedIds([{ groups: [GROUP] }, { groups: [] }]).kinds).toEqual(new Set(['group']));
    // A rule's applications, categories and feeds (shipped ones have readable ids, custom ones uuids).
    const rule = { name: 'r', type: 'app', url: 'zoom', categories: ['gambling'], feeds: [] };
    expect(referencedIds([null, { rules: [rule] }]).kinds).toEqual(new Set(['app', 'category']));
    // A policy test's user, by id; an id next to the username it stands for is not looked up.
    expect(referencedIds([null, { request: { userId: USER, destination: 'x.example' } }])).toEqual({
      kinds: new Set(['user']),
      userIds: [USER],
    });
    expect(referencedIds([{ userId: USER, username: 'a@acme.example' }]).kinds).toEqual(new Set());
  });
});
