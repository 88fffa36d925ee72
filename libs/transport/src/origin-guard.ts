// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

/**
 * Which `Host` and `Origin` values the MCP endpoints accept (DNS-rebinding protection, as the MCP transport
 * specification requires). Empty lists mean the defaults: loopback names on the port the request arrived on.
 */
export interface OriginPolicy {
  /** `MCP_ALLOWED_HOSTS`: `name` (any port) or `name:port`; `*` accepts any Host. */
  allowedHosts?: readonly string[];
  /** `MCP_ALLOWED_ORIGINS`: `scheme://name[:port]`; `*` accepts any Origin. A request without Origin always passes. */
  allowedOrigins?: readonly string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The MCP endpoints: what the Host/Origin guard always covers. */
export const MCP_PATHS: readonly string[] = ['/mcp', '/sse', '/messages/'];

/** Split `name[:port]` (IPv6 in brackets) into its lower-cased name and port ('' when absent). */
export const splitHost = (value: string): { name: string; port: string } => {
  const v = value.trim().toLowerCase();
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(v);
  return m ? { name: m[1] ?? '', port: m[2] ?? '' } : { name: v, port: '' };
};

const hostAllowed = (header: string, allowed: readonly string[], localPort: string): boolean => {
  const { name, port } = splitHost(header);
  if (allowed.length === 0) {
    // Default: a loopback name on the port we listen on (no port in Host means 80).
    return LOOPBACK_NAMES.includes(name) && (port || '80') === localPort;
  }
  return allowed.some((entry) => {
    if (entry === '*') return true;
    const e = splitHost(entry);
    return e.name === name && (e.port === '' || e.port === port);
  });
};

const normaliseOrigin = (value: string): string => value.trim().toLowerCase().replace(/\/+$/, '');

/** Whether `origin` is one of the configured ones (`*`: any); the CORS allow-list. */
export const isConfiguredOrigin = (origin: string, allowed: readonly string[]): boolean => {
  const o = normaliseOrigin(origin);
  return allowed.some((entry) => entry === '*' || normaliseOrigin(entry) === o);
};

const originAllowed = (origin: string, allowed: readonly string[], localPort: string): boolean => {
  const o = normaliseOrigin(origin);
  if (allowed.length === 0) {
    return LOOPBACK_NAMES.some((name) => o === `http://${name}:${localPort}` || o === `https://${name}:${localPort}`);
  }
  return isConfiguredOrigin(o, allowed);
};

type Refusal = 'mcp' | 'rest';

const refuse = (reply: FastifyReply, request: FastifyRequest, what: 'Host' | 'Origin', value: string, as: Refusal) => {
  request.log.warn(
    { event: 'dns_rebinding_refused', header: what, value, path: request.url.split('?')[0], method: request.method },
    `${what} not allowed`,
  );
  const message = `Forbidden: ${what} header not allowed`;
  return reply
    .code(403)
    .send(
      as === 'mcp'
        ? { jsonrpc: '2.0', error: { code: -32000, message }, id: null }
        : { error: { code: 'forbidden', message } },
    );
};

/** The Host/Origin decision for one request; `undefined` when both are allowed. */
const check = (request: FastifyRequest, hosts: readonly string[], origins: readonly string[]) => {
  // light-my-request (`inject`) has no socket port: it speaks to port 80.
  const localPort = String(request.socket.localPort ?? 80);
  const host = request.headers.host ?? '';
  if (!hostAllowed(host, hosts, localPort)) return { what: 'Host', value: host } as const;
  const origin = request.headers.origin;
  if (origin !== undefined && !originAllowed(origin, origins, localPort))
    return { what: 'Origin', value: origin } as const;
  return undefined;
};

/**
 * An `onRequest` hook refusing (403) a request whose `Host` or `Origin` is not allowed: a web page an attacker
 * controls cannot reach a local MCP server by rebinding its own domain name to 127.0.0.1 (the browser sends the
 * attacker's Host and Origin). Non-browser clients send no Origin and a Host naming the address they dialled.
 */
export const createOriginGuard = (policy: OriginPolicy = {}): onRequestAsyncHookHandler => {
  const hosts = policy.allowedHosts ?? [];
  const origins = policy.allowedOrigins ?? [];
  return async (request, reply) => {
    const refused = check(request, hosts, origins);
    if (refused) return refuse(reply, request, refused.what, refused.value, 'mcp');
  };
};

/** Methods that change nothing (RFC 9110 safe methods). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SiteGuardOptions {
  policy?: OriginPolicy;
  /** Whether every request needs a credential (a bearer key or an OAuth token). */
  authRequired: boolean;
  /** Route patterns always checked, answered in JSON-RPC's shape (the MCP endpoints). */
  mcpRoutes: readonly string[];
  /** Route patterns never checked (the probes a kubelet or load balancer calls with the pod's address as Host). */
  openRoutes: readonly string[];
}

/**
 * The Host/Origin guard of a whole service (issue 30: "REST safe from other sites"). A browser page on another site
 * can send a cross-origin form POST (multipart included) without any CORS preflight, and a rebound domain name
 * reaches a loopback service with the attacker's Host; so the checks of the MCP endpoints also apply to
 * - every state-changing request (any method but GET/HEAD/OPTIONS) on every route, key or no key, and
 * - every request when no credential is required (then a read answers data to anyone who can reach the port).
 * The probes in `openRoutes` stay open: they carry no data and are called with whatever Host the prober dialled.
 */
export const createSiteGuard = (options: SiteGuardOptions): onRequestAsyncHookHandler => {
  const hosts = options.policy?.allowedHosts ?? [];
  const origins = options.policy?.allowedOrigins ?? [];
  const mcp = new Set(options.mcpRoutes);
  const open = new Set(options.openRoutes);
  return async (request, reply) => {
    const route = request.routeOptions.url ?? '';
    const isMcp = mcp.has(route);
    if (!isMcp) {
      if (open.has(route)) return;
      if (options.authRequired && SAFE_METHODS.has(request.method)) return;
    }
    const refused = check(request, hosts, origins);
    if (refused) return refuse(reply, request, refused.what, refused.value, isMcp ? 'mcp' : 'rest');
  };
};
