// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { GetPromptResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from './paths.js';

/** A tool call a prompt names in its notation (`` `tool(arg, arg="value")` ``, see `toolCall` in libs/transport). */
export interface NamedToolCall {
  tool: string;
  args: string[];
}

/** Every `` `name(...)` `` a prompt's text messages name, with the argument names. */
export const promptToolCalls = (prompt: GetPromptResult): NamedToolCall[] => {
  const calls: NamedToolCall[] = [];
  for (const message of prompt.messages) {
    if (message.content.type !== 'text') continue;
    for (const m of message.content.text.matchAll(/`([a-z][a-z0-9_]*)\(([^`]*)\)`/g)) {
      const args = (m[2] ?? '')
        .split(/,\s*(?=[a-z_]+(?:=|,|$))/)
        .map((a) => a.split('=')[0]?.trim() ?? '')
        .filter(Boolean);
      calls.push({ tool: m[1] ?? '', args });
    }
  }
  return calls;
};

/**
 * What is wrong with the calls a prompt names, against real `tools/list` answers: a tool no server offers, an
 * argument its input schema does not have. Empty when every name is real.
 */
export const unknownToolNames = (calls: readonly NamedToolCall[], tools: readonly Tool[]): string[] => {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const problems: string[] = [];
  for (const call of calls) {
    const tool = byName.get(call.tool);
    if (!tool) {
      problems.push(`no tool ${call.tool}`);
      continue;
    }
    const properties = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
    for (const arg of call.args) if (!properties.includes(arg)) problems.push(`${call.tool} has no argument ${arg}`);
  }
  return problems;
};

const inspectorEntry = (): string =>
  join(repoRoot(), 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'index.js');

/**
 * Run the MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`, the `--cli` mode of `mcp-inspector`) once:
 * `target` is a server URL (`http://…/mcp`, Streamable HTTP) or a command and its arguments (stdio, the server
 * spawned with `env`). Answers the JSON it prints.
 */
export const runInspectorCli = (
  target: readonly string[],
  method: string,
  options: { args?: readonly string[]; env?: NodeJS.ProcessEnv; headers?: readonly string[] } = {},
): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const transport = target[0]?.startsWith('http') ? ['--transport', 'http'] : [];
    execFile(
      process.execPath,
      [
        inspectorEntry(),
        ...target,
        ...transport,
        '--method',
        method,
        ...(options.args ?? []),
        ...(options.headers ?? []).flatMap((h) => ['--header', h]),
      ],
      // its build dir as the working directory: 1.0.3 looks for its package.json relative to the working directory
      {
        cwd: dirname(inspectorEntry()),
        env: options.env ?? process.env,
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`inspector-cli ${method} failed: ${error.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`inspector-cli ${method} printed no JSON: ${stdout.slice(0, 500)}\n${stderr}`));
        }
      },
    );
  });
