// SPDX-License-Identifier: AGPL-3.0-or-later
import { createAnthropicProvider } from './anthropic.provider.js';
import {
  anthropicText,
  anthropicToolUse,
  appErrorCode,
  openAiToolCalls,
  startFakeLlm,
  type FakeLlmServer,
} from '@lectern/testing';
import { anthropicModel, resolveExtractor, type LlmSettings } from './llm-settings.js';
import type { LlmRequest } from './llm.port.js';
import { createOpenAiProvider } from './openai.provider.js';

const retry = { retries: 3, baseDelayMs: 1, maxDelayMs: 5 };
const request: LlmRequest = {
  system: 'sys',
  maxTokens: 100,
  tools: [
    {
      name: 'doc_search',
      description: 'search',
      input_schema: { type: 'object', properties: { query: { type: 'string' } } },
    },
  ],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
};
const signal = () => new AbortController().signal;

describe('LLM providers against loopback servers speaking their wire formats', () => {
  let server: FakeLlmServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('Anthropic: retries 429 and 500, sends the key, version, model, system and tools, and reads tool_use blocks', async () => {
    server = await startFakeLlm((_body, i) =>
      i === 0
        ? { status: 429, headers: { 'retry-after': '0' }, json: { type: 'error' } }
        : i === 1
          ? { status: 500, json: {} }
          : anthropicToolUse([{ id: 't1', name: 'doc_search', input: { query: 'voltage' } }]),
    );
    const provider = createAnthropicProvider({
      apiKey: 'k-1',
      baseUrl: server.url,
      model: 'claude-x',
      timeoutMs: 5000,
      retry,
    });
    const reply = await provider.complete(request, signal());
    expect(reply).toEqual({
      stop: 'tool_use',
      content: [{ type: 'tool_use', id: 't1', name: 'doc_search', input: { query: 'voltage' } }],
    });
    expect(server.requests).toHaveLength(3);
    const last = server.requests[2]!;
    expect(last.path).toBe('/v1/messages');
    expect(last.headers['x-api-key']).toBe('k-1');
    expect(last.headers['anthropic-version']).toBe('2023-06-01');
    expect(last.body).toMatchObject({
      model: 'claude-x',
      system: 'sys',
      max_tokens: 100,
      tools: request.tools,
      messages: request.messages,
    });
  });

  it('Anthropic: an auth token goes as a bearer token; a refusal (401) is not retried', async () => {
    server = await startFakeLlm(() => ({ status: 401, json: { error: 'nope' } }));
    const provider = createAnthropicProvider({
      authToken: 'tok',
      baseUrl: `${server.url}/`,
      model: 'm',
      timeoutMs: 5000,
      retry,
    });
    expect(await appErrorCode(provider.complete(request, signal()))).toBe('llm_error');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer tok');
    expect(() => createAnthropicProvider({ model: 'm', timeoutMs: 1, retry })).toThrow(
      /ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN/,
    );
  });

  it('gives up with llm_unavailable when 5xx persists, and with llm_timeout when the API does not answer in time', async () => {
    server = await startFakeLlm((_b, i) =>
      i < 4 ? { status: 503, json: {} } : { delayMs: 10_000, ...anthropicText('late') },
    );
    const provider = createAnthropicProvider({ apiKey: 'k', baseUrl: server.url, model: 'm', timeoutMs: 300, retry });
    await expect(provider.complete(request, signal())).rejects.toMatchObject({
      code: 'llm_unavailable',
      message: expect.stringMatching(/HTTP 503 after 4 attempts/),
    });
    const slow = createAnthropicProvider({
      apiKey: 'k',
      baseUrl: server.url,
      model: 'm',
      timeoutMs: 300,
      retry: { ...retry, retries: 0 },
    });
    await expect(slow.complete(request, signal())).rejects.toMatchObject({
      code: 'llm_timeout',
      message: expect.stringMatching(/within 300 ms \(API_TIMEOUT_MS\)/),
    });
  });

  it('OpenAI-compatible: tools as functions, tool calls read back, tool results sent as role "tool" messages', async () => {
    server = await startFakeLlm((_b, i) =>
      i === 0
        ? { status: 500, json: {} }
        : openAiToolCalls([{ id: 'c1', name: 'doc_read', input: { locator: 'h1-c1' } }]),
    );
    const provider = createOpenAiProvider({
      baseUrl: `${server.url}/v1`,
      apiKey: 'sk',
      model: 'llama',
      timeoutMs: 5000,
      retry,
    });
    const reply = await provider.complete(
      {
        ...request,
        messages: [
          ...request.messages,
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'searching' },
              { type: 'tool_use', id: 'c0', name: 'doc_search', input: { query: 'v' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c0', content: '[]' }] },
        ],
      },
      signal(),
    );
    expect(reply).toEqual({
      stop: 'tool_use',
      content: [{ type: 'tool_use', id: 'c1', name: 'doc_read', input: { locator: 'h1-c1' } }],
    });
    const sent = server.requests[1]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBe('Bearer sk');
    expect(sent.body).toMatchObject({
      model: 'llama',
      tools: [
        {
          type: 'function',
          function: { name: 'doc_search', description: 'search', parameters: request.tools[0]!.input_schema },
        },
      ],
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: 'searching',
          tool_calls: [{ id: 'c0', type: 'function', function: { name: 'doc_search', arguments: '{"query":"v"}' } }],
        },
        { role: 'tool', tool_call_id: 'c0', content: '[]' },
      ],
    });
  });

  it('picks the extractor and the Anthropic model from the settings', () => {
    const base: LlmSettings = {
      EXTRACTOR: 'auto',
      ANTHROPIC_MODEL_TIER: 'sonnet',
      API_TIMEOUT_MS: 1000,
      LLM_MAX_RETRIES: 1,
    };
    expect(resolveExtractor(base)).toBe('local');
    expect(resolveExtractor({ ...base, OPENAI_MODEL: 'qwen' })).toBe('openai');
    expect(resolveExtractor({ ...base, ANTHROPIC_AUTH_TOKEN: 't', OPENAI_MODEL: 'qwen' })).toBe('anthropic');
    expect(resolveExtractor({ ...base, ANTHROPIC_API_KEY: 'k', EXTRACTOR: 'local' })).toBe('local');
    expect(anthropicModel(base)).toBe('claude-sonnet-4-20250514');
    expect(anthropicModel({ ...base, ANTHROPIC_DEFAULT_SONNET_MODEL: 'glm-4.6' })).toBe('glm-4.6');
    expect(anthropicModel({ ...base, ANTHROPIC_MODEL_TIER: 'haiku', ANTHROPIC_DEFAULT_HAIKU_MODEL: 'small' })).toBe(
      'small',
    );
    expect(anthropicModel({ ...base, ANTHROPIC_MODEL: 'exact', ANTHROPIC_DEFAULT_SONNET_MODEL: 'glm' })).toBe('exact');
  });
});
