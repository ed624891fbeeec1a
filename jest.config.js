/** Jest runs TypeScript through SWC (no type-check here: `pnpm typecheck` does that). */
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swc },
  moduleNameMapper: {
    '^@svc/(errors|ids|config|contract|list-engine|client|http-kit|blocks|volumes)$':
      '<rootDir>/packages/$1/src',
    '^@svc/(core|gateway|launcher|cli|runner|dispatcher)$': '<rootDir>/apps/$1/src',
    '^@svc/tests/(.*)$': '<rootDir>/tests/$1',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};

module.exports = {
  // Whole HTTP flows on a 2-CPU machine that runs several clusters at once. (A global option:
  // Jest ignores testTimeout inside a project's entry.)
  testTimeout: 30_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/packages/*/src/**/*.test.ts', '<rootDir>/apps/*/src/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'http',
      testMatch: ['<rootDir>/tests/**/*.test.ts'],
      globalSetup: '<rootDir>/tests/harness/global-setup.ts',
      globalTeardown: '<rootDir>/tests/harness/global-teardown.ts',
    },
  ],
};
