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

/** A hash's fields: every value a string, a null field absent. */
export const toHash = (record: Record<string, string | number | null>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(record)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, String(v)]),
  );

const NUMERIC = new Set(['file_size_bytes', 'page_count', 'chunk_count']);

/** Back from a hash: absent fields are null, counts are numbers (then parsed by the record's schema). */
export const fromHash = (
  hash: Record<string, string>,
  fields: readonly string[],
): Record<string, string | number | null> =>
  Object.fromEntries(fields.map((f) => [f, hash[f] === undefined ? null : NUMERIC.has(f) ? Number(hash[f]) : hash[f]]));
