// SPDX-License-Identifier: AGPL-3.0-or-later
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createOriginGuard, type OriginPolicy } from '@lectern/transport';
import type { FastifyInstance } from 'fastify';
import { SERVICE_NAMES, type ServiceName } from './config.js';

/** Request headers passed on to a service: the bearer key, the body's type, and the MCP transport's own. */
const FORWARDED_REQUEST = [
  'authorization',
  'content-type',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
];
/** Response headers passed back. */
const FORWARDED_RESPONSE = [
  'content-type',
  'cache-control',
  'location',
  'retry-after',
  'mcp-session-id',
  'www-authenticate',
  'content-disposition',
];

/**
 * `/svc/<service>/<path>` → the service's `<path>`, streamed both ways (uploads, SSE answers of the MCP transport).
 *
 * Why a same-origin proxy rather than CORS on every service: the browser then talks to one origin, so the strict
 * CSP can say `connect-src 'self'`, no service needs an allowed-origins setting, and the services' own Host/Origin
 * guard (DNS-rebinding protection of the MCP endpoints) stays as it is — the proxy dials them on loopback as any
 * non-browser client does. The proxy holds no secret (the browser sends the key it was given) and applies the same
 * Host/Origin guard itself, so a page on another origin cannot use it. Written here rather than with
 * @fastify/http-proxy because that package is not installed; it is one fetch per request.
 */
export const registerProxyRoutes = (
  app: FastifyInstance,
  deps: { services: Record<ServiceName, string>; originPolicy: OriginPolicy },
): void => {
  app.register(async (scope) => {
    // The body is passed on as it arrives, never parsed here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.addHook('onRequest', createOriginGuard(deps.originPolicy));
    scope.all<{ Params: { service: string; '*': string } }>('/svc/:service/*', async (request, reply) => {
      const { service } = request.params;
      if (!(SERVICE_NAMES as readonly string[]).includes(service))
        return reply
          .code(404)
          .send({ error: { code: 'not_found', message: `No service "${service.slice(0, 40)}" behind the console` } });
      const base = deps.services[service as ServiceName];
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const target = new URL(`/${request.params['*']}${query}`, base);
      const headers: Record<string, string> = {};
      for (const name of FORWARDED_REQUEST) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const abort = new AbortController();
      reply.raw.once('close', () => abort.abort());
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      let upstream: Response;
      try {
        upstream = await fetch(target, {
          method: request.method,
          headers,
          signal: abort.signal,
          redirect: 'manual',
          ...(hasBody ? { body: Readable.toWeb(request.body as Readable) as ReadableStream, duplex: 'half' } : {}),
        } as RequestInit);
      } catch (error) {
        request.log.warn({ err: error, service }, 'service unreachable');
        return reply.code(502).send({
          error: { code: 'service_unavailable', message: `The ${service} service is not reachable.` },
        });
      }
      reply.code(upstream.status);
      for (const name of FORWARDED_RESPONSE) {
        const value = upstream.headers.get(name);
        if (value !== null) reply.header(name, value);
      }
      if (!upstream.body) return reply.send();
      return reply.send(Readable.fromWeb(upstream.body as WebReadableStream));
    });
  });
};
