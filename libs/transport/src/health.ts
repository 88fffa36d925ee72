// SPDX-License-Identifier: AGPL-3.0-or-later
import type { FastifyInstance } from 'fastify';

/** One dependency a service needs to answer (Redis, the vector store): `check` resolves while it is up. */
export interface DependencyCheck {
  name: string;
  check: () => Promise<void>;
}

export type DependencyStatus = 'up' | 'down';

/** Bound of one check: a probe answers within it whatever a dependency does. */
export const DEPENDENCY_CHECK_TIMEOUT_MS = 1_500;

const bounded = async (check: () => Promise<void>, timeoutMs: number): Promise<DependencyStatus> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DependencyStatus>((resolve) => {
    timer = setTimeout(() => resolve('down'), timeoutMs);
  });
  try {
    return await Promise.race([
      check().then(
        () => 'up' as const,
        () => 'down' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/** Every dependency checked at once, each bounded; `{ redis: 'up', vector_store: 'down' }`. */
export const checkDependencies = async (
  checks: readonly DependencyCheck[],
  timeoutMs = DEPENDENCY_CHECK_TIMEOUT_MS,
): Promise<Record<string, DependencyStatus>> => {
  const results = await Promise.all(checks.map(async (c) => [c.name, await bounded(c.check, timeoutMs)] as const));
  return Object.fromEntries(results);
};

/** The probes: no token, any Host (origin-guard.ts `openRoutes`). */
export const PROBE_PATHS = ['/health', '/ready'] as const;

/**
 * `GET /health` (liveness; specs 000/001 FR-009: `{"status":"ok"}`, plus each dependency's state when the service
 * has any — a dependency down does not make the process unhealthy, restarting it would not help) and `GET /ready`
 * (readiness: 200 `{"status":"ready"}` while every dependency is up, else 503 `{"status":"unready"}`, so a
 * Kubernetes readiness probe stops routing to it until they are back). Only up/down is said: the probes are open.
 */
export const registerProbes = (app: FastifyInstance, dependencies: readonly DependencyCheck[]): void => {
  app.get('/health', { schema: { summary: 'Liveness probe (no token needed)', security: [] } }, async () =>
    dependencies.length === 0
      ? { status: 'ok' }
      : { status: 'ok', dependencies: await checkDependencies(dependencies) },
  );
  app.get(
    '/ready',
    { schema: { summary: 'Readiness probe: 503 while a dependency is down (no token needed)', security: [] } },
    async (_request, reply) => {
      const states = await checkDependencies(dependencies);
      const ready = Object.values(states).every((s) => s === 'up');
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unready', dependencies: states });
    },
  );
};
