// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, CommonErrorCodes } from '@lectern/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface RequestSignalOptions {
  /** The route's deadline: the signal aborts with `timeout` (504) after this long. */
  timeoutMs?: number;
}

/** The reason a request's signal carries when its client went away before the answer. */
export const clientClosedError = (): AppError =>
  new AppError('client_closed', 'The client closed the connection before the answer; the operation was cancelled.', {
    httpStatus: 499,
  });

/**
 * An AbortSignal for the work of one REST request, for route handlers to pass to their use case (`{ signal }`).
 * It aborts when the client closes the connection before the response is complete (the response's `close` event
 * with nothing finished: fastify 5 / Node 20 fire the request's `close` as soon as its body has been read, so it
 * cannot tell a departed client), at the route's deadline (`timeout`, 504), and when the service shuts down
 * (`shutting_down`, 503; the app's `inflight` work). Its listeners and timer are released when the response ends.
 */
export const requestSignal = (
  request: FastifyRequest,
  reply: FastifyReply,
  options: RequestSignalOptions = {},
): AbortSignal => {
  const controller = new AbortController();
  const ticket = request.server.inflight.begin();
  const onShutdown = () => controller.abort(ticket.signal.reason);
  if (ticket.signal.aborted) onShutdown();
  else ticket.signal.addEventListener('abort', onShutdown, { once: true });
  const timer =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            controller.abort(
              new AppError(
                CommonErrorCodes.timeout,
                `The request did not finish within ${Math.round(options.timeoutMs! / 1000)} s and was cancelled.`,
                { httpStatus: 504 },
              ),
            ),
          options.timeoutMs,
        );
  if (request.raw.socket?.destroyed && !reply.raw.writableFinished) controller.abort(clientClosedError());
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) {
      request.log.info('client closed the connection before the answer: cancelling its work');
      controller.abort(clientClosedError());
    }
    clearTimeout(timer);
    ticket.signal.removeEventListener('abort', onShutdown);
    ticket.end();
  });
  return controller.signal;
};
