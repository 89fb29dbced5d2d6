// Import boundaries, checked by `npm run lint:deps` (a step of `npm test`). See docs/adding-an-area.md.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'web-feature-to-feature',
      severity: 'error',
      comment:
        'Web features are islands: compose them in apps/web/src/app/screens, or move the shared piece down to components/ or lib/.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/([^/]+)/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'module-to-other-repository',
      severity: 'error',
      comment:
        "A server module calls another module's service, never its repository (which only its own module uses).",
      from: { path: '^apps/server/src/modules/([^/]+)/' },
      to: {
        path: '^apps/server/src/modules/([^/]+)/[^/]+[.]repository[.]ts$',
        pathNot: '^apps/server/src/modules/$1/',
      },
    },
    {
      name: 'lib-or-plugin-to-module',
      severity: 'error',
      comment:
        'apps/server/src/lib and plugins sit below the modules: they take what they need from app.ts (injected), never import a module.',
      from: { path: '^apps/server/src/(lib|plugins)/' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'sql-in-repositories',
      severity: 'error',
      comment:
        'SQL lives in repositories (*.repository.ts): routes, services and plugins call them, never drizzle or the tables.',
      from: {
        path: '^apps/server/src/(modules|plugins)/',
        pathNot: '[.](repository|tables|test|test-kit)[.]ts$|/test-support[.]ts$',
      },
      to: { path: '^apps/server/src/db/schema[.]ts$|[.]tables[.]ts$|^node_modules/drizzle-orm/' },
    },
    {
      name: 'lib-to-plugin',
      severity: 'error',
      comment: 'apps/server/src/lib is the bottom layer: plugins use it, never the other way round.',
      from: { path: '^apps/server/src/lib/' },
      to: { path: '^apps/server/src/plugins/' },
    },
    {
      name: 'policy-modules-apart',
      severity: 'error',
      comment:
        'policies and policy-objects never import each other: both call modules/policy-core (the engine input, the change guard, the caches).',
      from: { path: '^apps/server/src/modules/(policies|policy-objects)/' },
      to: {
        path: '^apps/server/src/modules/(policies|policy-objects)/',
        pathNot: '^apps/server/src/modules/$1/',
      },
    },
    {
      name: 'engine-source-for-policy-core',
      severity: 'error',
      comment:
        "A module's *.engine-source.ts is what policy-core reads of its state: only its own module and policy-core import it.",
      from: {
        path: '^apps/server/src/modules/([^/]+)/',
        pathNot: '^apps/server/src/modules/policy-core/',
      },
      to: {
        path: '^apps/server/src/modules/[^/]+/[^/]+[.]engine-source[.]ts$',
        pathNot: '^apps/server/src/modules/$1/',
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order matter and layers meaningless.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Packages are leaves of the graph (rules may name them); built output is not source.
    exclude: { path: '(^|/)dist/' },
    // Type-only imports are edges too: a type from another feature couples it just the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
