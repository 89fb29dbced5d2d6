import { describe, expect, it } from 'vitest';
import { controlCharacterPaths, nulBytePaths } from './nul-bytes';

describe('nulBytePaths', () => {
  it('finds nothing in clean values of any shape', () => {
    expect(nulBytePaths({ name: 'acme', tags: ['a', 'b'], n: 1, ok: true, none: null }, 'body')).toEqual([]);
    expect(nulBytePaths('plain', 'body')).toEqual([]);
    expect(nulBytePaths(undefined, 'query')).toEqual([]);
  });

  it('names every string and key holding a NUL, in document order, with the details path form', () => {
    const body = {
      name: 'Ac\u0000me',
      members: [{ email: 'ok@acme.test' }, { email: 'x\u0000@acme.test' }],
      'k\u0000ey': 1,
      deep: { list: [['\u0000']] },
    };
    expect(nulBytePaths(body, 'body')).toEqual([
      'body.name',
      'body.members.1.email',
      'body.k\\u0000ey',
      'body.deep.list.0.0',
    ]);
  });

  it('reports a bare string as its root and a key whose value also has a NUL once', () => {
    expect(nulBytePaths('a\u0000', 'body')).toEqual(['body']);
    expect(nulBytePaths({ 'a\u0000': 'b\u0000' }, 'query')).toEqual(['query.a\\u0000']);
  });

  it('looks into null-prototype objects (query strings, path parameters) but not into binary data', () => {
    class Params {
      tenant = 'ac\u0000me';
    }
    const query = Object.assign(Object.create(null), { q: 'a\u0000' });
    expect(nulBytePaths(query, 'query')).toEqual(['query.q']);
    expect(nulBytePaths(new Params(), 'params')).toEqual(['params.tenant']);
    expect(nulBytePaths({ file: Buffer.from('a\u0000b') }, 'body')).toEqual([]);
  });

  it('walks very deep values without overflowing the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(nulBytePaths(deep, 'body')).toHaveLength(1);
  });
});

describe('controlCharacterPaths', () => {
  it('names strings and keys holding a C0 control character other than NUL, and nothing else', () => {
    const value = {
      host: 'bell\u0007.example',
      detail: 'tab\there',
      fine: 'plain ü €',
      nul: 'a\u0000',
      'k\u001fey': 1,
    };
    expect(controlCharacterPaths(value, 'body.1')).toEqual([
      'body.1.host',
      'body.1.detail',
      'body.1.k\u001fey',
    ]);
    expect(controlCharacterPaths({ list: ['ok', 'line\nbreak'] }, 'body')).toEqual(['body.list.1']);
  });
});
