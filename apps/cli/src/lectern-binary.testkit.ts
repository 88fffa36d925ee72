// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@lectern/testing';

/**
 * Runs the real `lectern` binary (a child process), as a user or a script does: exit code, stdout, stderr. `bin`: the
 * file under apps/cli/bin to run (the former `lectern.mjs` is a shim for it).
 */
export const lectern = (
  args: string[],
  env: Record<string, string>,
  bin = 'lectern.cjs',
): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((done) => {
    execFile(
      process.execPath,
      [join(repoRoot(), 'apps', 'cli', 'bin', bin), ...args],
      {
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
        maxBuffer: 32 * 1024 * 1024,
        timeout: 300_000,
      },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr }),
    );
  });
