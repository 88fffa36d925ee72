// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ExtractorKind } from '@lectern/contracts';
import type { Logger } from '@lectern/runtime';
import { createAnthropicProvider } from './anthropic.provider.js';
import { DEFAULT_RETRY, type RetryPolicy } from './http-json.js';
import type { LlmProvider } from './llm.port.js';
import { createOpenAiProvider } from './openai.provider.js';

/** The LLM variables of spec 003 section 14 (plus the OpenAI-compatible ones), as the app's config parsed them. */
export interface LlmSettings {
  /** `auto` (default): Anthropic when a key or token is set, else OpenAI-compatible when a model is set, else local. */
  EXTRACTOR: 'auto' | ExtractorKind;
  ANTHROPIC_API_KEY?: string | undefined;
  ANTHROPIC_AUTH_TOKEN?: string | undefined;
  ANTHROPIC_BASE_URL?: string | undefined;
  /** An explicit model id (wins over the tier). */
  ANTHROPIC_MODEL?: string | undefined;
  /** Which tier the agent runs on (default sonnet, as the spec's agent). */
  ANTHROPIC_MODEL_TIER: 'haiku' | 'sonnet' | 'opus';
  ANTHROPIC_DEFAULT_HAIKU_MODEL?: string | undefined;
  ANTHROPIC_DEFAULT_SONNET_MODEL?: string | undefined;
  ANTHROPIC_DEFAULT_OPUS_MODEL?: string | undefined;
  API_TIMEOUT_MS: number;
  OPENAI_BASE_URL?: string | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_MODEL?: string | undefined;
  /** Provider retries on 429/5xx/network errors. */
  LLM_MAX_RETRIES: number;
}

/** The tiers' built-in models when no `ANTHROPIC_DEFAULT_*_MODEL` override is set. */
export const ANTHROPIC_TIER_MODELS = {
  haiku: 'claude-3-5-haiku-20241022',
  sonnet: 'claude-sonnet-4-20250514',
  opus: 'claude-opus-4-20250514',
} as const;

export const anthropicModel = (s: LlmSettings): string => {
  if (s.ANTHROPIC_MODEL) return s.ANTHROPIC_MODEL;
  const override = {
    haiku: s.ANTHROPIC_DEFAULT_HAIKU_MODEL,
    sonnet: s.ANTHROPIC_DEFAULT_SONNET_MODEL,
    opus: s.ANTHROPIC_DEFAULT_OPUS_MODEL,
  }[s.ANTHROPIC_MODEL_TIER];
  return override ?? ANTHROPIC_TIER_MODELS[s.ANTHROPIC_MODEL_TIER];
};

/** Which extractor runs: `EXTRACTOR`, or (auto) the first configured provider, else the offline one. */
export const resolveExtractor = (s: LlmSettings): ExtractorKind => {
  if (s.EXTRACTOR !== 'auto') return s.EXTRACTOR;
  if (s.ANTHROPIC_API_KEY || s.ANTHROPIC_AUTH_TOKEN) return 'anthropic';
  if (s.OPENAI_MODEL) return 'openai';
  return 'local';
};

/** The provider of an LLM extractor; a missing setting is a clear start-up error. */
export const createLlmProvider = (s: LlmSettings, kind: 'anthropic' | 'openai', log?: Logger): LlmProvider => {
  const retry: RetryPolicy = { ...DEFAULT_RETRY, retries: s.LLM_MAX_RETRIES };
  if (kind === 'anthropic') {
    return createAnthropicProvider({
      apiKey: s.ANTHROPIC_API_KEY,
      authToken: s.ANTHROPIC_AUTH_TOKEN,
      baseUrl: s.ANTHROPIC_BASE_URL,
      model: anthropicModel(s),
      timeoutMs: s.API_TIMEOUT_MS,
      retry,
      log,
    });
  }
  if (!s.OPENAI_MODEL) throw new Error('EXTRACTOR=openai needs OPENAI_MODEL.');
  return createOpenAiProvider({
    baseUrl: s.OPENAI_BASE_URL,
    apiKey: s.OPENAI_API_KEY,
    model: s.OPENAI_MODEL,
    timeoutMs: s.API_TIMEOUT_MS,
    retry,
    log,
  });
};
