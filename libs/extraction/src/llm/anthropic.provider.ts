// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import { z } from 'zod';
import { LlmErrorCodes, postJson, type RetryPolicy } from './http-json.js';
import type { LlmProvider, LlmRequest, LlmResponse } from './llm.port.js';

export interface AnthropicOptions {
  /** `ANTHROPIC_API_KEY` (sent as `x-api-key`) or `ANTHROPIC_AUTH_TOKEN` (sent as a bearer token); one is required. */
  apiKey?: string | undefined;
  authToken?: string | undefined;
  /** `ANTHROPIC_BASE_URL` (default https://api.anthropic.com). */
  baseUrl?: string | undefined;
  model: string;
  timeoutMs: number;
  retry: RetryPolicy;
  log?: Logger | undefined;
}

const ReplySchema = z.object({
  content: z.array(
    z.union([
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({
        type: z.literal('tool_use'),
        id: z.string(),
        name: z.string(),
        input: z.record(z.string(), z.unknown()),
      }),
      z.object({ type: z.string() }).loose(),
    ]),
  ),
  stop_reason: z.string().nullable().optional(),
});

/** The Anthropic Messages API (`POST /v1/messages`, tool use), or any proxy speaking it. */
export const createAnthropicProvider = (options: AnthropicOptions): LlmProvider => {
  if (!options.apiKey && !options.authToken) throw new Error('Set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN.');
  const url = `${(options.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '')}/v1/messages`;
  const headers: Record<string, string> = { 'anthropic-version': '2023-06-01' };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  if (options.authToken) headers['authorization'] = `Bearer ${options.authToken}`;
  return {
    kind: 'anthropic',
    model: options.model,
    async complete(request: LlmRequest, signal: AbortSignal): Promise<LlmResponse> {
      const body = {
        model: options.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: request.messages,
        tools: request.tools,
      };
      const raw = await postJson(url, body, headers, {
        timeoutMs: options.timeoutMs,
        retry: options.retry,
        signal,
        log: options.log,
        provider: 'The Anthropic API',
      });
      const parsed = ReplySchema.safeParse(raw);
      if (!parsed.success)
        throw new AppError(LlmErrorCodes.badReply, 'The Anthropic API answered with an unexpected message shape.', {
          httpStatus: 502,
        });
      const content: LlmResponse['content'] = [];
      for (const block of parsed.data.content) {
        if (block.type === 'text' && 'text' in block) content.push({ type: 'text', text: String(block.text) });
        else if (block.type === 'tool_use' && 'id' in block) {
          const use = block as { id: string; name: string; input: Record<string, unknown> };
          content.push({ type: 'tool_use', id: use.id, name: use.name, input: use.input });
        }
      }
      const stop =
        parsed.data.stop_reason === 'tool_use'
          ? 'tool_use'
          : parsed.data.stop_reason === 'max_tokens'
            ? 'max_tokens'
            : 'end';
      return { content, stop: content.some((b) => b.type === 'tool_use') ? 'tool_use' : stop };
    },
  };
};
