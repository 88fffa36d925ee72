// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, createLogger } from '@lectern/runtime';
import { announceReady, httpShutdownStep, installShutdown } from '@lectern/transport';
import { buildApp } from './app.js';
import { loadConfig, serviceUrls } from './config.js';
import { buildUi, DEFAULT_UI_OUT_DIR, UI_SOURCE_DIR, uiBuildIsFresh } from './ui-build.js';

const start = async () => {
  const config = loadConfig(process.env);
  const logger = createLogger('console', config.LOG_LEVEL);
  // `npm run build` bundles the UI; a checkout whose UI sources changed since rebuilds it here (an installed package
  // ships the bundle without its sources, so there is nothing to compare)
  const sources = existsSync(UI_SOURCE_DIR)
    ? (await readdir(UI_SOURCE_DIR, { recursive: true })).map((f) => join(UI_SOURCE_DIR, f))
    : [];
  if (sources.length > 0 && !(await uiBuildIsFresh(DEFAULT_UI_OUT_DIR, sources))) {
    const built = await buildUi(DEFAULT_UI_OUT_DIR);
    logger.info({ gzip_bytes: built.totalGzipBytes }, 'console UI built');
  }
  const app = buildApp({ config, logger, uiDir: DEFAULT_UI_OUT_DIR });
  installShutdown({ log: logger, steps: [httpShutdownStep(app)] });
  await app.listen({ port: config.CONSOLE_PORT, host: config.HOST });
  const services = serviceUrls(config);
  announceReady(app, logger, {
    service: 'console',
    host: config.HOST,
    // The console itself serves no data: every request to a service carries the key the browser was given.
    auth: true,
    transports: 'UI /, proxy /svc/<service>/',
    details: Object.fromEntries(Object.entries(services).map(([k, v]) => [k, v])),
  });
};

start().catch((error: unknown) => {
  process.stderr.write(`console failed to start: ${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
});
