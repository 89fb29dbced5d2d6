// Builds the server once into dist/, so that `npm start` runs JavaScript: src/server.ts and the workspace
// packages it uses (contracts and policy-engine are exported as TypeScript source) are bundled into
// dist/server.js; every other package stays in node_modules, where Node loads it (native modules, WASM and data
// files are found next to their own code). The SQL migrations, read at start-up, are copied beside the bundle.
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = import.meta.dirname;
const dist = join(root, 'dist');

/** Bundles the workspace's own TypeScript; a bare import of anything else is left to Node at run time. */
const externalPackages = {
  name: 'external-packages',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@palisade/') ? undefined : { path: args.path, external: true },
    );
  },
};

const result = await build({
  entryPoints: [join(root, 'src/server.ts')],
  outfile: join(dist, 'server.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // `node --enable-source-maps` (npm start) then names the TypeScript lines in stack traces.
  sourcemap: 'linked',
  plugins: [externalPackages],
  logLevel: 'warning',
  // Written below, each file whole: a server starting from dist/ meanwhile never reads half a file.
  write: false,
});

await mkdir(dist, { recursive: true });
for (const file of result.outputFiles) {
  const temporary = `${file.path}.${process.pid}.tmp`;
  await mkdir(dirname(file.path), { recursive: true });
  await writeFile(temporary, file.contents);
  await rename(temporary, file.path);
}
// db/migrate.ts reads `<its directory>/migrations`: in the bundle that is dist/migrations.
const migrations = join(dist, 'migrations');
const staged = `${migrations}.${process.pid}.tmp`;
await cp(join(root, 'src/db/migrations'), staged, { recursive: true });
await rm(migrations, { recursive: true, force: true });
await rename(staged, migrations);
