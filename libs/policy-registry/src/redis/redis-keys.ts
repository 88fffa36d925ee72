// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Spec 001 FR-008's key schema, exactly (after an optional prefix, empty by default; tests give each run its own).
 */
export interface RegistryKeys {
  policy(source: string): string;
  revision(source: string, revisionId: string): string;
  revisions(source: string): string;
  all(): string;
}

export const registryKeys = (prefix = ''): RegistryKeys => ({
  policy: (source) => `${prefix}policy:${source}`,
  revision: (source, revisionId) => `${prefix}policy_revision:${source}:${revisionId}`,
  revisions: (source) => `${prefix}policy_revisions:${source}`,
  all: () => `${prefix}policies_all`,
});

/** A record's hash fields, and which of them may be null. */
export interface HashFields {
  names: readonly string[];
  nullable: ReadonlySet<string>;
}

/** The fields of a record schema (`PolicySchema.shape`, `PolicyRevisionSchema.shape`). */
export const hashFields = (shape: Record<string, { safeParse(value: unknown): { success: boolean } }>): HashFields => ({
  names: Object.keys(shape),
  nullable: new Set(
    Object.entries(shape)
      .filter(([, schema]) => schema.safeParse(null).success)
      .map(([name]) => name),
  ),
});

/**
 * A hash's fields: every value a string, every field present (FR-008 lists them all). A null is the empty string,
 * as spec 001's registry stores an absent value (`notes or ""`, `effective_to ... else ""`).
 */
export const toHash = (record: Record<string, string | number | null | undefined>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(record)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, v === null ? '' : String(v)]),
  );

const NUMERIC = new Set(['file_size_bytes', 'page_count', 'chunk_count']);

/**
 * Back from a hash: a nullable field that is empty or absent (hashes written before empty values were stored
 * leave it out) is null; counts are numbers (then parsed by the record's schema).
 */
export const fromHash = (hash: Record<string, string>, fields: HashFields): Record<string, string | number | null> =>
  Object.fromEntries(
    fields.names.map((f) => {
      const v = hash[f];
      if (v === undefined || (v === '' && fields.nullable.has(f))) return [f, null];
      return [f, NUMERIC.has(f) ? Number(v) : v];
    }),
  );
