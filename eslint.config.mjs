// SPDX-License-Identifier: AGPL-3.0-or-later
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';

/**
 * Raw clients live in exactly one adapter lib each; everyone else uses the wrapper.
 * `allowedIn` lists the project roots where the import is legitimate.
 */
const rawClients = [
  { name: 'bullmq', allowedIn: ['libs/queue'], use: '@lectern/queue' },
  {
    name: 'ioredis',
    allowedIn: ['libs/queue', 'libs/policy-registry', 'libs/blob-store', 'libs/task-store'],
    use: '@lectern/queue',
  },
  { name: '@qdrant/js-client-rest', allowedIn: ['libs/vector-store'], use: '@lectern/vector-store' },
  {
    name: 'better-sqlite3',
    allowedIn: ['libs/vector-store', 'libs/sqlite', 'libs/policy-registry', 'libs/task-store'],
    use: '@lectern/vector-store',
  },
  { name: 'sqlite-vec', allowedIn: ['libs/vector-store'], use: '@lectern/vector-store' },
  { name: 'onnxruntime-node', allowedIn: ['libs/embedding'], use: '@lectern/embedding' },
  // (libs/extraction: page-layout.ts reads a PDF page's text lines with their boxes for label ↔ value pairing, a
  // reading libs/conversion does not offer; issue 26, round 10)
  { name: 'mupdf', allowedIn: ['libs/conversion', 'libs/extraction'], use: '@lectern/conversion' },
  { name: 'tesseract.js', allowedIn: ['libs/conversion'], use: '@lectern/conversion' },
];

// ESLint keeps only the last `no-restricted-imports` setting that matches a file, so build one setting
// for everything (all raw clients banned) and one override per adapter root (all but its own banned).
const banFor = (clients) =>
  clients.map(({ name, allowedIn, use }) => ({
    name,
    message: `Import ${use} instead; ${name} is used only inside ${allowedIn.join(', ')}.`,
  }));
const adapterRoots = [...new Set(rawClients.flatMap((c) => c.allowedIn))];
const rawClientBans = [
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: banFor(rawClients) }] },
  },
  ...adapterRoots.map((root) => ({
    files: [`${root}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { paths: banFor(rawClients.filter((c) => !c.allowedIn.includes(root))) }],
    },
  })),
];

/**
 * Layers: contracts < core < adapter < platform (infrastructure: config shared by every service, stores, queues,
 * embedders, the conversion job) < feature (use cases, each lib composing itself from the platform) < app;
 * `testing` helpers sit beside them for tests only.
 */
const LAYERS = ['contracts', 'core', 'adapter', 'platform', 'feature', 'app'];
const below = (layer) => LAYERS.slice(0, LAYERS.indexOf(layer) + 1).map((l) => `layer:${l}`);
const boundaries = (forTests) => {
  const t = forTests ? ['layer:testing'] : [];
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: [
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
      { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
      {
        sourceTag: 'layer:testing',
        onlyDependOnLibsWithTags: ['layer:contracts', 'layer:core', 'layer:adapter', 'layer:testing'],
      },
      // Each layer imports its own and the ones below; the platform never imports a feature lib.
      ...LAYERS.map((layer) => ({ sourceTag: `layer:${layer}`, onlyDependOnLibsWithTags: [...below(layer), ...t] })),
    ],
  };
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      '.nx/**',
      'tmp/**',
      '**/.*.bundle.mjs',
      'apps/cli/.bundle/**',
      'apps/console/.ui/**',
      // the conversion benches' child program compiled (bench/conversion/compiled.ts; git-ignored)
      'bench/conversion/.compiled/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { plugins: { '@nx': nx } },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { ecmaVersion: 2022, sourceType: 'module' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@nx/enforce-module-boundaries': ['error', boundaries(false)],
    },
  },
  {
    // Tests may use the shared test helpers (@lectern/testing) whatever their project's layer.
    files: ['**/*.spec.ts', '**/*.contract.ts', '**/*.testkit.ts', 'bench/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(true)] },
  },
  ...rawClientBans,
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // CommonJS scripts (the `lectern` bin and its command table: no ES module loader at start-up)
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', __filename: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
