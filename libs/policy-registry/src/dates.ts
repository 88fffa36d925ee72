// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, isCalendarDay, PolicyRegistryErrorCodes } from '@lectern/contracts';

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` day: the score of `policy_revisions:{source}` (spec 001 FR-007). */
export const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / MS_PER_DAY;

/** The `YYYY-MM-DD` day of a day number. */
export const dayFromNumber = (n: number): string => new Date(n * MS_PER_DAY).toISOString().slice(0, 10);

export const addDays = (day: string, days: number): string => dayFromNumber(dayNumber(day) + days);

/** The day as the integer `YYYYMMDD` the vector store's chunk payloads carry (`99991231` for open-ended). */
export const dateInt = (day: string | null): number => (day === null ? 99_991_231 : Number(day.replaceAll('-', '')));

/** A client's date, checked: a real calendar day `YYYY-MM-DD`, else `invalid_date`. */
export const parseDay = (value: unknown, field = 'date'): string => {
  if (typeof value === 'string' && isCalendarDay(value)) return value;
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
  throw new AppError(PolicyRegistryErrorCodes.invalidDate, `${field} must be a calendar date YYYY-MM-DD, got ${shown}`);
};
