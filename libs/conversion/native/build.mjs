#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// Builds the native mupdf addon (see README.md) when Debian's libmupdf-dev is installed; run by the root
// package's `postinstall` (so `npm ci` builds it) and by `npm run build:native`.
// - no libmupdf-dev (`pkg-config --exists mupdf` fails): nothing is built, the install succeeds, and PDF
//   conversion uses mupdf's WASM build;
// - libmupdf-dev present: the addon must build, and a failure fails the install (a machine that has the
//   library but not the rest of the -dev packages should say so, not silently run 3x slower).
//   LECTERN_SKIP_NATIVE_BUILD=1 skips it anyway.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** @param {string} msg */
const say = (msg) => process.stderr.write(`lectern native mupdf: ${msg}\n`);

if (process.env.LECTERN_SKIP_NATIVE_BUILD === '1') {
  say('skipped (LECTERN_SKIP_NATIVE_BUILD=1); PDF conversion uses the WASM engine');
  process.exit(0);
}
const pkg = spawnSync('pkg-config', ['--exists', 'mupdf'], { stdio: 'ignore' });
if (pkg.error || pkg.status !== 0) {
  // a stale build from an earlier install would be loaded against a library that is gone
  rmSync(join(here, 'build'), { recursive: true, force: true });
  say('libmupdf-dev not found (pkg-config mupdf); not built, PDF conversion uses the WASM engine');
  process.exit(0);
}

// node-gyp: the copy npm passes to lifecycle scripts, else the one bundled with npm next to this node
const prefix = resolve(dirname(process.execPath), '..');
const gyp = [
  process.env.npm_config_node_gyp,
  join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
].find((p) => p && existsSync(p));
if (!gyp) {
  say('node-gyp not found (it ships with npm); cannot build');
  process.exit(1);
}
const args = [gyp, 'rebuild', '--loglevel=warn'];
// offline: build against the headers installed with node instead of downloading them
if (!process.env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'node_api.h')))
  args.push(`--nodedir=${prefix}`);

say('building against libmupdf (Debian libmupdf-dev)...');
const r = spawnSync(process.execPath, args, { cwd: here, stdio: ['ignore', 'ignore', 'inherit'] });
if (r.status !== 0) {
  say(
    'build FAILED. It needs, besides libmupdf-dev: pkg-config, a C compiler, make, python3 and ' +
      'libfreetype-dev libharfbuzz-dev libjbig2dec0-dev libopenjp2-7-dev libjpeg-dev libgumbo-dev libmujs-dev zlib1g-dev. ' +
      'Install them, or set LECTERN_SKIP_NATIVE_BUILD=1 to use the WASM engine.',
  );
  process.exit(r.status ?? 1);
}
say(`built ${join(here, 'build', 'Release', 'lectern_mupdf.node')}`);
