// SPDX-License-Identifier: AGPL-3.0-or-later
import { runCli } from './cli.js';

// No top-level await: the compiled command line is a CommonJS script (apps/cli/bin/cli-build.mjs).
void runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stderrIsTTY: process.stderr.isTTY === true,
}).then((code) => {
  process.exitCode = code;
});
