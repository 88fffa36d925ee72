// SPDX-License-Identifier: AGPL-3.0-or-later
export interface AuthProbe {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface AuthProbeResult {
  probe: string;
  case: 'none' | 'wrong' | 'basic' | 'right';
  status: number;
  body: unknown;
}

/** MCP requests that every MCP endpoint must guard. */
export const mcpAuthProbes: AuthProbe[] = [
  {
    name: 'POST /mcp',
    method: 'POST',
    path: '/mcp',
    headers: { accept: 'application/json, text/event-stream' },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '0' } },
    },
  },
  { name: 'GET /sse', method: 'GET', path: '/sse', headers: { accept: 'text/event-stream' } },
  { name: 'POST /messages/', method: 'POST', path: '/messages/?sessionId=unknown', body: {} },
  { name: 'GET /metrics', method: 'GET', path: '/metrics' },
];

/**
 * Send every probe with no header, a wrong token, a Basic header and the right token. Streams are
 * aborted as soon as the status line arrives, so an open SSE stream does not hold the test.
 */
export const runAuthMatrix = async (
  baseUrl: string,
  token: string,
  probes: AuthProbe[],
): Promise<AuthProbeResult[]> => {
  const cases: Array<[AuthProbeResult['case'], string | undefined]> = [
    ['none', undefined],
    ['wrong', `Bearer not-${token}`],
    ['basic', `Basic ${Buffer.from(`user:${token}`).toString('base64')}`],
    ['right', `Bearer ${token}`],
  ];
  const results: AuthProbeResult[] = [];
  for (const probe of probes) {
    for (const [name, authorization] of cases) {
      const controller = new AbortController();
      const headers: Record<string, string> = { ...(probe.headers ?? {}) };
      if (authorization) headers['authorization'] = authorization;
      if (probe.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(new URL(probe.path, baseUrl), {
        method: probe.method,
        headers,
        body: probe.body === undefined ? undefined : JSON.stringify(probe.body),
        signal: controller.signal,
      });
      const type = response.headers.get('content-type') ?? '';
      const body = type.includes('application/json') ? await response.json() : null;
      controller.abort();
      results.push({ probe: probe.name, case: name, status: response.status, body });
    }
  }
  return results;
};

export const unauthorizedBody = (message: string) => ({ error: { code: 'unauthorized', message } });

/** Check the 401 matrix on a REST service: every probe refused without the right token, `/health` open. */
export const runRestAuthMatrix = async (
  baseUrl: string,
  token: string,
  probes: AuthProbe[],
): Promise<AuthProbeResult[]> =>
  runAuthMatrix(baseUrl, token, [...probes, { name: 'GET /metrics', method: 'GET', path: '/metrics' }]);

/**
 * The specs' 401 matrix: without a header → "Missing Authorization header", a wrong token → "Invalid bearer
 * token", a Basic header → the format message; with the right token the request gets through (any status the
 * route itself answers, never 401). Uses jest's `expect`; for test files only.
 */
export const expectAuthMatrix = (
  results: AuthProbeResult[],
  messages: { missing: string; invalid: string; format: string },
): void => {
  for (const r of results) {
    if (r.case === 'right') {
      expect({ probe: r.probe, status: r.status }).not.toEqual({ probe: r.probe, status: 401 });
      continue;
    }
    expect({ probe: r.probe, status: r.status }).toEqual({ probe: r.probe, status: 401 });
    const message = { none: messages.missing, wrong: messages.invalid, basic: messages.format }[r.case];
    expect(r.body).toEqual(unauthorizedBody(message));
  }
};
