import { AppError, CommonErrorCodes } from '@lectern/contracts';
import { installBearerAuth } from '@lectern/auth';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ServiceMetrics } from './metrics.js';

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  /** Bearer token; unset or empty disables authentication. */
  apiKey: string | undefined;
  metrics?: ServiceMetrics;
  bodyLimitBytes?: number;
}

/**
 * The fastify base every Lectern service shares: bearer auth on everything but `/health`,
 * `GET /health` → `{"status":"ok"}`, `GET /metrics` (Prometheus text), request metrics per route,
 * and one REST error shape (`{"error":{"code","message"}}`) with no internals leaked.
 */
export const createHttpApp = (options: HttpAppOptions): FastifyInstance => {
  const metrics = options.metrics ?? new ServiceMetrics(options.service);
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: options.bodyLimitBytes ?? 32 * 1024 * 1024,
    disableRequestLogging: false,
    // SSE streams never become idle; `preClose` hooks end them, then the server closes.
    forceCloseConnections: 'idle',
  });
  app.decorate('metrics', metrics);

  // Measured on the raw response so hijacked replies (MCP transports) are counted too.
  app.addHook('onRequest', async (request, reply) => {
    const started = process.hrtime.bigint();
    reply.raw.once('finish', () => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.raw.statusCode),
      };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
  });

  installBearerAuth(app, { apiKey: options.apiKey, exemptPaths: ['/health'] });

  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  app.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send({ error: { code: 'not_found', message: `No route for ${request.method} ${request.url.split('?')[0]}` } }),
  );

  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof AppError) return reply.code(error.httpStatus).send(error.toRestError());
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const code = (error as { code?: string }).code;
      return reply.code(status).send({
        error: { code: code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'too_large' : 'bad_request', message: (error as Error).message },
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .send({ error: { code: CommonErrorCodes.internal, message: 'An internal error occurred. The server log has the details.' } });
  });

  return app;
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ServiceMetrics;
  }
}
