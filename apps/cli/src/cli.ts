import { join, resolve } from 'node:path';
import { isAppError } from '@lectern/contracts';
import { ConfigError, LECTERN_VERSION } from '@lectern/runtime';
import type { EmbeddingLogger } from '@lectern/embedding';
import { Command, CommanderError } from 'commander';
import { registerConvertCommand } from './commands/convert.command.js';
import { registerDocstoreCommand } from './commands/docstore.command.js';
import { registerEmbedCommand } from './commands/embed.command.js';
import { registerExtractCommand } from './commands/extract.command.js';
import { registerMcpCommand } from './commands/mcp.command.js';
import { registerModelsCommand } from './commands/models.command.js';
import { registerProjectCommands } from './commands/project.command.js';
import { registerPolicyCommand } from './commands/policy.command.js';
import { registerQueueCommand } from './commands/queue.command.js';
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

export const buildCli = (io: CliIo): Command => {
  const program = new Command('lectern')
    .description('Lectern: document intelligence for AI agents (command line)')
    .version(LECTERN_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  let ctx: CliContext | undefined;
  const context = (): CliContext => (ctx ??= contextFor(io));
  registerEmbedCommand(program, context);
  registerModelsCommand(program, context);
  registerDocstoreCommand(program, context);
  registerConvertCommand(program, context);
  registerMcpCommand(program, context);
  registerProjectCommands(program, context);
  registerExtractCommand(program, context);
  registerPolicyCommand(program, context);
  registerQueueCommand(program, context);
  return program;
};

/** Runs one command line; returns the exit code. Errors go to stderr as one message, never a stack trace. */
export const runCli = async (argv: string[], io: CliIo): Promise<number> => {
  try {
    await buildCli(io).parseAsync(argv, { from: 'user' });
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
