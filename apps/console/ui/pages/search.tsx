// SPDX-License-Identifier: AGPL-3.0-or-later
import { FindChunksOutput, RetrieveDocumentChunksOutput, SearchApplicationDocsOutput } from '@lectern/contracts';
import { useState } from 'preact/hooks';
import { callTool } from '../api.js';
import { ErrorNote, Section } from '../components.js';
import { href } from '../router.js';

/** One result as a person reads it, whatever tool answered. */
interface Hit {
  key: string;
  text: string;
  citation: string;
  sectionPath: string[];
  pages: string;
  score: number;
  /** Extra scores another tool version adds (a fused score): shown when present, never required. */
  extra: string;
  open?: string;
}

type Scope = 'application' | 'project' | 'collection';

const pageSpan = (first: number | null | undefined, last: number | null | undefined): string =>
  first == null ? 'no page' : last != null && last !== first ? `pp. ${first}–${last}` : `p. ${first}`;

/** Optional numeric fields of a raw result (read defensively: they may or may not be there). */
const extras = (raw: unknown): string => {
  if (typeof raw !== 'object' || raw === null) return '';
  const r = raw as Record<string, unknown>;
  return ['fused_score', 'rerank_score', 'dense_rank', 'keyword_rank']
    .filter((k) => typeof r[k] === 'number')
    .map(
      (k) =>
        `${k.replace('_', ' ')} ${Number(r[k])
          .toFixed(3)
          .replace(/\.?0+$/, '')}`,
    )
    .join(' · ');
};

const rawResults = (raw: unknown, field: string): unknown[] => {
  const list = (raw as Record<string, unknown> | null)?.[field];
  return Array.isArray(list) ? list : [];
};

const search = async (scope: Scope, query: string, f: Record<string, string>): Promise<Hit[]> => {
  const list = (s: string) =>
    s
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  if (scope === 'application') {
    const { data, raw } = await callTool(
      'documents',
      'search_application_docs',
      {
        query,
        max_results: 10,
        search_mode: f['mode'] || 'hybrid',
        ...(f['application_ref'] ? { application_ref: f['application_ref'] } : {}),
        ...(f['document_types'] ? { document_types: list(f['document_types']) } : {}),
      },
      SearchApplicationDocsOutput,
    );
    const raws = rawResults(raw, 'results');
    return data.results.map((r, i) => {
      const pages = r.metadata.page_numbers
        .split(',')
        .map(Number)
        .filter((n) => n > 0);
      return {
        key: r.chunk_id,
        text: r.text,
        citation: `${r.metadata.source_file.split('/').pop()} (${r.metadata.application_ref}, ${r.metadata.document_type}, ${r.metadata.document_id})`,
        sectionPath: [],
        pages: pageSpan(pages[0], pages[pages.length - 1]),
        score: r.relevance_score,
        extra: extras(raws[i]),
        ...(pages[0]
          ? { open: href('document', { id: r.metadata.document_id, page: pages[0], highlight: r.text.slice(0, 1000) }) }
          : {}),
      };
    });
  }
  if (scope === 'project') {
    const hybrid = (f['mode'] || 'hybrid') === 'hybrid';
    const filters = {
      ...(f['tags'] ? { tags: list(f['tags']) } : {}),
      ...(f['doc_ids'] ? { doc_ids: list(f['doc_ids']) } : {}),
    };
    const { data, raw } = await callTool(
      'documents',
      hybrid ? 'query_hybrid' : 'find_chunks',
      { project: f['project'] ?? '', query, top_k: 10, ...(Object.keys(filters).length ? { filters } : {}) },
      FindChunksOutput,
    );
    const raws = rawResults(raw, 'results');
    return data.results.map((r, i) => ({
      key: r.chunk_id,
      text: r.text,
      citation: r.citation_text,
      sectionPath: r.section_path,
      pages: pageSpan(r.page_start, r.page_end),
      score: r.score,
      extra: extras(raws[i]),
      ...(r.page_start
        ? {
            open: href('document', {
              id: r.doc_id,
              page: r.page_start,
              project: f['project'],
              highlight: r.text.slice(0, 1000),
            }),
          }
        : {}),
    }));
  }
  const { data } = await callTool(
    'documents',
    'retrieve_document_chunks',
    { query, top_k: 10, collection: f['collection'] || null },
    RetrieveDocumentChunksOutput,
  );
  return data.result.map((r) => ({
    key: `${r.source_filename}#${r.chunk_index}`,
    text: r.text,
    citation: `${r.metadata.title ?? r.source_filename}, chunk ${r.chunk_index}`,
    sectionPath: [],
    pages: r.metadata.page_count ? `of ${r.metadata.page_count} pages` : 'no page',
    score: r.score,
    extra: '',
  }));
};

const FILTERS: Record<Scope, { name: string; label: string }[]> = {
  application: [
    { name: 'application_ref', label: 'Application reference' },
    { name: 'document_types', label: 'Document types (comma-separated)' },
  ],
  project: [
    { name: 'project', label: 'Project' },
    { name: 'tags', label: 'Tags (comma-separated)' },
    { name: 'doc_ids', label: 'Document ids (comma-separated)' },
  ],
  collection: [{ name: 'collection', label: 'Collection (empty: all)' }],
};

const MODES: Record<Scope, string[]> = {
  application: ['hybrid', 'semantic', 'keyword'],
  project: ['hybrid', 'semantic'],
  collection: [],
};

export const SearchPage = () => {
  const [scope, setScope] = useState<Scope>('application');
  const [query, setQuery] = useState('');
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setHits(await search(scope, query, filters));
    } catch (err) {
      setHits(null);
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Section title="Search">
        <form onSubmit={run} aria-label="Search">
          <label>
            Search for
            <input type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} required />
          </label>
          <label>
            In
            <select value={scope} onChange={(e) => setScope(e.currentTarget.value as Scope)}>
              <option value="application">Application documents (spec 000)</option>
              <option value="project">A project (spec 004)</option>
              <option value="collection">Collections (spec 002)</option>
            </select>
          </label>
          {MODES[scope].length > 0 && (
            <label>
              Mode
              <select
                value={filters['mode'] ?? 'hybrid'}
                onChange={(e) => setFilters({ ...filters, mode: e.currentTarget.value })}
              >
                {MODES[scope].map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
          )}
          {FILTERS[scope].map((f) => (
            <label key={f.name}>
              {f.label}
              <input
                type="text"
                value={filters[f.name] ?? ''}
                onInput={(e) => setFilters({ ...filters, [f.name]: e.currentTarget.value })}
              />
            </label>
          ))}
          <button type="submit" disabled={busy}>
            {busy ? 'Searching…' : 'Search'}
          </button>
        </form>
      </Section>
      <ErrorNote error={error} />
      {hits && (
        <Section title={`${hits.length} result(s)`}>
          <ol class="results">
            {hits.map((h) => (
              <li key={h.key} class="result">
                <p class="citation">{h.citation}</p>
                <p class="muted">
                  <span class="pages">{h.pages}</span>
                  {h.sectionPath.length > 0 && <span class="section-path"> · {h.sectionPath.join(' › ')}</span>}
                  {` · score ${h.score.toFixed(3)}`}
                  {h.extra && ` · ${h.extra}`}
                </p>
                <blockquote>{h.text}</blockquote>
                {h.open && <a href={h.open}>Open the page with this passage highlighted</a>}
              </li>
            ))}
          </ol>
        </Section>
      )}
    </>
  );
};
