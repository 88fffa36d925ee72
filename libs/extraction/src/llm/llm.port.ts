// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The LLM provider port: one request/response turn of a tool-using conversation. The conversation is kept in
 * the Anthropic Messages shape (content blocks); the OpenAI-compatible adapter translates both ways.
 */
export interface LlmTextBlock {
  type: 'text';
  text: string;
}
export interface LlmToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}
export interface LlmToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

export type LlmMessage =
  | { role: 'user'; content: Array<LlmTextBlock | LlmToolResultBlock> }
  | { role: 'assistant'; content: Array<LlmTextBlock | LlmToolUseBlock> };

export interface LlmToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  input_schema: Record<string, unknown>;
}

export interface LlmRequest {
  system: string;
  messages: LlmMessage[];
  tools: LlmToolSpec[];
  maxTokens: number;
}

export interface LlmResponse {
  content: Array<LlmTextBlock | LlmToolUseBlock>;
  /** `tool_use`: the reply asks for tools; `end`: a final answer; `max_tokens`: cut short. */
  stop: 'tool_use' | 'end' | 'max_tokens';
}

export interface LlmProvider {
  readonly kind: 'anthropic' | 'openai';
  readonly model: string;
  complete(request: LlmRequest, signal: AbortSignal): Promise<LlmResponse>;
}
