// Builds every TypeScript worker entry's esbuild bundle (`.<name>.bundle.mjs` beside it; libs/runtime/src/worker-bundle.ts)
// ahead of time. The image runs it at build time: at run time its source tree is read-only to the non-root user, so
// a bundle could not be written there and every worker thread would compile through tsx instead (slower, more memory).
//   node --import tsx tools/build-worker-bundles.ts
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { workerBundle } from '../libs/runtime/src/worker-bundle.js';

const root = join(import.meta.dirname, '..');
/** Worker entries the services start (test-only workers — test-model/, *-echo — are left out). */
const entries = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' || d.name === 'test-model' ? [] : entries(path);
    return d.name.endsWith('.worker.ts') && !d.name.includes('-echo.') ? [path] : [];
  });

const found = entries(join(root, 'libs'));
let failed = 0;
for (const entry of found) {
  const bundle = workerBundle(entry);
  process.stdout.write(`${bundle ? 'built' : 'FAILED'} ${relative(root, bundle ?? entry)}\n`);
  if (!bundle) failed += 1;
}
if (found.length === 0 || failed > 0) process.exit(1);
