// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, CommonErrorCodes, JobErrorSchema, type JobError } from '@lectern/contracts';
import { z } from 'zod';

const GENERIC_MESSAGE = 'The job failed with an internal error. The worker log has the details.';

/** The code of a job that failed because its workers kept disappearing under it (BullMQ's stall limit). */
export const JOB_STALLED = 'stalled';
const STALLED_MESSAGE =
  'The job stalled more often than allowed: the worker running it stopped (killed, or blocked past its lock).';

const PERMANENT = Symbol.for('lectern.queue.permanent');

/** Mark an error as not worth retrying although its status is not 4xx (e.g. a conversion timeout). */
export const markPermanent = <E extends Error>(error: E): E => Object.assign(error, { [PERMANENT]: true });

/** Input that can never succeed: an AppError with a 4xx status (bad file, unsupported type, too large, ...), or a marked error. */
export const isPermanentError = (error: unknown): boolean =>
  (error instanceof Error && (error as { [PERMANENT]?: boolean })[PERMANENT] === true) ||
  (error instanceof AppError && error.httpStatus >= 400 && error.httpStatus < 500);

/** The client-safe record of a failure: AppErrors keep code and message, anything else is `internal_error`. */
export const toJobError = (error: unknown): JobError =>
  error instanceof AppError
    ? { code: error.code, message: error.message, http_status: error.httpStatus }
    : { code: CommonErrorCodes.internal, message: GENERIC_MESSAGE, http_status: 500 };

export const jobErrorToAppError = (error: JobError): AppError =>
  new AppError(error.code, error.message, { httpStatus: error.http_status });

/** BullMQ keeps only a failure string (`failedReason`): the JobError travels in it as JSON. */
export const encodeJobError = (error: JobError): string => JSON.stringify(error);

export const decodeJobError = (reason: string | undefined): JobError => {
  if (reason) {
    try {
      const parsed = JobErrorSchema.safeParse(JSON.parse(reason));
      if (parsed.success) return parsed.data;
    } catch {
      // not ours: BullMQ's own reasons
    }
    // "job stalled more than allowable limit": its workers were lost (killed, or blocked past the lock) too often
    if (/stalled/i.test(reason)) return { code: JOB_STALLED, message: STALLED_MESSAGE, http_status: 500 };
  }
  return toJobError(new Error(reason));
};

/** A payload that does not match the queue's schema: a producer bug, reported as `invalid_arguments`. */
export const invalidPayload = (queue: string, error: z.ZodError): AppError =>
  new AppError(
    CommonErrorCodes.invalidArguments,
    `Invalid job payload for queue "${queue}": ${z.prettifyError(error)}`,
    {
      httpStatus: 400,
      cause: error,
    },
  );
