// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * OAuth scopes of Lectern's resource servers (issue 30, `AUTH_MODE=oauth`). They nest: `lectern:admin` grants
 * write and read, `lectern:write` grants read, so a client asks for the one scope its job needs.
 */
export const LecternScopes = {
  read: 'lectern:read',
  write: 'lectern:write',
  admin: 'lectern:admin',
} as const;
export type LecternScope = (typeof LecternScopes)[keyof typeof LecternScopes];

export const ALL_SCOPES: readonly LecternScope[] = [LecternScopes.read, LecternScopes.write, LecternScopes.admin];

const RANK: Record<LecternScope, number> = { 'lectern:read': 1, 'lectern:write': 2, 'lectern:admin': 3 };

/**
 * Tools that change the policy knowledge base every user's searches read: the same operations as the admin REST
 * API (`/api/policies`), so the same scope on either door.
 */
const ADMIN_TOOLS = new Set(['ingest_policy_revision', 'remove_policy_revision']);

/** The scope a tool call needs: admin for the policy KB's changes, read for a read-only tool, write otherwise. */
export const toolScope = (definition: {
  name: string;
  annotations: { readOnlyHint?: boolean | undefined };
}): LecternScope => {
  if (ADMIN_TOOLS.has(definition.name)) return LecternScopes.admin;
  return definition.annotations.readOnlyHint ? LecternScopes.read : LecternScopes.write;
};

/** Whether the granted scopes (a token's `scope`) cover `needed`. */
export const scopesGrant = (granted: Iterable<string>, needed: LecternScope): boolean => {
  for (const scope of granted) if (scope in RANK && RANK[scope as LecternScope] >= RANK[needed]) return true;
  return false;
};

/** The higher of two needed scopes. */
export const higherScope = (a: LecternScope, b: LecternScope): LecternScope => (RANK[a] >= RANK[b] ? a : b);
