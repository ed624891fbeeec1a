/** Layering rules (docs/ARCHITECTURE.md), checked in CI by `pnpm check:cycles`. */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'packages-never-import-apps',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'pure-packages-have-no-io',
      comment:
        'contract, list-engine, ids, blocks and errors are pure: no database, network or HTTP framework',
      severity: 'error',
      from: { path: '^packages/(contract|list-engine|ids|errors|blocks)/' },
      to: {
        path: [
          'node_modules/(pg|@electric-sql|express|undici|http-proxy-middleware|@prisma)/',
          '^(fs|net|http|https)$',
        ],
        dependencyTypes: ['npm', 'core'],
      },
    },
    {
      name: 'resources-stay-in-their-folder',
      comment:
        'resources/<a> never imports resources/<b>; shared needs go through common/ or permissions/',
      severity: 'error',
      from: {
        path: '^apps/core/src/resources/([^/]+)/',
        pathNot: '^apps/core/src/resources/(common|index)',
      },
      to: {
        path: '^apps/core/src/resources/([^/]+)/',
        pathNot: ['^apps/core/src/resources/$1/', '^apps/core/src/resources/common/'],
      },
    },
    {
      name: 'only-http-knows-express-in-the-core',
      severity: 'error',
      from: { path: '^apps/core/src/', pathNot: '^apps/core/src/(http/|app\\.ts)' },
      to: { path: 'node_modules/express/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['dist/', 'apps/core/src/generated/', '\\.test\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.typecheck.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
