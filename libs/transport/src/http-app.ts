// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, CommonErrorCodes } from '@lectern/contracts';
import {
  AuthMessages,
  checkAuthorization,
  createTokenVerifier,
  installBearerAuth,
  installOAuth,
  LecternScopes,
  type LecternScope,
  type OAuthSettings,
} from '@lectern/auth';
import cors from '@fastify/cors';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { InflightWork } from './inflight.js';
import { ServiceMetrics } from './metrics.js';
import { OPENAPI_PATHS, registerOpenApi } from './openapi.js';
import { SOURCE_PATH, registerSourceRoute, sourceLink } from './source.route.js';
import { PROBE_PATHS, registerProbes, type DependencyCheck } from './health.js';
import { MCP_PATHS, createSiteGuard, isConfiguredOrigin, type OriginPolicy } from './origin-guard.js';

/** Probes: their request lines are logged at `debug`, so a console at `info` is not a wall of health checks. */
const QUIET_ROUTES = new Set(['/health', '/ready', '/metrics']);
/** Methods that change nothing: `lectern:read` in OAuth mode (except an MCP POST, scoped by what it calls). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  /** Bearer token; unset or empty disables authentication. */
  apiKey: string | undefined;
  /**
   * `AUTH_MODE=oauth` (`oauthSettings(config)` of libs/auth): OAuth 2.1 access tokens instead of the key. Each route
   * needs a scope: read for GET/HEAD, write for other methods, admin where `adminRoute` says; MCP tool calls the
   * scope of their tool (mcp-app.ts).
   */
  oauth?: OAuthSettings | undefined;
  /** OAuth mode: the routes that need `lectern:admin` (policy-kb-mcp: changes under `/api/policies`). */
  adminRoute?: (method: string, route: string) => boolean;
  metrics?: ServiceMetrics;
  /**
   * `METRICS_TOKEN`: a bearer token that opens `GET /metrics` and nothing else, so a Prometheus scrape job needs no
   * full key. `/metrics` then also takes the service's key (bearer mode); in OAuth mode only this token. Unset: `/metrics`
   * is behind the same credential as every other route.
   */
  metricsToken?: string | undefined;
  /**
   * `MCP_ALLOWED_HOSTS` / `MCP_ALLOWED_ORIGINS` (default: loopback names on the listen port): checked on the MCP
   * endpoints, on every state-changing request, and on every request when no credential is required
   * (origin-guard.ts `createSiteGuard`). The configured origins are also the only ones CORS answers.
   */
  originPolicy?: OriginPolicy;
  /** What `/health` reports and `/ready` needs up (the platform's `dependencyChecks()`); default none. */
  dependencies?: readonly DependencyCheck[];
  bodyLimitBytes?: number;
  /** Title, version and description of the service's OpenAPI document (default: the service name). */
  openapi?: { title?: string; version?: string; description?: string; paths?: { json: string; page: string } };
}

/**
 * The fastify base every Lectern service shares: bearer auth on everything but `/health` and the OpenAPI
 * document and page, `GET /health` → `{"status":"ok"}`, `GET /metrics` (Prometheus text), request metrics
 * per route, one request line at `info` when answered (probes at `debug`), `GET /openapi.json` + `/docs` for the routes
 * registered after this, and one REST error shape (`{"error":{"code","message"}}`) with no internals leaked.
 */
