import type { AnyToolDefinition } from '@lectern/contracts';
import { notImplemented, type ToolRegistration } from '@lectern/transport';

/**
 * An MCP server as every transport serves it (HTTP in the apps, stdio in the CLI): identity, instructions, tools.
 * Each feature lib's module describes its own (`documentStoreModule(...).mcpService`, ...).
 */
export interface McpService {
  name: string;
  version: string;
  instructions: string;
  tools: ToolRegistration[];
}

/** A server's tools before it has deps: every tool listed with its full contract, answering `not_implemented`. */
export const unboundTools = (definitions: readonly AnyToolDefinition[]): ToolRegistration[] =>
  definitions.map((definition) => ({ definition, handler: notImplemented(definition.name) }));
