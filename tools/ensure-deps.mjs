#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// Runs `npm ci` when node_modules is missing or older than package-lock.json (npm records every
// install in node_modules/.package-lock.json), so that `npm start` and `npm test` work on a fresh
// clone, and after a pull that changed dependencies, with no other step.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, statSync } from 'node:fs';

const installed = 'node_modules/.package-lock.json';
const stale = !existsSync(installed) || statSync(installed).mtimeMs < statSync('package-lock.json').mtimeMs;

// A node_modules that is a symlink is shared with another checkout (a git worktree): `npm ci` here would wipe
// the other checkout's install, so it is left alone and the mismatch only reported.
const shared = existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink();

if (stale && shared) {
  process.stderr.write(
    'lectern: node_modules is a symlink and older than package-lock.json; not reinstalling it here\n',
  );
} else if (stale) {
  process.stderr.write('lectern: installing dependencies (npm ci)...\n');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    // onnxruntime-node's postinstall would try to download CUDA binaries; CPU inference needs nothing.
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_onnxruntime_node_install: 'skip' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
