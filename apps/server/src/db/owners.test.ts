import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_ACCESS, TABLE_OWNERS } from './owners';

/**
 * Holds the code to the table owners of owners.ts: reads every server file that may touch the database (modules,
 * lib, plugins, db) and finds the tables each uses — drizzle table mirrors it imports, `.insert/.update/.delete`
 * on them, and the tables named in its raw `sql` templates. The seed and the tests set up data directly and are
 * not read.
 */
const SRC = join(import.meta.dirname, '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Where a file belongs: its module folder, or itself for lib, plugins and db files. */
function unitOf(file: string): string {
  const [top, name] = relative(SRC, file).split('/');
  return top === 'modules' ? `modules/${name}` : `${top}/${name.replace(/\.ts$/, '')}`;
}

const isDefinition = (file: string) => /(^|\/)(schema|owners)\.ts$|\.tables\.ts$/.test(file);
const isTestCode = (file: string) => /\.test\.ts$|\.test-kit\.ts$|test-support\.ts$/.test(file);

/** The tables the migrations leave: each one created, less those a later migration dropped. */
const TABLES = new Set<string>(['schema_migrations']);
for (const file of readdirSync(join(SRC, 'db/migrations')).sort()) {
  const text = readFileSync(join(SRC, 'db/migrations', file), 'utf8');
  for (const m of text.matchAll(/(create|drop) table (?:if (?:not )?exists )?([a-z_]+)/gi)) {
    if (m[1].toLowerCase() === 'create') TABLES.add(m[2].toLowerCase());
    else TABLES.delete(m[2].toLowerCase());
  }
}

const FILES = ['modules', 'lib', 'plugins', 'db']
  .flatMap((dir) => filesUnder(join(SRC, dir)))
  .filter((file) => !file.includes('/migrations/'));

/** The drizzle mirror of each table: `export const users = pgTable('users', …)`. */
const MIRRORS = new Map(
  FILES.filter(isDefinition).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/export const (\w+) = pgTable\('([a-z_]+)'/g)].map(
      (m) => [m[1], m[2]] as const,
    ),
  ),
);

/** The text of every `sql` template of a source file (nested templates included in their parent's text). */
function sqlTemplates(source: string): string[] {
  const found: string[] = [];
  let at = source.indexOf('sql`');
  while (at !== -1) {
    let i = at + 4;
    let depth = 0;
    while (i < source.length) {
      if (source[i] === '\\') i += 1;
      else if (source.startsWith('${', i)) {
        depth += 1;
        i += 1;
      } else if (source[i] === '}' && depth > 0) depth -= 1;
      else if (source[i] === '`' && depth === 0) break;
      i += 1;
    }
    found.push(source.slice(at + 4, i));
    at = source.indexOf('sql`', i + 1);
  }
  return found;
}

type Access = 'read' | 'write';

/** The tables a source file reads and writes. */
function accessesOf(source: string): Map<string, Access> {
  const uses = new Map<string, Access>();
  const use = (table: string, access: Access) => {
    if (!TABLES.has(table)) return;
    if (uses.get(table) !== 'write') uses.set(table, access);
  };
  const imported = new Map<string, string>();
  for (const m of source.matchAll(/import (?:type )?\{([^}]*)\} from '[^']*(?:db\/schema|\.tables)'/g)) {
    for (const name of m[1].split(',').map((part) => part.trim().replace(/^type /, ''))) {
      const [exported, local = exported] = name.split(/\s+as\s+/);
      const table = MIRRORS.get(exported);
      if (table) {
        imported.set(local, table);
        use(table, 'read');
      }
    }
  }
  for (const m of source.matchAll(/\.(?:insert|update|delete)\((\w+)\)/g)) {
    const table = imported.get(m[1]);
    if (table) use(table, 'write');
  }
  for (const text of sqlTemplates(source)) {
    for (const m of text.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+([a-z_]+)/gi)) {
      use(m[1].toLowerCase(), 'write');
    }
    for (const m of text.matchAll(/\b(?:from|join)\s+([a-z_]+)/gi)) use(m[1].toLowerCase(), 'read');
  }
  return uses;
}

/** Every access of a table by code other than its owner, per unit: `unit table access`. */
function foreignAccesses(): Map<string, { by: string; table: string; access: Access; files: string[] }> {
  const out = new Map<string, { by: string; table: string; access: Access; files: string[] }>();
  for (const file of FILES) {
    if (isDefinition(file) || isTestCode(file)) continue;
    const by = unitOf(file);
    for (const [table, access] of accessesOf(readFileSync(file, 'utf8'))) {
      if (TABLE_OWNERS[table] === by) continue;
      const key = `${by} ${table}`;
      const entry = out.get(key) ?? { by, table, access, files: [] };
      if (access === 'write') entry.access = 'write';
      entry.files.push(relative(SRC, file));
      out.set(key, entry);
    }
  }
  return out;
}

describe('table owners', () => {
  it('names one owner for every table the migrations create, and only real owners', () => {
    expect([...TABLES].filter((table) => !TABLE_OWNERS[table])).toEqual([]);
    expect(Object.keys(TABLE_OWNERS).filter((table) => !TABLES.has(table))).toEqual([]);
    const missing = [...new Set(Object.values(TABLE_OWNERS))].filter(
      (owner) => !existsSync(join(SRC, owner)) && !existsSync(join(SRC, `${owner}.ts`)),
    );
    expect(missing).toEqual([]);
  });

  it('finds the accesses it checks (reads, drizzle writes, raw SQL writes)', () => {
    const source = [
      "import { users, groups as g } from '../../db/schema';",
      'await tx.update(users).set({});',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to scan, not a template
      'await queryRows(tx, sql`insert into api_tokens (id) select id from sessions join ${g} on true`);',
    ].join('\n');
    expect(Object.fromEntries(accessesOf(source))).toEqual({
      users: 'write',
      groups: 'read',
      api_tokens: 'write',
      sessions: 'read',
    });
  });

  it('lets only the owner write a table, and other modules read it only where SHARED_ACCESS says why', () => {
    const found = foreignAccesses();
    const undeclared = [...found.values()]
      .filter(({ by, table, access }) => {
        const declared = SHARED_ACCESS.find((entry) => entry.by === by && entry.table === table);
        return !declared || (access === 'write' && declared.access === 'read');
      })
      .map(({ by, table, access, files }) => `${by} ${access}s ${table} (${files.join(', ')})`);
    expect(undeclared).toEqual([]);
  });

  it('lists in SHARED_ACCESS only what still happens, so the list shrinks as code moves to the owners', () => {
    const found = foreignAccesses();
    const stale = SHARED_ACCESS.filter(
      ({ by, table, access }) => found.get(`${by} ${table}`)?.access !== access || TABLE_OWNERS[table] === by,
    ).map(({ by, table, access }) => `${by} ${access} ${table}`);
    expect(stale).toEqual([]);
  });
});