export const createHttpApp = (options: HttpAppOptions): FastifyInstance => {
  const metrics = options.metrics ?? new ServiceMetrics(options.service);
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimitBytes ?? 32 * 1024 * 1024,
    // Logged below instead, so that probes can log at debug.
    disableRequestLogging: true,
    // SSE streams never become idle; `preClose` hooks end them, then the server closes.
    forceCloseConnections: 'idle',
  });
  app.decorate('metrics', metrics);
  // AGPL-3.0 §13: every answer says where this program's source is (LECTERN_SOURCE_URL, else GET /source here)
  const link = `<${sourceLink()}>; rel="source"`;
  // In-flight tool calls and REST requests (request-signal.ts): on close, once fastify refuses new requests (503),
  // their signals are aborted with `shutting_down` so the work stops at its next boundary; registered before any
  // other preClose hook (the MCP streams close after their calls have answered).
  const inflight = new InflightWork();
  app.decorate('inflight', inflight);
  app.addHook('preClose', async () => {
    if (inflight.size > 0) app.log.info({ in_flight: inflight.size }, 'aborting in-flight work');
    await inflight.abortAll();
  });
  // Route schemas document the API (OpenAPI); the zod contracts parse requests and results, so fastify's own
  // validation and serialisation stay out of the way (a response schema would otherwise drop unknown fields).
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // One line per request at info, when it is answered, carrying the request (method, url, host, remote address) and
  // the response (status, time); the line on arrival is at debug. Two lines per request were a tenth of a cheap MCP
  // call's CPU (docs/benchmarks/document-store.md, "Cost of one call"). Measured on the raw response so hijacked
  // replies (MCP transports) are counted too. A plain (not async) hook: fastify then skips a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('link', link);
    const started = process.hrtime.bigint();
    const quiet = QUIET_ROUTES.has(request.routeOptions.url ?? '');
    request.log.debug({ req: request }, 'incoming request');
    reply.raw.once('finish', () => {
      request.log[quiet ? 'debug' : 'info'](
        { req: request, res: reply, responseTime: Number(process.hrtime.bigint() - started) / 1e6 },
        'request completed',
      );
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.raw.statusCode),
      };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    done();
  });

  // Host/Origin: before authentication, so a request from another site is refused whatever it carries.
  const authRequired = Boolean(options.apiKey) || options.oauth !== undefined;
  app.addHook(
    'onRequest',
    createSiteGuard({
      ...(options.originPolicy ? { policy: options.originPolicy } : {}),
      authRequired,
      mcpRoutes: MCP_PATHS,
      openRoutes: PROBE_PATHS,
    }),
  );
  // CORS only for the configured origins (none by default: a browser page elsewhere cannot read an answer).
  const corsOrigins = (options.originPolicy?.allowedOrigins ?? []).filter((o) => o.trim() !== '');
  if (corsOrigins.length > 0) {
    app.register(cors, {
      origin: (origin, callback) => callback(null, origin !== undefined && isConfiguredOrigin(origin, corsOrigins)),
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: [
        'authorization',
        'content-type',
        'accept',
        'mcp-session-id',
        'mcp-protocol-version',
        'last-event-id',
      ],
      exposedHeaders: ['mcp-session-id', 'www-authenticate'],
      credentials: false,
      maxAge: 600,
    });
  }

  // Where the OpenAPI document and page are served (default `/openapi.json` and `/docs`; policy-kb-mcp: under `/api`).
  const docs = options.openapi?.paths ?? OPENAPI_PATHS;
  const metricsToken = options.metricsToken?.trim() || undefined;
  // With a metrics token, `/metrics` is checked by its own route (below), which takes that token or the key.
  const open = {
    exemptPaths: [...PROBE_PATHS, SOURCE_PATH, docs.json, docs.page, ...(metricsToken ? ['/metrics'] : [])],
    exemptRoutePrefixes: [`${docs.page}/`],
  };
  if (options.oauth) {
    const adminRoute = options.adminRoute ?? (() => false);
    installOAuth(app, {
      ...open,
      verifier: createTokenVerifier(options.oauth),
      resourceName: options.service,
      routeScope: (method, route): LecternScope => {
        // an MCP POST needs what its messages call: checked once the body is parsed (mcp-app.ts)
        if (SAFE_METHODS.has(method) || MCP_PATHS.includes(route ?? '')) return LecternScopes.read;
        return route !== undefined && adminRoute(method, route) ? LecternScopes.admin : LecternScopes.write;
      },
    });
  } else {
    installBearerAuth(app, { apiKey: options.apiKey, ...open });
  }

  registerOpenApi(app, {
    title: options.openapi?.title ?? options.service,
    version: options.openapi?.version ?? '0.0.0',
    ...(options.openapi?.description ? { description: options.openapi.description } : {}),
    paths: docs,
  });
  // In a plugin registered after the OpenAPI one, so that the document lists them.
  app.register(async (scope) => {
    registerProbes(scope, options.dependencies ?? []);
    registerSourceRoute(scope);
    scope.get(
      '/metrics',
      {
        schema: { summary: 'Prometheus metrics (text exposition format)' },
        ...(metricsToken
          ? {
              onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
                const header = request.headers.authorization;
                const decision = checkAuthorization(header, metricsToken);
                if (decision.ok) return;
                // the full key opens it too (bearer mode); an OAuth token does not (scrape with the metrics token)
                if (options.apiKey && !options.oauth && checkAuthorization(header, options.apiKey).ok) return;
                request.log.warn(
                  { event: 'auth_failed', reason: decision.reason, client_ip: request.ip, path: '/metrics' },
                  'authentication failed',
                );
                return reply
                  .code(401)
                  .header('www-authenticate', 'Bearer')
                  .send({ error: { code: 'unauthorized', message: AuthMessages[decision.reason] } });
              },
            }
          : {}),
      },
      async (_request, reply) => {
        reply.header('content-type', metrics.registry.contentType);
        return metrics.registry.metrics();
      },
    );
  });

  app.setNotFoundHandler(async (request, reply) =>
    reply
      .code(404)
      .send({ error: { code: 'not_found', message: `No route for ${request.method} ${request.url.split('?')[0]}` } }),
  );

  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof AppError) return reply.code(error.httpStatus).send(error.toRestError());
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const code = (error as { code?: string }).code;
      return reply.code(status).send({
        error: {
          code: code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'too_large' : 'bad_request',
          message: (error as Error).message,
        },
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({
      error: {
        code: CommonErrorCodes.internal,
        message: 'An internal error occurred. The server log has the details.',
      },
    });
  });

  return app;
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ServiceMetrics;
    /** The work in flight (tool calls, REST requests with a signal), aborted on close. */
    inflight: InflightWork;
  }
}
