// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, CommonErrorCodes } from '@lectern/contracts';

/** One unit of in-flight work (a tool call, a REST request): its signal, and `end()` when it is over. */
export interface InflightTicket {
  readonly signal: AbortSignal;
  end(): void;
}

/** The reason every in-flight signal carries when the service shuts down (HTTP 503). */
export const shuttingDownError = (): AppError =>
  new AppError(
    CommonErrorCodes.shuttingDown,
    'The service is shutting down; the operation was cancelled. Retry later.',
    {
      httpStatus: 503,
    },
  );

/**
 * The work a service is doing right now, so that shutdown can tell all of it to stop: every MCP tool call and every
 * REST request that asked for a signal holds a ticket until it ends. `abortAll` aborts every ticket's signal (and
 * any ticket taken afterwards starts aborted), then waits — bounded — for them to end. Each ticket owns its own
 * controller, removed when it ends, so nothing long-lived accumulates listeners.
 */
export class InflightWork {
  private readonly tickets = new Set<AbortController>();
  private stopReason: unknown;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  get size(): number {
    return this.tickets.size;
  }

  begin(): InflightTicket {
    const controller = new AbortController();
    if (this.stopped) controller.abort(this.stopReason);
    let ended = false;
    this.tickets.add(controller);
    return {
      signal: controller.signal,
      end: () => {
        if (ended) return;
        ended = true;
        this.tickets.delete(controller);
        if (this.tickets.size === 0) this.notifyIdle();
      },
    };
  }

  /** Abort every in-flight signal with `reason`; resolves when all have ended or after `waitMs`. */
  async abortAll(reason: unknown = shuttingDownError(), waitMs = 2_000): Promise<void> {
    this.stopped = true;
    this.stopReason = reason;
    for (const controller of this.tickets) controller.abort(reason);
    if (this.tickets.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      timer.unref();
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
