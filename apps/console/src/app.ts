// SPDX-License-Identifier: AGPL-3.0-or-later
import fastifyStatic from '@fastify/static';
import type { Logger } from '@lectern/runtime';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { consoleOAuth, serviceUrls, type ConsoleConfig } from './config.js';
import { registerOAuthRoutes } from './oauth.route.js';
import { registerProxyRoutes } from './proxy.route.js';

/**
 * The console's Content-Security-Policy: only its own scripts and styles (no inline script, no eval, no CDN), its
 * own origin for every request (the services are behind `/svc/`), page images from itself or blob URLs.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface ConsoleDeps {
  config: ConsoleConfig;
  logger: Logger;
  /** The built UI (index.html, app.js, app.css): see ui-build.ts. */
  uiDir: string;
}

/** Compose the console without listening (tests use `inject()` or listen on port 0). */
export const buildApp = (deps: ConsoleDeps): FastifyInstance => {
  const { config } = deps;
  const app = Fastify({ loggerInstance: deps.logger as FastifyBaseLogger, forceCloseConnections: 'idle' });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-security-policy', CONSOLE_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    return payload;
  });
  app.get('/health', async () => ({ status: 'ok' }));
  app.register(fastifyStatic, { root: deps.uiDir, prefix: '/', index: ['index.html'], cacheControl: false });
  const originPolicy = { allowedHosts: config.CONSOLE_ALLOWED_HOSTS, allowedOrigins: config.CONSOLE_ALLOWED_ORIGINS };
  registerProxyRoutes(app, { services: serviceUrls(config), originPolicy });
  registerOAuthRoutes(app, { oauth: consoleOAuth(config), originPolicy });
  app.setNotFoundHandler(async (request, reply) =>
    reply
      .code(404)
      .send({ error: { code: 'not_found', message: `No route for ${request.method} ${request.url.split('?')[0]}` } }),
  );
  return app;
};
