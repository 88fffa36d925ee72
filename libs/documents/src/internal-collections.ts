// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Collections of the vector store that are not projects: a project's document registry (`<project>__registry`)
 * and the policy knowledge base's chunks (`<POLICY_KB_PROJECT>__policy`). Spec 002's `list_collections` and
 * `retrieve_document_chunks`, and spec 004's project listing, never show or search them: like every internal
 * collection their names contain `__`, which no project id does (`isInternalCollectionName` in the contracts).
 */
export const REGISTRY_COLLECTION_SUFFIX = '__registry';
export const POLICY_COLLECTION_SUFFIX = '__policy';

/** The policy KB's chunk collection for its configured project name (spec 001's `policy_docs`). */
export const policyCollection = (project: string): string => `${project}${POLICY_COLLECTION_SUFFIX}`;
