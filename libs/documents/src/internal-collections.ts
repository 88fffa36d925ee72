/**
 * Collections of the vector store that are not projects: a project's document registry (`<project>__registry`)
 * and the policy knowledge base's chunks (`<POLICY_KB_PROJECT>__policy`). Spec 002's `list_collections` and
 * `retrieve_document_chunks`, and spec 004's project listing, never show or search them.
 */
export const REGISTRY_COLLECTION_SUFFIX = '__registry';
export const POLICY_COLLECTION_SUFFIX = '__policy';

/** The policy KB's chunk collection for its configured project name (spec 001's `policy_docs`). */
export const policyCollection = (project: string): string => `${project}${POLICY_COLLECTION_SUFFIX}`;

export const isInternalCollection = (name: string): boolean =>
  name.endsWith(REGISTRY_COLLECTION_SUFFIX) || name.endsWith(POLICY_COLLECTION_SUFFIX);
