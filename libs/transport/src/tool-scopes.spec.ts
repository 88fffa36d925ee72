// SPDX-License-Identifier: AGPL-3.0-or-later
import { ALL_SCOPES, scopesGrant, toolScope } from '@lectern/auth';
import { documentStoreTools, extractionDocTools, policyKbTools, sciragTools } from '@lectern/contracts';

/*
 * Issue 30: scopes mapped onto every MCP tool — a search needs read; ingest, store and delete need write; policy
 * admin needs admin. The table is written out (not derived from the annotations), so a tool whose annotation
 * changes, or a new tool nobody gave a scope, fails here.
 */
const EXPECTED: Record<string, string> = {
  // spec 000 / 002 / 004 (document-store-mcp)
  ingest_document: 'lectern:write',
  search_application_docs: 'lectern:read',
  get_document_text: 'lectern:read',
  list_ingested_documents: 'lectern:read',
  delete_document: 'lectern:write',
  retrieve_document_chunks: 'lectern:read',
  store_document_chunks: 'lectern:write',
  list_collections: 'lectern:read',
  store_chunks: 'lectern:write',
  find_chunks: 'lectern:read',
  query_hybrid: 'lectern:read',
  inspect_collection: 'lectern:read',
  list_projects: 'lectern:read',
  // spec 001 (policy-kb-mcp): the same changes as the admin REST API, so admin
  search_policy: 'lectern:read',
  get_policy_section: 'lectern:read',
  list_policy_documents: 'lectern:read',
  list_policy_revisions: 'lectern:read',
  ingest_policy_revision: 'lectern:admin',
  remove_policy_revision: 'lectern:admin',
  // spec 003 (extraction-api's document tools: per-task, in-memory index, nothing stored)
  doc_index_build: 'lectern:read',
  doc_search: 'lectern:read',
  doc_read: 'lectern:read',
  json_validate_and_normalize: 'lectern:read',
};

describe('OAuth scopes of every MCP tool (issue 30)', () => {
  const tools = [...documentStoreTools, ...sciragTools, ...policyKbTools, ...extractionDocTools];

  it('every tool of every server has the scope its job needs', () => {
    const actual = Object.fromEntries(tools.map((t) => [t.name, toolScope(t)]));
    expect(actual).toEqual(EXPECTED);
  });

  it('scopes nest: admin grants write and read, write grants read, read only read; unknown scopes grant nothing', () => {
    const grants = (granted: string[]) => ALL_SCOPES.filter((needed) => scopesGrant(granted, needed));
    expect(grants(['lectern:admin'])).toEqual(['lectern:read', 'lectern:write', 'lectern:admin']);
    expect(grants(['lectern:write'])).toEqual(['lectern:read', 'lectern:write']);
    expect(grants(['lectern:read'])).toEqual(['lectern:read']);
    expect(grants(['openid', 'profile', 'lectern:superuser', 'LECTERN:ADMIN'])).toEqual([]);
    expect(grants([])).toEqual([]);
  });
});
