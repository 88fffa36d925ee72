// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { CliContext } from '../cli.js';

/**
 * `lectern start`: every Lectern service, as `npm start` runs them (tools/start-all.mjs: one process each, restarted
 * when one exits, stopped together on SIGTERM/SIGINT), from the production build; in a checkout it builds first when
 * stale, in an installed package it runs the build it was packed with. This module is `apps/cli/src/commands/` under
 * the installation root in every form the command line runs in (its compiled programs keep their modules' paths).
 */
export const registerStartCommand = (program: Command, context: () => CliContext): void => {
  program
    .command('start')
    .description('start every Lectern service (LECTERN_SERVICES picks some; as `npm start`)')
    .action(async () => {
      const { io } = context();
      const launcher = fileURLToPath(new URL('../../../../tools/start-all.mjs', import.meta.url));
      if (!existsSync(launcher))
        throw new Error(`the launcher ${launcher} is missing: this installation is incomplete`);
      const child = spawn(process.execPath, [launcher], { stdio: 'inherit', env: io.env as NodeJS.ProcessEnv });
      // Ctrl-C reaches the launcher from the terminal (same process group); a SIGTERM sent to this process is passed on
      const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
      process.on('SIGINT', () => undefined);
      process.on('SIGTERM', forward('SIGTERM'));
      const code = await new Promise<number>((done) =>
        child.once('exit', (exitCode, signal) => done(exitCode ?? (signal ? 1 : 0))),
      );
      if (code !== 0) throw new Error(`the services' launcher exited with code ${code}`);
    });
};
