// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, PolicyRegistryErrorCodes as Codes } from '@lectern/contracts';
import type { ZodError, ZodType, z } from 'zod';

export const registryUnavailable = (backend: string, cause: unknown): AppError =>
  new AppError(Codes.registryUnavailable, `The policy registry (${backend}) is unavailable; try again later.`, {
    httpStatus: 503,
    cause,
  });

export const policyNotFound = (source: string): AppError =>
  new AppError(Codes.policyNotFound, `Policy not found: ${source}`, { httpStatus: 404 });

export const revisionNotFound = (source: string, revisionId: string): AppError =>
  new AppError(Codes.revisionNotFound, `Revision not found: ${revisionId} for policy ${source}`, { httpStatus: 404 });

const DATE_FIELDS = new Set(['effective_from', 'effective_to', 'date']);

const fromZod = (error: ZodError): AppError => {
  const details = error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`);
  const dates = error.issues.every((i) => DATE_FIELDS.has(String(i.path[0])));
  return dates
    ? new AppError(Codes.invalidDate, details.join('; '), { details })
    : new AppError(Codes.invalidArguments, `Invalid arguments: ${details.join('; ')}`, { details });
};

/** Parse input at the port's boundary: bad dates answer `invalid_date`, anything else `invalid_arguments`. */
export const parseInput = <S extends ZodType>(schema: S, value: unknown): z.infer<S> => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
};
