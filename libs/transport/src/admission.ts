// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

export interface AdmissionOptions {
  /** Requests served at once. */
  concurrency: number;
  /** Requests that may wait for a slot; one more is refused at once. */
  maxWaiting: number;
  /** `Retry-After` of a refusal, in seconds. */
  retryAfterSeconds: number;
}

/**
 * Admission control for expensive routes: at most `concurrency` requests run, at most `maxWaiting` more wait
 * (first come, first served), and any other is answered 503 `overloaded` with `Retry-After` before its body is
 * read. A slot is held until the response is finished or the connection closes; a client that hangs up while
 * waiting leaves the queue.
 */
export const createAdmission = (options: AdmissionOptions) => {
  let running = 0;
  const waiting: Array<{ go: () => void }> = [];

  const next = (): void => {
    running -= 1;
    const first = waiting.shift();
    if (first) {
      running += 1;
      first.go();
    }
  };

  /** Fastify `onRequest` hook for the routes it guards (after authentication, before the body). */
  const onRequest: onRequestAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (running >= options.concurrency && waiting.length >= options.maxWaiting) {
      reply.header('retry-after', String(options.retryAfterSeconds));
      throw new AppError(
        'overloaded',
        `The server is busy (${running} running, ${waiting.length} waiting); retry later.`,
        {
          httpStatus: 503,
        },
      );
    }
    if (running < options.concurrency) running += 1;
    else {
      const admitted = await new Promise<boolean>((resolve) => {
        const entry = { go: () => resolve(true) };
        waiting.push(entry);
        reply.raw.once('close', () => {
          const at = waiting.indexOf(entry);
          if (at >= 0) {
            waiting.splice(at, 1);
            resolve(false);
          }
        });
      });
      if (!admitted) {
        reply.hijack(); // the client is gone: nothing to answer
        return;
      }
    }
    request.log.debug({ running, waiting: waiting.length }, 'admitted');
    if (reply.raw.closed) next();
    else reply.raw.once('close', next);
  };

  return { onRequest, stats: () => ({ running, waiting: waiting.length }) };
};

export type Admission = ReturnType<typeof createAdmission>;
