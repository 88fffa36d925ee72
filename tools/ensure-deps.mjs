#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// Runs `npm ci` when node_modules is missing or older than package-lock.json (npm records every
// install in node_modules/.package-lock.json), so that `npm start` and `npm test` work on a fresh
// clone, and after a pull that changed dependencies, with no other step.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const installed = 'node_modules/.package-lock.json';
const stale = !existsSync(installed) || statSync(installed).mtimeMs < statSync('package-lock.json').mtimeMs;

if (stale) {
  process.stderr.write('lectern: installing dependencies (npm ci)...\n');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    // onnxruntime-node's postinstall would try to download CUDA binaries; CPU inference needs nothing.
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_onnxruntime_node_install: 'skip' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
