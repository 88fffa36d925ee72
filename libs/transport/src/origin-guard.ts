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

const originAllowed = (origin: string, allowed: readonly string[], localPort: string): boolean => {
  const o = normaliseOrigin(origin);
  if (allowed.length === 0) {
    return LOOPBACK_NAMES.some((name) => o === `http://${name}:${localPort}` || o === `https://${name}:${localPort}`);
  }
  return allowed.some((entry) => entry === '*' || normaliseOrigin(entry) === o);
};

const refuse = (reply: FastifyReply, request: FastifyRequest, what: 'Host' | 'Origin', value: string) => {
  request.log.warn(
    { event: 'dns_rebinding_refused', header: what, value, path: request.url.split('?')[0] },
    `${what} not allowed`,
  );
  return reply
    .code(403)
    .send({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: ${what} header not allowed` }, id: null });
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
    // light-my-request (`inject`) has no socket port: it speaks to port 80.
    const localPort = String(request.socket.localPort ?? 80);
    const host = request.headers.host ?? '';
    if (!hostAllowed(host, hosts, localPort)) return refuse(reply, request, 'Host', host);
    const origin = request.headers.origin;
    if (origin !== undefined && !originAllowed(origin, origins, localPort))
      return refuse(reply, request, 'Origin', origin);
  };
};
