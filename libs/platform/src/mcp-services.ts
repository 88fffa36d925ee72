// SPDX-License-Identifier: AGPL-3.0-or-later
import type { AnyToolDefinition } from '@lectern/contracts';
import {
  DEFAULT_TOOL_DEADLINE_MS,
  notImplemented,
  toolDeadlineMs,
  type McpCompletions,
  type McpPrompt,
  type McpResourceProvider,
  type ToolDeadlines,
  type ToolRegistration,
} from '@lectern/transport';

/**
 * An MCP server as every transport serves it (HTTP in the apps, stdio in the CLI): identity, instructions, tools,
 * and each tool's deadline (enforced by the transport's server factory; a client may lower it per call). Each
 * feature lib's module describes its own (`documentStoreModule(...).mcpService`, ...).
 */
export interface McpService {
  name: string;
  version: string;
  instructions: string;
  tools: ToolRegistration[];
  deadlines: ToolDeadlines;
  /** MCP resources (issue 30), when the service offers any. */
  resources?: McpResourceProvider | undefined;
  /** MCP prompts for the common agent jobs (issue 30). */
  prompts?: readonly McpPrompt[] | undefined;
  /** Argument completions (prompt arguments, resource template variables) from the real stores. */
  completions?: McpCompletions | undefined;
}

/** The deadlines a service's tools get: `toolMs` (MCP_TOOL_TIMEOUT_S) for most, `ingestMs` for its ingest tools. */
export interface McpTimeouts {
  /** MCP_TOOL_TIMEOUT_S: searches, reads, listings, deletions. */
  toolMs?: number | undefined;
  /** The ingest tools' deadline (INGEST_TIMEOUT_S; extraction-api: DOC_INDEX_TIMEOUT_S). */
  ingestMs?: number | undefined;
}

/** `MCP_TOOL_TIMEOUT_S` (and the other settings) in the form the services take. */
export const mcpTimeouts = (env: { MCP_TOOL_TIMEOUT_S: number }, ingestS?: number): McpTimeouts => ({
  toolMs: env.MCP_TOOL_TIMEOUT_S * 1000,
  ...(ingestS === undefined ? {} : { ingestMs: ingestS * 1000 }),
});

/**
 * How long past its own deadline an ingest tool's call may run before the transport answers for it. The ingest use
 * cases enforce INGEST_TIMEOUT_S / DOC_INDEX_TIMEOUT_S themselves (`runBounded` in libs/ingestion): they stop at the
 * next boundary, remove what the call wrote and answer in their contract's shape (spec 002's `success: false`, the
 * others' `timeout`). The transport's deadline is the backstop for a step that does not stop, so it must not win
 * that race.
 */
export const INGEST_DEADLINE_GRACE_MS = 30_000;

/**
 * A service's tool deadlines: `ingestTools` get the ingest deadline (else `fallbackIngestMs`) plus
 * `INGEST_DEADLINE_GRACE_MS`, the others `toolMs`. A client's `_meta` limit still applies to either as it is.
 */
export const toolDeadlines = (
  ingestTools: readonly string[],
  timeouts: McpTimeouts,
  fallbackIngestMs?: number,
): ToolDeadlines => {
  const ingestMs = timeouts.ingestMs ?? fallbackIngestMs;
  return {
    defaultMs: timeouts.toolMs ?? DEFAULT_TOOL_DEADLINE_MS,
    ...(ingestMs === undefined
      ? {}
      : { byTool: Object.fromEntries(ingestTools.map((name) => [name, ingestMs + INGEST_DEADLINE_GRACE_MS])) }),
  };
};

/** A server's tools before it has deps: every tool listed with its full contract, answering `not_implemented`. */
export const unboundTools = (definitions: readonly AnyToolDefinition[]): ToolRegistration[] =>
  definitions.map((definition) => ({ definition, handler: notImplemented(definition.name) }));

/** The deadline `service` gives its tool `name` (as the transport applies it). */
export const serviceToolDeadlineMs = (service: McpService, name: string): number => {
  const registration = service.tools.find((t) => t.definition.name === name);
  if (!registration) throw new Error(`${service.name} has no tool ${name}`);
  return toolDeadlineMs(registration, service.deadlines);
};
