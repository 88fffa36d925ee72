#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// `npm start`: every Lectern service, embedded defaults, one terminal. Each service is its own process
// (as in compose/Kubernetes) and inherits this environment, so any variable set for `npm start` is honoured.
//
// A service that exits on its own (a crash, an out-of-memory abort, kill -9) is restarted after a backoff
// (LECTERN_RESTART_DELAY_MS, doubling per quick failure up to LECTERN_RESTART_MAX_DELAY_MS; a service that ran
// for a minute starts again from the first delay); the others keep running. SIGTERM/SIGINT are forwarded to
// every running service, each shuts down in its own order, pending restarts are cancelled, and this launcher
// exits when all have (LECTERN_STOP_TIMEOUT_MS later, any left are killed). LECTERN_SERVICES (comma-separated names) starts only some of them.
//
// The services run compiled (the production build, `dist/`: tools/build.mjs), built first when the build is
// stale (tools/build-state.mjs: a few hundred `stat`s) or missing; nothing compiles TypeScript at run time. Every app
// the build found (`apps/<name>/src/main.ts`) is a service. `lectern start` runs this same launcher.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearTimeout, setTimeout } from 'node:timers';
import { DIST, readBuildInfo, staleReason } from './build-state.mjs';

const say = (message) => process.stderr.write(`lectern: ${message}\n`);

let info = readBuildInfo();
if (staleReason(info) !== null) {
  try {
    // the build's modules (esbuild) are loaded only when there is something to build
    info = await (await import('./build.mjs')).ensureBuilt();
  } catch (error) {
    say(`the build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
// Node 22.1+ keeps the compiled code of every module in this directory across starts (Node 20 ignores it)
const childEnv = { NODE_COMPILE_CACHE: join(tmpdir(), 'lectern-node-compile-cache'), ...process.env };
// Node 20: the same through a preloaded hook (tools/compile-cache.cjs; on Node 22 it turns NODE_COMPILE_CACHE's on);
// left out where the file is not shipped (an image that copies only this launcher)
const compileCache = fileURLToPath(new URL('./compile-cache.cjs', import.meta.url));
const nodeArgs = existsSync(compileCache) ? ['--require', compileCache] : [];
const ALL = info.apps.map((name) => ({ name, entry: join(DIST, 'apps', name, 'src', 'main.cjs') }));

const positiveInt = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    say(`${name} must be a positive integer (got "${raw}")`);
    process.exit(2);
  }
  return value;
};

const firstDelayMs = positiveInt('LECTERN_RESTART_DELAY_MS', 1000);
const maxDelayMs = positiveInt('LECTERN_RESTART_MAX_DELAY_MS', 30_000);
const stopTimeoutMs = positiveInt('LECTERN_STOP_TIMEOUT_MS', 60_000);
const STABLE_MS = 60_000;

const selected = (process.env.LECTERN_SERVICES ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = selected.filter((name) => !ALL.some((s) => s.name === name));
if (unknown.length > 0) {
  say(`unknown service(s) in LECTERN_SERVICES: ${unknown.join(', ')} (known: ${ALL.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
const services = ALL.filter((s) => selected.length === 0 || selected.includes(s.name)).map((s) => ({
  ...s,
  child: undefined,
  startedAt: 0,
  failures: 0,
  timer: undefined,
}));

mkdirSync(process.env.DATA_DIR || './data', { recursive: true });

let stopping = false;

const running = () => services.filter((s) => s.child !== undefined);

const exitWhenAllStopped = () => {
  if (stopping && running().length === 0) process.exit(0);
};

const start = (service) => {
  service.timer = undefined;
  const child = spawn(process.execPath, [...nodeArgs, service.entry], { stdio: 'inherit', env: childEnv });
  service.child = child;
  service.startedAt = Date.now();
  say(`started ${service.name} (pid ${child.pid})`);
  child.on('error', (error) => say(`${service.name}: ${error.message}`));
  child.on('exit', (code, signal) => {
    service.child = undefined;
    if (stopping) return exitWhenAllStopped();
    if (Date.now() - service.startedAt >= STABLE_MS) service.failures = 0;
    const delay = Math.min(maxDelayMs, firstDelayMs * 2 ** service.failures);
    service.failures += 1;
    say(
      `${service.name} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms (restart ${service.failures}); the others keep running`,
    );
    service.timer = setTimeout(() => start(service), delay);
  });
};

const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  say(
    `${signal}: stopping ${
      running()
        .map((s) => s.name)
        .join(', ') || 'nothing'
    }`,
  );
  for (const service of services) {
    if (service.timer) clearTimeout(service.timer);
    service.timer = undefined;
    service.child?.kill('SIGTERM');
  }
  exitWhenAllStopped();
  // A service that has not finished its shutdown by then is killed.
  setTimeout(() => {
    for (const service of running()) {
      say(`${service.name} did not stop within ${stopTimeoutMs} ms; killing it`);
      service.child.kill('SIGKILL');
    }
  }, stopTimeoutMs).unref();
};

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
for (const service of services) start(service);
if (services.some((s) => s.name === 'console'))
  say(`console: http://localhost:${process.env.CONSOLE_PORT || 3000}/ (ready once its services are)`);
