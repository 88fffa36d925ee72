// SPDX-License-Identifier: AGPL-3.0-or-later
// One jest project per Nx project (apps/* and libs/*), discovered from the directory layout.
// Tests are TypeScript ESM, transformed by swc, run with --experimental-vm-modules (see package.json).
//
// Two tiers. The plain tier (`npm run jest`, this file) runs on any clone: `*.spec.ts` except
// `*.corpus.spec.ts`, and libs/testing refuses to read ../shared from it. The corpus tier (`npm run test:corpus`,
// jest.corpus.config.mjs) runs only `*.corpus.spec.ts`: the tests that read ../shared/corpora or ../shared/models;
// its global setup fails the run, naming the directory, when that data is missing.
import { readdirSync, existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const moduleNameMapper = {
  '^@lectern/([a-z-]+)$': '<rootDir>/../../libs/$1/src/index.ts',
  // narrower entries (tsconfig.base.json): what a fresh process loads without evaluating every contract schema
  '^@lectern/contracts/errors$': '<rootDir>/../../libs/contracts/src/errors.ts',
  '^@lectern/contracts/conversion$': '<rootDir>/../../libs/contracts/src/conversion.schema.ts',
  '^@lectern/runtime/core$': '<rootDir>/../../libs/runtime/src/core.ts',
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

// jest's Node environment, logging each test file's CPU time when LECTERN_TEST_CPU_LOG is set (tools/jest)
const testEnvironment = join(process.cwd(), 'tools', 'jest', 'cpu-environment.mjs');

// jest's runtime, keeping V8's compiled code of the modules a worker loads for its next test files (tools/jest);
// LECTERN_TEST_CODE_CACHE=0: jest's own, to compare (docs/benchmarks/test-suite.md, round 5)
const runtime =
  process.env.LECTERN_TEST_CODE_CACHE === '0'
    ? undefined
    : join(process.cwd(), 'tools', 'jest', 'code-cache-runtime.cjs');

const TIERS = {
  plain: {
    testMatch: ['<rootDir>/**/*.spec.ts'],
    testPathIgnorePatterns: ['/node_modules/', '\\.corpus\\.spec\\.ts$'],
    setupFiles: [join(process.cwd(), 'tools', 'jest', 'plain-tier.setup.mjs')],
  },
  corpus: { testMatch: ['<rootDir>/**/*.corpus.spec.ts'] },
};

/** The jest configuration of one tier ('plain' or 'corpus'). */
export const jestConfig = (tier) => {
  const match = TIERS[tier];
  const projects = ['apps', 'libs'].flatMap((group) =>
    existsSync(group)
      ? readdirSync(group, { withFileTypes: true })
          .filter((d) => d.isDirectory() && existsSync(join(group, d.name, 'project.json')))
          .map((d) => ({
            displayName: `${group}/${d.name}`,
            rootDir: join(process.cwd(), group, d.name),
            testEnvironment,
            runtime,
            ...match,
            extensionsToTreatAsEsm: ['.ts'],
            transform: { '^.+\\.ts$': swc },
            moduleNameMapper,
          }))
      : [],
  );

  // The launcher and other repo tools (tools/*.mjs) have their specs beside them; they import no @lectern lib.
  const toolsProject = {
    displayName: 'tools',
    rootDir: join(process.cwd(), 'tools'),
    testEnvironment,
    runtime,
    ...match,
    extensionsToTreatAsEsm: ['.ts'],
    transform: { '^.+\\.ts$': swc },
  };

  // The benchmarks' shared code (bench/plot) has its specs beside it; bench files run with tsx, not jest.
  const benchProject = {
    displayName: 'bench',
    rootDir: join(process.cwd(), 'bench'),
    testEnvironment,
    runtime,
    ...match,
    extensionsToTreatAsEsm: ['.ts'],
    transform: { '^.+\\.ts$': swc },
    moduleNameMapper,
  };

  return {
    projects: [...projects, toolsProject, benchProject],
    testTimeout: 60_000,
    // Jest's default (cores - 1) is one worker on the 2-core machines CI runs on, while most suites wait on child
    // processes, Redis and sockets: two workers there halve the wall time (measured: 9.5 min against 20), and a third
    // overlaps more of that waiting (the suites that spawn services, kill them and wait for queue locks).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // A worker's heap grows with every test file it runs (~20-25 MB a file: each file's module registry under
    // --experimental-vm-modules is not all given back), and late files in a big-heap worker pay for it in garbage
    // collection (doc-tools.module.spec: 11.0 CPU-s in a worker at 1.4 GB, 2.9 with this). A worker whose heap is
    // over 1 GB after a file is replaced by a fresh one (~0.5 CPU-s): docs/benchmarks/test-suite.md, round 4.
    workerIdleMemoryLimit: '1GB',
    // No forceExit: every suite closes what it opens (servers, Redis connections, worker pools), and a suite
    // that leaks a handle shows up as a hanging run instead of being hidden.
    forceExit: false,
    // each tier's: the services compiled once for the suites that spawn them; the plain tier also generates the
    // test embedding model, the corpus tier checks ../shared
    globalSetup: join(process.cwd(), 'tools', 'jest', `${tier}-tier.global-setup.mjs`),
    // the plain tier's also removes the generated test embedding model (libs/testing test-model-files.mjs)
    ...(tier === 'plain'
      ? { globalTeardown: join(process.cwd(), 'tools', 'jest', 'plain-tier.global-teardown.mjs') }
      : {}),
  };
};

export default jestConfig('plain');
