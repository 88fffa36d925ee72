// SPDX-License-Identifier: AGPL-3.0-or-later
import { reassembleChunks } from '@lectern/chunking';
import { AppError, RevisionIdSchema, SourceSlugSchema, type PolicyRevision } from '@lectern/contracts';
import { pageAfter } from '@lectern/document-store';
import { RESOURCE_TEXT_MAX_CHARS, matchResourceUri, textResource, type McpResourceProvider } from '@lectern/transport';
import type { StoredPoint } from '@lectern/vector-store';
import type { PolicyStoreDeps } from './deps.js';
import { revisionFilter } from './revision-chunks.js';

export const POLICY_REVISION_URI_TEMPLATE = 'lectern://policies/{source}/revisions/{revision_id}';
/** Revisions per `resources/list` page. */
export const POLICY_RESOURCES_PAGE = 100;
/** Most chunks one read reassembles (get_policy_section's bound): the text is cut far earlier anyway. */
const MAX_REVISION_CHUNKS = 20_000;

export const policyRevisionUri = (source: string, revisionId: string): string =>
  `lectern://policies/${encodeURIComponent(source)}/revisions/${encodeURIComponent(revisionId)}`;

const notFound = (code: string, message: string) => new AppError(code, message, { httpStatus: 404 });

/** The revision's chunks in document order, by section: each section's text read back once (overlaps removed). */
const revisionSections = async (
  deps: PolicyStoreDeps,
  revision: PolicyRevision,
  signal: AbortSignal,
): Promise<Array<{ ref: string; text: string }>> => {
  if (!(await deps.store.getCollection(deps.collection))) return [];
  const chunks: StoredPoint[] = [];
  let cursor: string | null = null;
  do {
    signal.throwIfAborted();
    const page = await deps.store.scroll(deps.collection, {
      filter: revisionFilter(revision.source, revision.revision_id),
      orderBy: 'chunk_index',
      limit: 1000,
      cursor,
    });
    chunks.push(...page.points);
    cursor = page.next;
  } while (cursor && chunks.length < MAX_REVISION_CHUNKS);
  const bySection = new Map<number, StoredPoint[]>();
  for (const c of chunks) {
    const k = Number(c.payload['section_index'] ?? 0);
    bySection.set(k, [...(bySection.get(k) ?? []), c]);
  }
  return [...bySection.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, group]) => ({
      ref: String(group[0]?.payload['section_ref'] ?? ''),
      text: reassembleChunks(
        group.map((c) => ({
          chunk_index: Number(c.payload['chunk_index']),
          text: c.text,
          start_offset: c.payload['start_offset'] as number,
          end_offset: c.payload['end_offset'] as number,
        })),
      ),
    }));
};

/**
 * Policy revisions as MCP resources (issue 30): `lectern://policies/{source}/revisions/{revision_id}` (spec 001's
 * source slug and revision id, each checked by its pattern), listed 100 at a time by source and revision id, read as
 * two contents like a document — the registry metadata (JSON) and the revision's text (its sections in document
 * order, at most `RESOURCE_TEXT_MAX_CHARS` characters; when cut, the marker names the `get_policy_section` call that
 * reads on from the first section not shown whole).
 */
export const policyRevisionResources = (
  deps: PolicyStoreDeps,
  options: { maxChars?: number; pageSize?: number } = {},
): McpResourceProvider => ({
  templates: [
    {
      uriTemplate: POLICY_REVISION_URI_TEMPLATE,
      name: 'policy_revision',
      title: 'Policy revision',
      description:
        'One revision of a policy document: its registry metadata (application/json: version, effective dates, ' +
        `status) and its text (text/plain, at most ${RESOURCE_TEXT_MAX_CHARS} characters; get_policy_section reads on).`,
      mimeType: 'text/plain',
    },
  ],
  list: async (cursor) => {
    const policies = await deps.registry.listPolicies();
    const rows: Array<{ key: string; title: string; revision: PolicyRevision }> = [];
    for (const policy of policies) {
      for (const revision of await deps.registry.listRevisions(policy.source))
        rows.push({ key: `${policy.source}/${revision.revision_id}`, title: policy.title, revision });
    }
    const { page, next_cursor } = pageAfter(rows, (r) => r.key, ['resources/list', 'policies', deps.collection], {
      cursor,
      limit: options.pageSize ?? POLICY_RESOURCES_PAGE,
    });
    return {
      resources: page.map(({ title, revision: r }) => ({
        uri: policyRevisionUri(r.source, r.revision_id),
        name: `${r.source}/${r.revision_id}`,
        title: `${title} (${r.version_label})`,
        description: `${r.source} ${r.status}, in force ${r.effective_from} to ${r.effective_to ?? 'now'}, ${r.chunk_count} chunks`,
        mimeType: 'text/plain',
      })),
      nextCursor: next_cursor,
    };
  },
  read: async (uri, signal) => {
    const { vars } = matchResourceUri([POLICY_REVISION_URI_TEMPLATE], uri);
    const source = SourceSlugSchema.safeParse(vars['source']);
    const revisionId = RevisionIdSchema.safeParse(vars['revision_id']);
    if (!source.success || !revisionId.success)
      throw new AppError('invalid_arguments', `Not a policy revision URI: ${uri.slice(0, 200)}`);
    const policy = await deps.registry.getPolicy(source.data);
    if (!policy) throw notFound('policy_not_found', `Policy not found: ${source.data}`);
    const revision = await deps.registry.getRevision(source.data, revisionId.data);
    if (!revision)
      throw notFound('revision_not_found', `Revision not found: ${revisionId.data} for policy ${source.data}`);
    const sections = await revisionSections(deps, revision, signal);
    const maxChars = options.maxChars ?? RESOURCE_TEXT_MAX_CHARS;
    let text = '';
    let cutAt: string | undefined;
    for (const section of sections) {
      const part = (text ? '\n\n' : '') + section.text;
      if (cutAt === undefined && text.length + part.length > maxChars) cutAt = section.ref;
      text += part;
    }
    const remaining = Math.max(0, text.length - maxChars);
    const metadata = {
      source: policy.source,
      title: policy.title,
      category: policy.category,
      revision_id: revision.revision_id,
      version_label: revision.version_label,
      effective_from: revision.effective_from,
      effective_to: revision.effective_to,
      status: revision.status,
      chunk_count: revision.chunk_count,
      page_count: revision.page_count,
      ingested_at: revision.ingested_at,
      section_count: sections.length,
      total_chars: text.length,
      truncated: remaining > 0,
    };
    return textResource(
      uri,
      metadata,
      text.slice(0, maxChars),
      remaining,
      () =>
        `call get_policy_section with source "${policy.source}", revision_id "${revision.revision_id}", ` +
        `section_ref "${cutAt ?? ''}" and the sections after it`,
    );
  },
});
