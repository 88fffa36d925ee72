#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// @nx/enforce-module-boundaries reads Nx's cached project graph and *skips itself with a warning* when
// there is none (fresh clone, CI). Compute the graph first so the rule always runs.
import { spawnSync } from 'node:child_process';

const result = spawnSync('npx', ['nx', 'show', 'projects'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
});
if (result.status !== 0) {
  process.stderr.write('lectern: could not compute the Nx project graph\n');
  process.exit(result.status ?? 1);
}
