#!/usr/bin/env node
// Runs `npm ci` when node_modules is missing or older than package-lock.json, so that
// `npm start` and `npm test` work on a fresh clone with no other step.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

const stamp = 'node_modules/.lectern-lock-hash';
const lockHash = createHash('sha256').update(readFileSync('package-lock.json')).digest('hex');
const current = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';

if (!existsSync('node_modules') || current !== lockHash) {
  process.stderr.write('lectern: installing dependencies (npm ci)...\n');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    // onnxruntime-node's postinstall would try to download CUDA binaries; CPU inference needs nothing.
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_onnxruntime_node_install: 'skip' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, `${lockHash}\n`);
}
