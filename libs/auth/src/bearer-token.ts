// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash, timingSafeEqual } from 'node:crypto';

export const AuthMessages = {
  missing: 'Missing Authorization header',
  invalid: 'Invalid bearer token',
  format: 'Invalid Authorization header format. Expected: Bearer <token>',
} as const;

export type AuthFailure = keyof typeof AuthMessages;
export type AuthDecision = { ok: true } | { ok: false; reason: AuthFailure };

/**
 * Constant-time token comparison. Both sides are hashed to 32 bytes first, so `timingSafeEqual`
 * always compares equal lengths and neither the comparison time nor an early length check reveals
 * the expected token's length.
 */
export const tokensMatch = (presented: string, expected: string): boolean => {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
};

/**
 * Decide on an `Authorization` header value against the configured key.
 * `expected` undefined or empty disables authentication (specs 000/001 FR-010).
 */
export const checkAuthorization = (header: string | undefined, expected: string | undefined): AuthDecision => {
  if (!expected) return { ok: true };
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  const match = /^(\S+)\s+(\S+)\s*$/.exec(header.trim());
  if (!match || match[1]?.toLowerCase() !== 'bearer') return { ok: false, reason: 'format' };
  return tokensMatch(match[2] ?? '', expected) ? { ok: true } : { ok: false, reason: 'invalid' };
};
