// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import { hitLocators, wholeChunk } from '../doc-tool-calls.js';
import { DOC_TOOL_NAMES, DocToolErrorCodes, type DocToolName, type DocToolsClient } from '../doc-tools-client.js';
import type { LlmMessage, LlmProvider, LlmToolResultBlock, LlmToolUseBlock } from '../llm/llm.port.js';
import { parseFinalAnswer, type FinalAnswer } from './final-answer.js';
import { AGENT_SYSTEM_PROMPT, agentPrompt, correctivePrompt } from './system-prompt.js';

export const AgentErrorCodes = {
  turnLimit: 'agent_turn_limit',
  badAnswer: 'agent_bad_answer',
  noTools: 'doc_tools_unavailable',
} as const;

export interface AgentInput {
  provider: LlmProvider;
  tools: DocToolsClient;
  /** The document as the doc tools' `file_path`. */
  filePath: string;
  schema: Record<string, unknown>;
  signal: AbortSignal;
  /** Spec 003: 50. */
  maxTurns: number;
  maxTokens?: number;
  log?: Logger | undefined;
  /** Called after each `doc_search` with how many searches were made (the agent searches once per field or more). */
  onSearch?: (searches: number) => void;
  /** Called with each whole chunk `doc_read` answered (so the evidence check need not read it again). */
  onChunk?: (indexId: string, locator: string, content: string) => void;
}

export interface AgentOutput extends FinalAnswer {
  /** The index the agent built (undefined if it never called `doc_index_build`). */
  indexId: string | undefined;
  /** Time spent in `doc_index_build` calls. */
  indexSeconds: number;
  turns: number;
  /** Tool calls the loop refused (protocol violations), for the log and the tests. */
  refusals: string[];
}

const text = (blocks: LlmMessage['content']): string =>
  blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');

/**
 * The extraction agent: the LLM sees the four doc tools (as the MCP server describes them) and follows spec 003's
 * protocol; each tool call goes to the MCP server. The loop enforces what the prompt asks: `doc_read` only of a
 * locator a previous `doc_search` returned, indexing only the task's file, at most `maxTurns` LLM turns. The final
 * reply must hold the data and evidence objects; a malformed one gets one corrective turn.
 */
export const runAgent = async (input: AgentInput): Promise<AgentOutput> => {
  const specs = await input.tools.toolSpecs();
  const missing = DOC_TOOL_NAMES.filter((name) => !specs.some((s) => s.name === name));
  if (missing.length)
    throw new AppError(
      AgentErrorCodes.noTools,
      `The MCP server at MCP_TOOLS_URL lacks the tools ${missing.join(', ')}.`,
      { httpStatus: 503 },
    );
  const messages: LlmMessage[] = [
    { role: 'user', content: [{ type: 'text', text: agentPrompt(input.filePath, input.schema) }] },
  ];
  const searched = new Set<string>();
  const refusals: string[] = [];
  let searches = 0;
  let indexId: string | undefined;
  let indexNs = 0n;
  let corrected = false;

  const runTool = async (use: LlmToolUseBlock): Promise<LlmToolResultBlock> => {
    const refuse = (why: string): LlmToolResultBlock => {
      refusals.push(`${use.name}: ${why}`);
      return {
        type: 'tool_result',
        tool_use_id: use.id,
        is_error: true,
        content: JSON.stringify({ status: 'error', error_type: 'protocol_violation', message: why }),
      };
    };
    if (!(DOC_TOOL_NAMES as readonly string[]).includes(use.name))
      return refuse(`There is no tool ${use.name}; use ${DOC_TOOL_NAMES.join(', ')}.`);
    const name = use.name as DocToolName;
    let args = use.input;
    if (name === 'doc_index_build') args = { ...args, file_path: input.filePath };
    if (name === 'doc_read') {
      const locator = typeof args['locator'] === 'string' ? args['locator'] : '';
      if (!searched.has(locator))
        return refuse(
          `doc_read of ${JSON.stringify(locator)} refused: call doc_search first; doc_read reads only locators a doc_search returned.`,
        );
    }
    const started = process.hrtime.bigint();
    let answer;
    try {
      answer = await input.tools.call(name, args, input.signal);
    } catch (error) {
      if (error instanceof AppError && error.code === DocToolErrorCodes.timeout) {
        return {
          type: 'tool_result',
          tool_use_id: use.id,
          is_error: true,
          content: JSON.stringify({ status: 'error', error_type: 'timeout', message: error.message }),
        };
      }
      throw error;
    } finally {
      if (name === 'doc_index_build') indexNs += process.hrtime.bigint() - started;
    }
    if (!answer.isError) {
      if (name === 'doc_search') {
        hitLocators(answer.json).forEach((l) => searched.add(l));
        searches += 1;
        input.onSearch?.(searches);
      }
      if (name === 'doc_read' && typeof args['index_id'] === 'string') {
        const chunk = wholeChunk(answer.json);
        if (chunk) input.onChunk?.(args['index_id'], chunk.locator, chunk.content);
      }
      if (name === 'doc_index_build') {
        const id = (answer.json as { index_id?: unknown } | null)?.index_id;
        if (typeof id === 'string') indexId = id;
      }
    }
    return {
      type: 'tool_result',
      tool_use_id: use.id,
      content: answer.text,
      ...(answer.isError ? { is_error: true } : {}),
    };
  };

  for (let turn = 1; turn <= input.maxTurns; turn += 1) {
    const reply = await input.provider.complete(
      { system: AGENT_SYSTEM_PROMPT, messages, tools: specs, maxTokens: input.maxTokens ?? 8192 },
      input.signal,
    );
    messages.push({ role: 'assistant', content: reply.content });
    const uses = reply.content.filter((b): b is LlmToolUseBlock => b.type === 'tool_use');
    if (uses.length > 0) {
      const results: LlmToolResultBlock[] = [];
      for (const use of uses) results.push(await runTool(use));
      messages.push({ role: 'user', content: results });
      continue;
    }
    const parsed = parseFinalAnswer(text(reply.content));
    if (parsed.ok) return { ...parsed.answer, indexId, indexSeconds: Number(indexNs) / 1e9, turns: turn, refusals };
    input.log?.warn({ turn, problem: parsed.problem }, 'agent reply not parseable');
    if (corrected)
      throw new AppError(
        AgentErrorCodes.badAnswer,
        `The agent's final answer could not be read after a corrective turn: ${parsed.problem}.`,
        { httpStatus: 502 },
      );
    corrected = true;
    messages.push({ role: 'user', content: [{ type: 'text', text: correctivePrompt(parsed.problem) }] });
  }
  throw new AppError(AgentErrorCodes.turnLimit, `The agent did not finish within ${input.maxTurns} turns.`, {
    httpStatus: 504,
  });
};
