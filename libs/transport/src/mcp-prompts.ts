// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { describeZodError } from './run-tool.js';

/** A prompt argument: MCP passes every argument as a string (a string schema, an enum, optional or not). */
export type PromptArgumentSchema = z.ZodType<string | undefined>;

/**
 * One MCP prompt (issue 30): a template for a common agent job. `arguments` is a zod object of string fields (each
 * `.describe()`d: the description `prompts/list` shows; optional fields are not required); `render` gets them
 * parsed and answers the prompt's messages, which name the servers' real tools and argument names.
 */
export interface McpPrompt<A extends Record<string, PromptArgumentSchema> = Record<string, PromptArgumentSchema>> {
  name: string;
  title: string;
  description: string;
  arguments: z.ZodObject<A>;
  render(args: z.infer<z.ZodObject<A>>, signal: AbortSignal): Promise<GetPromptResult> | GetPromptResult;
}

/** A prompt with its argument types checked where it is written (the list of a server holds any prompt). */
export const definePrompt = <A extends Record<string, PromptArgumentSchema>>(prompt: McpPrompt<A>): McpPrompt =>
  prompt as unknown as McpPrompt;

/** Longest value of a prompt argument: a question or a reference, never a document. */
export const PROMPT_ARGUMENT_MAX_CHARS = 2000;

/**
 * A value completer (`completion/complete`) for one argument name (a prompt argument or a resource template
 * variable of the same name): candidate values starting with `prefix` from the real stores, at most `limit`.
 * `context` holds the other arguments the client already resolved (e.g. `source` for `revision_id`).
 */
export type McpCompleter = (
  prefix: string,
  context: Readonly<Record<string, string>>,
  limit: number,
  signal: AbortSignal,
) => Promise<string[]>;

/** Completers by argument name. */
export type McpCompletions = Readonly<Record<string, McpCompleter>>;

/** Most values one completion answers (the MCP specification's limit). */
export const COMPLETION_MAX_VALUES = 100;

/** `prompts/list` entries from the prompts' zod argument objects. */
export const describePrompts = (prompts: readonly McpPrompt[]): Prompt[] =>
  prompts.map((p) => ({
    name: p.name,
    title: p.title,
    description: p.description,
    arguments: Object.entries(p.arguments.shape).map(([name, schema]) => ({
      name,
      ...(schema.description ? { description: schema.description } : {}),
      required: !schema.safeParse(undefined).success,
    })),
  }));

/** A prompt's arguments parsed (each bounded), or `invalid_arguments` naming what is wrong. */
export const parsePromptArguments = (prompt: McpPrompt, args: Record<string, string> | undefined) => {
  for (const [name, value] of Object.entries(args ?? {})) {
    if (value.length > PROMPT_ARGUMENT_MAX_CHARS)
      throw new AppError('invalid_arguments', `${name}: at most ${PROMPT_ARGUMENT_MAX_CHARS} characters`);
  }
  const parsed = prompt.arguments.strict().safeParse(args ?? {});
  if (!parsed.success)
    throw new AppError(
      'invalid_arguments',
      `Invalid arguments for prompt ${prompt.name}: ${describeZodError(parsed.error)}`,
    );
  return parsed.data;
};

/**
 * Candidate values cut to the completion's shape: those starting with `prefix` (case-insensitively: a client types
 * `nppf` for `NPPF`), once each, sorted, at most `COMPLETION_MAX_VALUES`; `total` and `hasMore` say what was left.
 */
export const completionOf = (
  candidates: readonly string[],
  prefix: string,
): { values: string[]; total: number; hasMore: boolean } => {
  const lower = prefix.toLowerCase();
  const matching = [...new Set(candidates)].filter((v) => v.toLowerCase().startsWith(lower)).sort();
  return {
    values: matching.slice(0, COMPLETION_MAX_VALUES),
    total: matching.length,
    hasMore: matching.length > COMPLETION_MAX_VALUES,
  };
};

/** The `{name}` variables of an RFC 6570 URI template (simple and `{+name}`, `{/name}` forms). */
export const templateVariables = (template: string): string[] =>
  [...template.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => (m[1] ?? '').split(',').map((v) => v.trim()));

/**
 * How a prompt names a tool call: `` `search_policy(query, effective_date="2024-03-01")` `` — the tool's real name and
 * argument names, checked by the compiler against its contract (`args` keys are the input's fields; `true` names
 * the argument, any other value is shown as JSON). The prompt specs parse this notation back and check it against
 * `tools/list`.
 */
export const toolCall = <S extends z.ZodRawShape>(
  tool: { name: string; input: z.ZodObject<S> },
  args: Partial<Record<keyof S & string, unknown>>,
): string => {
  const parts = Object.entries(args).map(([k, v]) => (v === true ? k : `${k}=${JSON.stringify(v)}`));
  return `\`${tool.name}(${parts.join(', ')})\``;
};
