// SPDX-License-Identifier: AGPL-3.0-or-later
import { documentStoreEnvShape, documentStoreModule } from '@lectern/document-store';
import { createPlatform, platformOptions } from '@lectern/platform';
import { policyKbEnvShape, policyKbModule } from '@lectern/policy-kb';
import { commonEnvShape, createLogger, parseEnv } from '@lectern/runtime';
import { serveStdio } from '@lectern/transport';
import type { Command } from 'commander';
import { destination } from 'pino';
import { z } from 'zod';
import type { CliContext } from '../cli.js';

/** `lectern mcp documents`: the document store's variables, the same names and defaults as document-store-mcp. */
const DocumentsEnvSchema = z.object({ ...commonEnvShape, ...documentStoreEnvShape });
const PoliciesEnvSchema = z.object({ ...commonEnvShape, ...policyKbEnvShape });

/** Logs go to stderr: stdout is the protocol. */
const stderrLogger = (service: string, level: string) =>
  createLogger(service, level, destination({ fd: 2, sync: true }));

/**
 * `lectern mcp documents|policies`: the MCP servers of document-store-mcp and policy-kb-mcp over stdio, in this
 * process, embedded by default (SQLite store, in-process conversion) — what desktop clients start.
 */
export const registerMcpCommand = (program: Command, context: () => CliContext): void => {
  const mcp = program
    .command('mcp')
    .description('serve an MCP server over stdio (for desktop clients: Claude Desktop, Cursor)');
  mcp
    .command('documents')
    .description("document-store-mcp's tools over stdio (ingest, search, read, collections)")
    .action(async () => {
      const env = parseEnv(DocumentsEnvSchema, context().io.env);
      const log = stderrLogger('document-store-mcp', env.LOG_LEVEL);
      const platform = createPlatform(platformOptions(env, log));
      try {
        await serveStdio({ ...documentStoreModule(platform, env).mcpService, log });
      } finally {
        await platform.close();
      }
    });
  mcp
    .command('policies')
    .description("policy-kb-mcp's tools over stdio")
    .action(async () => {
      const env = parseEnv(PoliciesEnvSchema, context().io.env);
      const log = stderrLogger('policy-kb-mcp', env.LOG_LEVEL);
      const platform = createPlatform(platformOptions(env, log));
      try {
        await serveStdio({ ...policyKbModule(platform, env).mcpService, log });
      } finally {
        await platform.close();
      }
    });
};
