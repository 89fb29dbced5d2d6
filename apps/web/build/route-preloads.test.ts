import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCREENS } from '../src/app/routes';
import { missingFiles, routePreloadsOf, screenImports } from './route-preloads';

const ROUTES_FILE = join(__dirname, '../src/app/routes.ts');

describe('screenImports', () => {
  it('finds every route of the screen table with the module its loader imports', () => {
    const screens = screenImports(readFileSync(ROUTES_FILE, 'utf8'));
    expect([...screens.keys()].sort()).toEqual(Object.keys(SCREENS).sort());
    expect(screens.get('/sign-in')).toEqual(['../features/auth/screens/sign-in']);
    for (const [route, modules] of screens) expect(modules.length, route).toBeGreaterThan(0);
  });
});

describe('routePreloadsOf', () => {
  const chunk = (fileName: string, facadeModuleId: string | null, imports: string[], extra = {}) => ({
    type: 'chunk',
    fileName,
    facadeModuleId,
    imports,
    isEntry: false,
    ...extra,
  });

  it('lists a screen’s chunk, what it imports and its CSS, leaving out what index.html loads anyway', () => {
    const root = join(__dirname, '..');
    const bundle = {
      'assets/index.js': chunk('assets/index.js', join(root, 'index.html'), ['assets/react.js'], {
        isEntry: true,
      }),
      'assets/react.js': chunk('assets/react.js', null, []),
      'assets/sign-in.js': chunk(
        'assets/sign-in.js',
        join(root, 'src/features/auth/screens/sign-in.tsx'),
        ['assets/react.js', 'assets/Input.js'],
        { viteMetadata: { importedCss: new Set(['assets/sign-in.css']) } },
      ),
      'assets/Input.js': chunk('assets/Input.js', null, []),
      'assets/app-shell.js': chunk('assets/app-shell.js', join(root, 'src/app/shell/app-shell.tsx'), [
        'assets/Input.js',
      ]),
    };
    const table = routePreloadsOf(bundle, ROUTES_FILE, join(root, 'src/app/shell/app-shell'));
    expect(table.routes['/sign-in']).toEqual(['assets/sign-in.js', 'assets/sign-in.css', 'assets/Input.js']);
    expect(table.shell).toEqual(['assets/app-shell.js', 'assets/Input.js']);
    // A screen the bundle does not hold (here every other one) has nothing to preload.
    expect(table.routes['/users/list']).toEqual([]);
  });
});

describe('missingFiles', () => {
  it('names each file of the table the output directory does not hold', () => {
    const dir = mkdtempSync(join(tmpdir(), 'preloads-'));
    try {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'assets/a.js'), '');
      writeFileSync(join(dir, 'assets/a.css'), '');
      const table = {
        shell: ['assets/a.js'],
        routes: { '/x': ['assets/a.css', 'assets/styles-1.js'], '/y': [] },
      };
      expect(missingFiles(table, dir)).toEqual(['assets/styles-1.js']);
      expect(missingFiles({ shell: ['assets/a.js'], routes: {} }, dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
