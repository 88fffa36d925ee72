import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';

/**
 * Raw clients live in exactly one adapter lib each; everyone else uses the wrapper.
 * `allowedIn` lists the project roots where the import is legitimate.
 */
const rawClients = [
  { name: 'bullmq', allowedIn: ['libs/queue'], use: '@lectern/queue' },
  { name: 'ioredis', allowedIn: ['libs/queue', 'libs/policy-registry'], use: '@lectern/queue' },
  { name: '@qdrant/js-client-rest', allowedIn: ['libs/vector-store'], use: '@lectern/vector-store' },
  { name: 'better-sqlite3', allowedIn: ['libs/vector-store', 'libs/sqlite', 'libs/policy-registry', 'libs/task-store'], use: '@lectern/vector-store' },
  { name: 'sqlite-vec', allowedIn: ['libs/vector-store'], use: '@lectern/vector-store' },
  { name: 'onnxruntime-node', allowedIn: ['libs/embedding'], use: '@lectern/embedding' },
  { name: 'mupdf', allowedIn: ['libs/conversion'], use: '@lectern/conversion' },
  { name: 'tesseract.js', allowedIn: ['libs/conversion'], use: '@lectern/conversion' },
];

const rawClientBans = rawClients.map(({ name, allowedIn, use }) => ({
  files: ['apps/**/*.ts', 'libs/**/*.ts'],
  ignores: allowedIn.map((root) => `${root}/**`),
  rules: {
    'no-restricted-imports': [
      'error',
      { paths: [{ name, message: `Import ${use} instead; ${name} is used only inside ${allowedIn.join(', ')}.` }] },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', '.nx/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { plugins: { '@nx': nx } },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { ecmaVersion: 2022, sourceType: 'module' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'layer:contracts', onlyDependOnLibsWithTags: ['layer:contracts'] },
            { sourceTag: 'layer:core', onlyDependOnLibsWithTags: ['layer:contracts', 'layer:core'] },
            { sourceTag: 'layer:adapter', onlyDependOnLibsWithTags: ['layer:contracts', 'layer:core', 'layer:adapter'] },
            { sourceTag: 'layer:testing', onlyDependOnLibsWithTags: ['layer:contracts', 'layer:core', 'layer:adapter', 'layer:testing'] },
          ],
        },
      ],
    },
  },
  ...rawClientBans,
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
