#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// The package's npm-shrinkwrap.json (issue 27), written by `prepack` and removed by `postpack`: the repository's
// package-lock.json without the development-only entries and the command line's workspace, so that `npm install -g`
// of the tarball installs exactly the dependency tree the repository is tested with (and can do so offline from the
// npm cache), rather than resolving every transitive range afresh. npm reads a shrinkwrap inside a package; a
// package-lock is never packed.
//   node tools/shrinkwrap.mjs          write it
//   node tools/shrinkwrap.mjs --remove remove it
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './build-state.mjs';

const target = join(ROOT, 'npm-shrinkwrap.json');
if (process.argv.includes('--remove')) rmSync(target, { force: true });
else {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const packages = {};
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '') {
      const root = { ...entry };
      delete root.workspaces;
      delete root.devDependencies;
      packages[path] = root;
    } else if (!entry.dev && !entry.link && !path.startsWith('apps/')) packages[path] = entry;
  }
  writeFileSync(target, `${JSON.stringify({ ...lock, packages }, null, 2)}\n`);
}
