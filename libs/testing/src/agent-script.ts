// SPDX-License-Identifier: AGPL-3.0-or-later
import { anthropicText, anthropicToolUse, openAiText, openAiToolCalls, type FakeReply } from './fake-llm.js';

/**
 * A scripted extraction conversation for the fake LLM servers: each step looks at the tool results the agent
 * loop sent back (real answers of the real doc tools over MCP) and decides the next tool calls or the final
 * text. A script is made per conversation (`() => ScriptStep`). The script is the same for both wire formats; `anthropicScript` / `openAiScript` speak them.
 */
export type ScriptAction = { tools: Array<{ name: string; input: Record<string, unknown> }> } | { text: string };

export interface ToolResultSeen {
  name: string;
  isError: boolean;
  content: string;
}

/** The tool results of the latest request (what the previous step's calls returned), in call order. */
export type ScriptStep = (results: ToolResultSeen[], turn: number) => ScriptAction;

let counter = 0;
const callId = () => `call_${(counter += 1)}`;

/** The Anthropic Messages wire format: tool results are `tool_result` blocks of the last user message. */
export const anthropicScript = (script: () => ScriptStep, names = new Map<string, string>()) => {
  let turn = 0;
  let step = script();
  return (body: Record<string, unknown>): FakeReply => {
    const messages = body['messages'] as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    if (messages.length === 1) {
      // a new conversation (another task, or a retry): the script starts over
      step = script();
      turn = 0;
    }
    const last = messages[messages.length - 1]!;
    const results = last.content
      .filter((b) => b['type'] === 'tool_result')
      .map((b) => ({
        name: names.get(String(b['tool_use_id'])) ?? '?',
        isError: b['is_error'] === true,
        content: String(b['content']),
      }));
    const action = step(results, (turn += 1));
    if ('text' in action) return anthropicText(action.text);
    const uses = action.tools.map((t) => ({ id: callId(), name: t.name, input: t.input }));
    uses.forEach((u) => names.set(u.id, u.name));
    return anthropicToolUse(uses);
  };
};

/** OpenAI chat completions: tool results are the trailing `role: tool` messages. */
export const openAiScript = (script: () => ScriptStep, names = new Map<string, string>()) => {
  let turn = 0;
  let step = script();
  return (body: Record<string, unknown>): FakeReply => {
    const messages = body['messages'] as Array<Record<string, unknown>>;
    if (messages.length === 2) {
      // system + the task prompt: a new conversation (another task, or a retry): the script starts over
      step = script();
      turn = 0;
    }
    const trailing: ToolResultSeen[] = [];
    for (let i = messages.length - 1; i >= 0 && messages[i]!['role'] === 'tool'; i -= 1) {
      const m = messages[i]!;
      const content = String(m['content']);
      trailing.unshift({
        name: names.get(String(m['tool_call_id'])) ?? '?',
        isError: /"status":"error"/.test(content),
        content,
      });
    }
    const action = step(trailing, (turn += 1));
    if ('text' in action) return openAiText(action.text);
    const calls = action.tools.map((t) => ({ id: callId(), name: t.name, input: t.input }));
    calls.forEach((c) => names.set(c.id, c.name));
    return openAiToolCalls(calls);
  };
};

export interface ScriptedField {
  /** The field's key; a dotted key (`electrical.rated_current`) answers a nested field. */
  key: string;
  /** The doc_search query the "model" sends for it. */
  query: string;
  /** A line of the chunk that holds the value; its first group is the value. */
  line: RegExp;
  /**
   * The part of that line the "model" quotes as its evidence snippet (default: the whole line). A model quotes
   * the words, not the chunk's markdown around them (a list item's `- `, a table row's pipes).
   */
  quote?: RegExp;
}

/** Set `a.b.c` in a nested object, creating the objects on the way. */
const setPath = (target: Record<string, unknown>, key: string, value: unknown): void => {
  const parts = key.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1]!] = value;
};

/**
 * A well-behaved agent: index, one doc_search per field, doc_read of each field's best hit (none for a field whose
 * search found nothing), then the final answer with the value and the line it came from as evidence (null when the
 * line is not in the hit).
 */
export const wellBehavedScript = (fields: ScriptedField[]): ScriptStep => {
  let indexId = '';
  let hits: Array<string | undefined> = [];
  const answer = (reads: ToolResultSeen[]): ScriptAction => {
    const data: Record<string, unknown> = {};
    const evidence: Record<string, unknown> = {};
    let next = 0;
    fields.forEach((field, i) => {
      const read = hits[i] === undefined ? undefined : reads[next++];
      const content = read && !read.isError ? ((JSON.parse(read.content) as { content?: string }).content ?? '') : '';
      const line = content.split('\n').find((l) => field.line.test(l));
      const value = line ? field.line.exec(line)![1] : undefined;
      setPath(data, field.key, value ?? null);
      setPath(
        evidence,
        field.key,
        value
          ? { locator: hits[i], snippet: (field.quote ? field.quote.exec(line!)?.[0] : undefined) ?? line!.trim() }
          : { locator: null, snippet: null, warning: 'Not found in document' },
      );
    });
    return { text: JSON.stringify({ data, evidence }) };
  };
  return (results, turn) => {
    if (turn === 1) return { tools: [{ name: 'doc_index_build', input: { file_path: 'the-document' } }] };
    if (turn === 2) {
      indexId = (JSON.parse(results[0]!.content) as { index_id: string }).index_id;
      return {
        tools: fields.map((f) => ({ name: 'doc_search', input: { index_id: indexId, query: f.query, top_k: 5 } })),
      };
    }
    if (turn === 3) {
      hits = results.map((r) => (JSON.parse(r.content) as Array<{ locator: string }>)[0]?.locator);
      const reads = hits.filter((locator): locator is string => locator !== undefined);
      if (reads.length === 0) return answer([]);
      return { tools: reads.map((locator) => ({ name: 'doc_read', input: { index_id: indexId, locator } })) };
    }
    return answer(results);
  };
};
