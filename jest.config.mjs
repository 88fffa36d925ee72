// One jest project per Nx project (apps/* and libs/*), discovered from the directory layout.
// Tests are TypeScript ESM, transformed by swc, run with --experimental-vm-modules (see package.json).
import { readdirSync, existsSync } from 'node:fs';
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
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

const projects = ['apps', 'libs'].flatMap((group) =>
  existsSync(group)
    ? readdirSync(group, { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(join(group, d.name, 'project.json')))
        .map((d) => ({
          displayName: `${group}/${d.name}`,
          rootDir: join(process.cwd(), group, d.name),
          testEnvironment: 'node',
          testMatch: ['<rootDir>/**/*.spec.ts'],
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
  testEnvironment: 'node',
  testMatch: ['<rootDir>/**/*.spec.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
};

export default {
  projects: [...projects, toolsProject],
  testTimeout: 60_000,
  // No forceExit: every suite closes what it opens (servers, Redis connections, worker pools), and a suite
  // that leaks a handle shows up as a hanging run instead of being hidden.
  forceExit: false,
};
