// SPDX-License-Identifier: AGPL-3.0-or-later
import { join, resolve } from 'node:path';
import { isAppError } from '@lectern/contracts';
import { ConfigError, LECTERN_VERSION } from '@lectern/runtime';
import type { EmbeddingLogger } from '@lectern/embedding';
import { Command, CommanderError } from 'commander';
import { modulesFor } from './command-modules.cjs';
import { loadConfig, type CliConfig } from './config.js';

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Draw progress bars (interactive terminal only). */
  stderrIsTTY?: boolean;
}

/** What every command gets: parsed config, output streams, a one-line stderr logger. */
export interface CliContext {
  config: CliConfig;
  io: CliIo;
  modelCacheDir: string;
  log: EmbeddingLogger;
}

const contextFor = (io: CliIo): CliContext => {
  const config = loadConfig(io.env);
  const quiet = ['warn', 'error', 'fatal', 'silent'].includes(config.LOG_LEVEL);
  return {
    config,
    io,
    modelCacheDir: join(resolve(config.DATA_DIR), 'models'),
    log: {
      info: (_obj, msg) => (quiet ? undefined : io.stderr(`lectern: ${msg}\n`)),
      warn: (_obj, msg) => (config.LOG_LEVEL === 'silent' ? undefined : io.stderr(`lectern: warning: ${msg}\n`)),
    },
  };
};

type Register = (program: Command, context: () => CliContext) => void;

/**
 * Each command module, loaded only when a command line needs it (`modulesFor`): a module brings its libraries (the
 * platform, the stores' adapters, the embedders), so `lectern convert` loads the conversion engine alone (issue
 * 18's one-shot start-up). The bin runs the program compiled for the same modules (apps/cli/bin/cli-build.mjs).
 */
const MODULES: Record<string, () => Promise<Register>> = {
  embed: async () => (await import('./commands/embed.command.js')).registerEmbedCommand,
  models: async () => (await import('./commands/models.command.js')).registerModelsCommand,
  docstore: async () => (await import('./commands/docstore.command.js')).registerDocstoreCommand,
  convert: async () => (await import('./commands/convert.command.js')).registerConvertCommand,
  mcp: async () => (await import('./commands/mcp.command.js')).registerMcpCommand,
  project: async () => (await import('./commands/project.command.js')).registerProjectCommands,
  extract: async () => (await import('./commands/extract.command.js')).registerExtractCommand,
  policy: async () => (await import('./commands/policy.command.js')).registerPolicyCommand,
  queue: async () => (await import('./commands/queue.command.js')).registerQueueCommand,
  start: async () => (await import('./commands/start.command.js')).registerStartCommand,
};

/** The command line's program with the command modules `argv` needs (`modulesFor`). */
export const buildCli = async (io: CliIo, argv: string[] = []): Promise<Command> => {
  const program = new Command('lectern')
    .description('Lectern: document intelligence for AI agents (command line)')
    .version(LECTERN_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  let ctx: CliContext | undefined;
  const context = (): CliContext => (ctx ??= contextFor(io));
  const registers = await Promise.all(
    modulesFor(argv).map((name) => {
      const load = MODULES[name];
      if (!load) throw new Error(`no command module ${name}`);
      return load();
    }),
  );
  for (const register of registers) register(program, context);
  return program;
};

/** Runs one command line; returns the exit code. Errors go to stderr as one message, never a stack trace. */
export const runCli = async (argv: string[], io: CliIo): Promise<number> => {
  try {
    await (await buildCli(io, argv)).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (isAppError(err) || err instanceof ConfigError) {
      io.stderr(`error: ${err.message}\n`);
      return 1;
    }
    io.stderr(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
};
