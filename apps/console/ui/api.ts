// SPDX-License-Identifier: AGPL-3.0-or-later
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { z } from 'zod';

/** The four services, by the name the console's proxy gives them (`/svc/<name>/…`). */
export type Service = 'converter' | 'documents' | 'policies' | 'extraction';

const KEY = 'lectern.console.key';

/** The bearer key, asked once and kept for this browser session only (sessionStorage). */
export const apiKey = {
  get: (): string | null => sessionStorage.getItem(KEY),
  set: (value: string): void => sessionStorage.setItem(KEY, value),
  clear: (): void => sessionStorage.removeItem(KEY),
};

const authHeaders = (): Record<string, string> => {
  const key = apiKey.get();
  return key ? { authorization: `Bearer ${key}` } : {};
};

/** An error a service answered, in the words it used (its `{error:{code,message}}` or a tool's error JSON). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const listeners = new Set<() => void>();
/** Called when a service refuses the key (401): the app asks for it again. */
export const onUnauthorized = (fn: () => void): (() => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};

const errorOf = (status: number, body: unknown): ApiError => {
  const e = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (status === 401) listeners.forEach((fn) => fn());
  if (e && typeof e.message === 'string') return new ApiError(String(e.code ?? 'error'), e.message, status);
  if (status === 502) return new ApiError('service_unavailable', 'The service is not reachable.', status);
  return new ApiError('http_error', `The service answered HTTP ${status}.`, status);
};

/** A REST call through the console's proxy; the answer parsed with its contract schema. */
export const rest = async <S extends z.ZodType>(
  service: Service,
  path: string,
  schema: S,
  init: RequestInit = {},
): Promise<z.infer<S>> => {
  const response = await fetch(`/svc/${service}${path}`, {
    ...init,
    headers: { accept: 'application/json', ...authHeaders(), ...(init.headers as Record<string, string>) },
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) throw errorOf(response.status, body);
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ApiError('unexpected_answer', `The ${service} service answered in an unexpected shape.`);
  return parsed.data;
};

/** A plain-text REST answer (Prometheus /metrics). */
export const restText = async (service: Service, path: string): Promise<string> => {
  const response = await fetch(`/svc/${service}${path}`, { headers: authHeaders() });
  const text = await response.text();
  if (!response.ok) {
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    throw errorOf(response.status, body);
  }
  return text;
};

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * A multipart upload with the browser's upload progress (fetch has none): XMLHttpRequest. The answer parsed with
 * its contract schema; an error answer becomes an ApiError in the service's words.
 */
export const upload = <S extends z.ZodType>(
  service: Service,
  path: string,
  form: FormData,
  schema: S,
  onProgress: (p: UploadProgress) => void,
): Promise<z.infer<S>> =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/svc/${service}${path}`);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onerror = () => reject(new ApiError('network_error', 'The upload could not reach the console.'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      if (xhr.status < 200 || xhr.status >= 300) return reject(errorOf(xhr.status, body));
      const parsed = schema.safeParse(body);
      if (!parsed.success)
        return reject(new ApiError('unexpected_answer', 'The service answered in an unexpected shape.'));
      resolve(parsed.data);
    };
    xhr.send(form);
  });

/**
 * The SDK's client validates tool outputs with ajv, which compiles validators with `new Function` — refused by the
 * console's CSP. Outputs are parsed with the contract's zod schema instead (callTool below), so the SDK's check is
 * this pass-through.
 */
const passThroughValidator: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input, errorMessage: undefined }) as never,
};

const clients = new Map<Service, Promise<Client>>();

const connect = async (service: Service): Promise<Client> => {
  const client = new Client(
    { name: 'lectern-console', version: '1.0.0' },
    { jsonSchemaValidator: passThroughValidator },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`/svc/${service}/mcp`, location.origin), {
    requestInit: { headers: authHeaders() },
  });
  await client.connect(transport);
  return client;
};

/** Forget the MCP clients (their headers hold the old key). */
export const resetClients = (): void => {
  for (const c of clients.values()) void c.then((client) => client.close()).catch(() => undefined);
  clients.clear();
};

/**
 * Call an MCP tool of a service over Streamable HTTP (the SDK's client, through the proxy). A tool error (the
 * spec's `{status:"error", error_type, message}`) becomes an ApiError in its words; a success is parsed with the
 * tool's contract output schema (extra fields other helpers add are dropped by the parse: read them from `raw`).
 */
export const callTool = async <S extends z.ZodType>(
  service: Service,
  name: string,
  args: Record<string, unknown>,
  schema: S,
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void,
): Promise<{ data: z.infer<S>; raw: unknown }> => {
  let pending = clients.get(service);
  if (!pending) {
    pending = connect(service);
    clients.set(service, pending);
    pending.catch(() => clients.delete(service));
  }
  let result;
  try {
    const client = await pending;
    result = await client.callTool({ name, arguments: args }, undefined, {
      timeout: 600_000,
      resetTimeoutOnProgress: true,
      ...(onProgress ? { onprogress: onProgress } : {}),
    });
  } catch (error) {
    clients.delete(service);
    const message = error instanceof Error ? error.message : String(error);
    if (/401|unauthori[sz]ed/i.test(message)) {
      listeners.forEach((fn) => fn());
      throw new ApiError('unauthorized', 'The service refused the key.');
    }
    throw new ApiError('mcp_error', `The ${service} service could not be asked: ${message}`);
  }
  const content = (result.content as { type: string; text?: string }[] | undefined) ?? [];
  const text = content.find((c) => c.type === 'text')?.text ?? '';
  if (result.isError) {
    let body: { error_type?: string; message?: string; error?: string } = {};
    try {
      body = JSON.parse(text);
    } catch {
      body = { message: text };
    }
    throw new ApiError(body.error_type ?? 'tool_error', body.message ?? body.error ?? 'The tool failed.');
  }
  const raw = result.structuredContent ?? (text ? JSON.parse(text) : null);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ApiError('unexpected_answer', `${name} answered in an unexpected shape.`);
  return { data: parsed.data, raw };
};

/** A message for any error, in plain words. */
export const describeError = (error: unknown): string =>
  error instanceof ApiError
    ? `${error.message} (${error.code})`
    : error instanceof Error
      ? error.message
      : String(error);
