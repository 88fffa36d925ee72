// SPDX-License-Identifier: AGPL-3.0-or-later
import type { Logger } from 'pino';

export interface ShutdownStep {
  name: string;
  close(): Promise<void> | void;
}

export interface ShutdownOptions {
  log: Logger;
  /** Run in this order: HTTP (and its streams) first, then workers, queues, Redis, stores. */
  steps: readonly ShutdownStep[];
  signals?: readonly NodeJS.Signals[];
  /** After this long the process exits with code 1 even if a step hangs. */
  timeoutMs?: number;
  exit?: (code: number) => void;
}

/**
 * The one ordered shutdown routine. Returns `shutdown(reason)` so callers and tests can trigger it;
 * the same routine runs on SIGTERM and SIGINT. A second signal while shutting down exits at once.
 */
export const installShutdown = (options: ShutdownOptions): ((reason: string) => Promise<void>) => {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  let running: Promise<void> | undefined;

  const shutdown = (reason: string): Promise<void> => {
    if (running) return running;
    running = (async () => {
      options.log.info({ reason }, 'shutting down');
      const timer = setTimeout(() => {
        options.log.error({ timeout_ms: options.timeoutMs }, 'shutdown timed out; exiting');
        exit(1);
      }, options.timeoutMs ?? 15_000);
      timer.unref();
      let failed = false;
      for (const step of options.steps) {
        try {
          await step.close();
          options.log.info({ step: step.name }, 'shutdown step done');
        } catch (error) {
          failed = true;
          options.log.error({ step: step.name, err: error }, 'shutdown step failed');
        }
      }
      clearTimeout(timer);
      options.log.info({ ok: !failed }, 'shutdown complete');
      // Let buffered log lines reach stdout before the process ends.
      await new Promise<void>((resolve) => options.log.flush(() => resolve()));
      exit(failed ? 1 : 0);
    })();
    return running;
  };

  for (const signal of signals) {
    process.on(signal, () => {
      if (running) {
        options.log.warn({ signal }, 'second signal during shutdown; exiting now');
        exit(1);
        return;
      }
      void shutdown(signal);
    });
  }
  return shutdown;
};
