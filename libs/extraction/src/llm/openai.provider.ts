// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import { z } from 'zod';
import { LlmErrorCodes, postJson, type RetryPolicy } from './http-json.js';
import type { LlmMessage, LlmProvider, LlmRequest, LlmResponse } from './llm.port.js';

export interface OpenAiOptions {
  /** `OPENAI_BASE_URL` (default https://api.openai.com/v1; Ollama: http://localhost:11434/v1). */
  baseUrl?: string | undefined;
  /** `OPENAI_API_KEY` (optional: local servers often need none). */
  apiKey?: string | undefined;
  /** `OPENAI_MODEL`. */
  model: string;
  timeoutMs: number;
  retry: RetryPolicy;
  log?: Logger | undefined;
}

const ReplySchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          tool_calls: z
            .array(
              z.object({
                id: z.string(),
                type: z.string().optional(),
                function: z.object({ name: z.string(), arguments: z.string() }),
              }),
            )
            .nullable()
            .optional(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
});

type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The conversation (Anthropic blocks) as chat-completions messages: tool results become `role: tool` messages. */
const toChat = (system: string, messages: LlmMessage[]): ChatMessage[] => {
  const chat: ChatMessage[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'assistant') {
      const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      const calls = message.content.flatMap((b) =>
        b.type === 'tool_use'
          ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input) } }]
          : [],
      );
      chat.push({ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) });
      continue;
    }
    for (const block of message.content) {
      if (block.type === 'tool_result')
        chat.push({ role: 'tool', tool_call_id: block.tool_use_id, content: block.content });
      else chat.push({ role: 'user', content: block.text });
    }
  }
  return chat;
};

/** An OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM, llama.cpp) with function tools. */
export const createOpenAiProvider = (options: OpenAiOptions): LlmProvider => {
  const url = `${(options.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  return {
    kind: 'openai',
    model: options.model,
    async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmResponse> {
      const body = {
        model: options.model,
        max_tokens: request.maxTokens,
        messages: toChat(request.system, request.messages),
        tools: request.tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.input_schema },
        })),
      };
      const raw = await postJson(url, body, headers, {
        timeoutMs: options.timeoutMs,
        retry: options.retry,
        signal,
        log: options.log,
        provider: 'The OpenAI-compatible API',
      });
      const parsed = ReplySchema.safeParse(raw);
      if (!parsed.success)
        throw new AppError(LlmErrorCodes.badReply, 'The OpenAI-compatible API answered with an unexpected shape.', {
          httpStatus: 502,
        });
      const choice = parsed.data.choices[0]!;
      const content: LlmResponse['content'] = [];
      if (choice.message.content) content.push({ type: 'text', text: choice.message.content });
      for (const call of choice.message.tool_calls ?? []) {
        let input: Record<string, unknown>;
        try {
          const value: unknown = JSON.parse(call.function.arguments || '{}');
          input = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
        } catch {
          input = { _unparsable_arguments: call.function.arguments.slice(0, 200) };
        }
        content.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
      }
      const stop = content.some((b) => b.type === 'tool_use')
        ? 'tool_use'
        : choice.finish_reason === 'length'
          ? 'max_tokens'
          : 'end';
      return { content, stop };
    },
  };
};
