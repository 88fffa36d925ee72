// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { AppError, CitationMetaSchema, isAppError, type ChunkingPolicy, type ProjectRecord } from '@lectern/contracts';
import { embeddingText, projectChunkId } from '@lectern/chunking';
import type { Embedder } from '@lectern/embedding';
import type { StoredPoint } from '@lectern/vector-store';
import { z } from 'zod';
import type { AuditRecord } from './audit.js';
import { readCslJson, type CslItem } from './citations.js';
import type { DocumentStoreDeps, ProgressFn } from './deps.js';
import { ingestProjectFile, PROJECT_INGEST_ORIGIN, type DocumentOutcome } from './project-ingest.js';
import {
  assertSameModel,
  listProjectRecords,
  readProjectRecord,
  requireProject,
  writeProjectRecord,
} from './projects.js';

/** Every file under `root` (recursively, sorted, hidden entries and symlinks skipped) with one of `extensions`. */
export const listDocumentFiles = async (root: string, extensions: readonly string[]): Promise<string[]> => {
  const wanted = new Set(extensions.map((e) => e.toLowerCase()));
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith('.')) continue;
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else if (e.isFile() && wanted.has(extname(e.name).toLowerCase())) out.push(path);
    }
  };
  await walk(root);
  return out;
};

export interface ProjectRunOptions {
  project: string;
  /** The directory given (or a single file's directory): the root client paths must stay in. */
  root: string;
  files: readonly string[];
  kind: 'ingest' | 'reindex';
  /** The model this run writes with (compared with the project's before anything is embedded). */
  embedder: Embedder;
  /** CSL-JSON file (default: the project's references file). */
  referencesPath?: string | undefined;
  titleThreshold?: number | undefined;
  /** Called after each file (for a progress bar). */
  onFile?: (done: number, total: number, outcome: DocumentOutcome | { file: string; error: string }) => void;
  progress?: ProgressFn;
  /** Stops the run (the file being ingested cleans up what it wrote; no further file is started). */
  signal?: AbortSignal;
}

export interface ProjectRunSummary {
  project: string;
  kind: 'ingest' | 'reindex';
  documents: DocumentOutcome[];
  errors: Array<{ file: string; error: string }>;
  totals: { documents: number; chunks: number; written: number; removed: number; errors: number };
  citations: { matched: number; unmatched: number; references: string | null; warning?: string };
  model: string;
  duration_ms: number;
  audit_id: string | null;
}

/** A per-file error as a user reads it: a typed error's message; anything else named but not dumped. */
const describe = (error: unknown): string =>
  isAppError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);

/**
 * One ingest or reindex run over files of a project (FR-013/FR-014/FR-019): each file converted, chunked,
 * enriched and written idempotently; a file that fails is reported and skipped; a missing or unreadable
 * references file is a warning (the ingest goes on without citations). One audit record for the run.
 */
export const runProjectIngest = async (deps: DocumentStoreDeps, o: ProjectRunOptions): Promise<ProjectRunSummary> => {
  const started = Date.now();
  const resolved = await requireProject(deps, o.project);
  const { record } = resolved;
  // FR-005 before any conversion or embedding: every run with another model is refused.
  assertSameModel(record, o.embedder.fingerprint);
  const referencesPath = o.referencesPath ?? record.references_path;
  let references: CslItem[] | null = null;
  let warning: string | undefined;
  if (referencesPath) {
    try {
      const read = await readCslJson(referencesPath);
      references = read.items;
      if (read.skipped > 0)
        warning = `${read.skipped} entries of ${referencesPath} are not CSL-JSON items and were skipped`;
    } catch (error) {
      warning = `${describe(error)} Citation enrichment may be incomplete.`;
      deps.log.warn({ project: o.project, references: referencesPath }, warning);
    }
  }
  const documents: DocumentOutcome[] = [];
  const errors: Array<{ file: string; error: string }> = [];
  for (const [i, file] of o.files.entries()) {
    try {
      const outcome = await ingestProjectFile(
        deps,
        { resolved, embedder: o.embedder, root: o.root, references, titleThreshold: o.titleThreshold ?? 0.85 },
        file,
        { progress: o.progress, signal: o.signal },
      );
      documents.push(outcome);
      o.onFile?.(i + 1, o.files.length, outcome);
    } catch (error) {
      if ((isAppError(error) && error.code === 'EMBEDDING_MISMATCH') || o.signal?.aborted) throw error;
      const failed = { file: relative(o.root, resolve(file)) || file, error: describe(error) };
      deps.log.warn({ project: o.project, file: failed.file, error: failed.error }, `skipped ${failed.file}`);
      errors.push(failed);
      o.onFile?.(i + 1, o.files.length, failed);
    }
  }
  const totals = {
    documents: documents.length,
    chunks: documents.reduce((n, d) => n + d.chunks, 0),
    written: documents.reduce((n, d) => n + d.written, 0),
    removed: documents.reduce((n, d) => n + d.removed, 0),
    errors: errors.length,
  };
  const model = `${record.fingerprint.model_id}@${record.fingerprint.revision}`;
  const duration = Date.now() - started;
  let auditId: string | null = null;
  if (deps.audit) {
    const written: AuditRecord = await deps.audit.write({
      kind: o.kind,
      project: o.project,
      at: new Date(started).toISOString(),
      duration_ms: duration,
      model,
      documents: [
        ...documents.map((d) => ({
          doc_id: d.doc_id,
          file: d.file,
          chunks: d.chunks,
          written: d.written,
          removed: d.removed,
          citekey: d.citekey,
          duration_ms: d.duration_ms,
        })),
        ...errors.map((e) => ({
          doc_id: null,
          file: e.file,
          chunks: 0,
          written: 0,
          removed: 0,
          duration_ms: 0,
          error: e.error,
        })),
      ],
      totals,
      collection: resolved.info.name,
    });
    auditId = written.id;
  }
  const matched = documents.filter((d) => d.citekey !== null).length;
  return {
    project: o.project,
    kind: o.kind,
    documents,
    errors,
    totals,
    citations: {
      matched,
      unmatched: references ? documents.length - matched : 0,
      references: referencesPath ? 'given' : null,
      ...(warning ? { warning } : {}),
    },
    model,
    duration_ms: duration,
    audit_id: auditId,
  };
};

/** What `--limit`/`--resume` remember between runs (a file under the data directory, per project and root). */
const ResumeStateSchema = z.object({
  project: z.string(),
  root: z.string(),
  files: z.array(z.string()),
  done: z.array(z.string()),
});
export type ResumeState = z.infer<typeof ResumeStateSchema>;

export const resumeStatePath = (dataDir: string, project: string, root: string): string =>
  join(
    dataDir,
    'reindex-state',
    `${project}-${createHash('sha256').update(resolve(root)).digest('hex').slice(0, 16)}.json`,
  );

/**
 * FR-019's partial processing: `--limit N` takes the first N files not done yet (a fresh run forgets an earlier
 * one), `--resume` the rest of the saved run (or N of them). Processing everything once over any sequence of
 * `--limit` then `--resume` calls.
 */
export const planReindex = async (
  statePath: string,
  o: { project: string; root: string; files: readonly string[]; limit?: number | undefined; resume: boolean },
): Promise<{ todo: string[]; state: ResumeState }> => {
  let state: ResumeState = { project: o.project, root: resolve(o.root), files: [...o.files], done: [] };
  if (o.resume) {
    if (!existsSync(statePath))
      throw new AppError(
        'nothing_to_resume',
        `No interrupted reindex of project ${o.project} under ${o.root} to resume.`,
      );
    state = ResumeStateSchema.parse(JSON.parse(await readFile(statePath, 'utf8')));
    // Files added since keep their place at the end.
    for (const f of o.files) if (!state.files.includes(f)) state.files.push(f);
  }
  const done = new Set(state.done);
  const pending = state.files.filter((f) => !done.has(f));
  return { todo: o.limit !== undefined ? pending.slice(0, o.limit) : pending, state };
};

export const saveReindexState = async (statePath: string, state: ResumeState): Promise<void> => {
  await mkdir(join(statePath, '..'), { recursive: true });
  await writeFile(`${statePath}.tmp`, JSON.stringify(state));
  await rename(`${statePath}.tmp`, statePath);
};

export interface RebuildOptions {
  project: string;
  /** The model of the new collection (default: the project's). */
  embedder: Embedder;
  /** Drop the project's previous collections (after a verified switch). */
  dropOld?: boolean;
  /** Only drop previous collections, build nothing. */
  dropOnly?: boolean;
  /**
   * A new chunking policy (FR-020): every document is re-chunked from its source file (recorded at ingest) into the
   * new collection, instead of its stored chunks being re-embedded.
   */
  policy?: ChunkingPolicy;
  onProgress?: (done: number, total: number) => void;
}

export interface RebuildSummary {
  project: string;
  from: { collection: string; model: string; points: number };
  to: { collection: string; model: string; points: number } | null;
  dropped: string[];
  kept: string[];
  steps: string[];
  duration_ms: number;
}

/** A project's model as its records name it (`model_id@revision`). */
export const modelName = (f: ProjectRecord['fingerprint']): string => `${f.model_id}@${f.revision}`;

/** A chunking policy in one line (logs, audit, `project show`). */
export const describeChunking = (c: ChunkingPolicy): string =>
  `${c.kind}${c.max_tokens ? `, max ${c.max_tokens} tokens` : ''}${c.overlap_tokens ? `, overlap ${c.overlap_tokens}` : ''}` +
  (c.kind === 'heading' ? `, heading context ${c.heading_context ? 'on' : 'off'}` : '');

/** The audit record of a rebuild run (FR-013), a failed one too: its steps say how far it got. */
const auditRebuild = async (
  deps: DocumentStoreDeps,
  project: string,
  started: number,
  model: string,
  steps: string[],
  collection: string,
): Promise<void> => {
  await deps.audit?.write({
    kind: 'rebuild',
    project,
    at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    model,
    steps,
    collection,
  });
};

interface SourceDocument {
  docId: string;
  sourcePath: string;
  citation: z.infer<typeof CitationMetaSchema> | null;
  chunks: number;
}

/**
 * The documents of a collection with the source file each was ingested from, for `rebuild --policy`. Refused
 * (nothing created) when a chunk has no recorded source: chunks of spec 000/002 writes and of spec 004 ingests
 * from before sources were recorded cannot be re-chunked.
 */
const sourceDocuments = async (
  deps: DocumentStoreDeps,
  project: string,
  collection: string,
): Promise<SourceDocument[]> => {
  const docs = new Map<string, SourceDocument>();
  const lacking = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: { points: StoredPoint[]; next: string | null } = await deps.store.scroll(collection, {
      limit: 500,
      cursor,
    });
    for (const { payload: pl, id } of page.points) {
      const docId = typeof pl['document_id'] === 'string' ? pl['document_id'] : null;
      const source = typeof pl['source_path'] === 'string' ? pl['source_path'] : null;
      if (!docId || !source || pl['origin'] !== PROJECT_INGEST_ORIGIN) {
        lacking.add(String(pl['source_file'] ?? pl['source_filename'] ?? docId ?? id));
        continue;
      }
      const known = docs.get(docId);
      if (known) known.chunks++;
      else {
        const citation = CitationMetaSchema.safeParse(pl['citation']);
        docs.set(docId, { docId, sourcePath: source, citation: citation.success ? citation.data : null, chunks: 1 });
      }
    }
    cursor = page.next;
  } while (cursor);
  if (lacking.size > 0) {
    const names = [...lacking].sort();
    throw new AppError(
      'rebuild_needs_sources',
      `rebuild --policy re-chunks documents from their source files, and ${names.length} document(s) of ${project} have none recorded ` +
        `(${names.slice(0, 10).join(', ')}${names.length > 10 ? ', ...' : ''}): they were written by ingest_document/store_chunks, or ingested ` +
        `before source files were recorded. Re-ingest them with \`lectern reindex <dir> --project ${project}\`, then rebuild --policy; ` +
        `or rebuild without --policy (re-embeds the stored chunks). Nothing was changed.`,
    );
  }
  return [...docs.values()];
};

/**
 * FR-020's rebuild: the project's chunks (their stored text and payload) re-embedded into a new collection
 * `<project>__v<N>` with the given model (ids recomputed with that model), the counts verified, the record
 * switched, the old collection kept until `--drop-old`. Every step is logged and audited.
 */
export const rebuildProject = async (deps: DocumentStoreDeps, o: RebuildOptions): Promise<RebuildSummary> => {
  const started = Date.now();
  const steps: string[] = [];
  const step = (s: string) => {
    steps.push(s);
    deps.log.info({ project: o.project }, `rebuild: ${s}`);
  };
  const { record, info } = await requireProject(deps, o.project);
  const from = { collection: info.name, model: modelName(info.fingerprint), points: info.pointsCount };
  let current = record;
  let to: RebuildSummary['to'] = null;
  if (!o.dropOnly) {
    const fp = o.embedder.fingerprint;
    const used = new Set([
      record.collection,
      ...record.previous_collections,
      ...(await deps.store.listCollections()).map((c) => c.name),
    ]);
    let n = 2;
    while (used.has(`${o.project}__v${n}`)) n++;
    const target = `${o.project}__v${n}`;
    const policy = o.policy;
    const sources = policy ? await sourceDocuments(deps, o.project, info.name) : [];
    step(
      `create ${target} with ${modelName(fp)} (hybrid ${record.hybrid})${policy ? `, chunking ${describeChunking(policy)}` : ''}`,
    );
    const targetInfo = await deps.store.ensureCollection(target, { fingerprint: fp, hybrid: record.hybrid });
    const next: ProjectRecord = {
      ...record,
      collection: target,
      fingerprint: fp,
      ...(policy ? { chunking: policy } : {}),
    };
    let cursor: string | null = null;
    let copied = 0;
    const ids = new Set<string>();
    let expected = info.pointsCount;
    if (policy) {
      // Re-chunk each document from its source file into the new collection, with the citation it had.
      expected = 0;
      try {
        for (const [i, d] of sources.entries()) {
          const outcome = await ingestProjectFile(
            deps,
            {
              resolved: { record: next, info: targetInfo },
              embedder: o.embedder,
              root: dirname(d.sourcePath),
              references: null,
              titleThreshold: 0.85,
              citation: d.citation,
            },
            d.sourcePath,
          );
          if (outcome.doc_id !== d.docId) {
            throw new AppError(
              'rebuild_failed',
              `${outcome.file} changed since it was ingested (now ${outcome.doc_id}, was ${d.docId}): reindex the project first.`,
            );
          }
          expected += outcome.chunks;
          o.onProgress?.(i + 1, sources.length);
        }
      } catch (error) {
        await deps.store.dropCollection(target);
        step(`re-chunking failed (${describe(error)}); dropped ${target}, project not switched`);
        await auditRebuild(deps, o.project, started, from.model, steps, info.name);
        throw error;
      }
      step(`re-chunked ${sources.length} documents (${info.pointsCount} chunks before, ${expected} now)`);
    }
    while (!policy) {
      const page: { points: StoredPoint[]; next: string | null } = await deps.store.scroll(info.name, {
        limit: 256,
        cursor,
      });
      // Embedded as at ingest: with the section path first when the chunk was (its `heading_context` mark).
      const vectors = await o.embedder.embedBatch(
        page.points.map((p) =>
          embeddingText(
            p.text,
            Array.isArray(p.payload['section_path']) ? p.payload['section_path'].map(String) : [],
            p.payload['heading_context'] === true,
          ),
        ),
      );
      const points = page.points.map((p, i) => {
        const pl = p.payload;
        const docId = typeof pl['document_id'] === 'string' ? pl['document_id'] : null;
        // Spec 004 chunks get their FR-003 id with the new model; others (spec 000/002 ids) keep theirs.
        const id =
          docId && typeof pl['origin'] === 'string'
            ? projectChunkId({
                docId,
                pageStart: typeof pl['page_start'] === 'number' ? pl['page_start'] : 0,
                pageEnd: typeof pl['page_end'] === 'number' ? pl['page_end'] : 0,
                sectionPath: Array.isArray(pl['section_path']) ? pl['section_path'].map(String) : [],
                modelId: fp.model_id,
                modelRevision: fp.revision,
                chunkIndex: typeof pl['chunk_index'] === 'number' ? pl['chunk_index'] : 0,
              })
            : p.id;
        ids.add(id);
        return { id, vector: vectors[i] as Float32Array, text: p.text, payload: pl };
      });
      if (points.length > 0) await deps.store.upsert(target, points, { fingerprint: fp });
      copied += points.length;
      o.onProgress?.(copied, info.pointsCount);
      cursor = page.next;
      if (!cursor) break;
    }
    if (!policy) step(`re-embedded ${copied} chunks from ${info.name}`);
    const count = await deps.store.count(target);
    if (count !== expected || (!policy && count !== ids.size)) {
      step(`verification failed: ${count} points in ${target}, ${expected} expected; project not switched`);
      await auditRebuild(deps, o.project, started, from.model, steps, info.name);
      throw new AppError(
        'rebuild_failed',
        `Rebuild of ${o.project} verified ${count} points in ${target} against ${expected} expected: not switched (the project still uses ${info.name}).`,
      );
    }
    step(`verified ${count} points`);
    current = {
      ...next,
      previous_collections: [...record.previous_collections, record.collection],
      updated_at: new Date().toISOString(),
    };
    await writeProjectRecord(deps, current);
    step(`switched project ${o.project} to ${target}; kept ${record.collection}`);
    to = { collection: target, model: modelName(fp), points: count };
  }
  const dropped: string[] = [];
  if (o.dropOld || o.dropOnly) {
    for (const old of current.previous_collections) {
      if (old === current.collection) continue;
      await deps.store.dropCollection(old);
      dropped.push(old);
      step(`dropped ${old}`);
    }
    current = { ...current, previous_collections: [], updated_at: new Date().toISOString() };
    await writeProjectRecord(deps, current);
  }
  const summary: RebuildSummary = {
    project: o.project,
    from,
    to,
    dropped,
    kept: current.previous_collections,
    steps,
    duration_ms: Date.now() - started,
  };
  await auditRebuild(deps, o.project, started, to?.model ?? from.model, steps, current.collection);
  return summary;
};

export interface ValidationCheck {
  check: 'tokenizer' | 'vector_store' | 'collection' | 'model' | 'indexes' | 'references';
  ok: boolean;
  message: string;
}

/**
 * FR-018's checks, each with pass/fail and what to do: the tokenizer of the model that writes is the project
 * model's own (same model family and revision), the store answers, the project's collection exists, its model
 * is the record's, its indexes are there (full text for a hybrid project), and the references file is present.
 */
export const validateProject = async (
  deps: DocumentStoreDeps,
  project: string,
  embedder: Embedder,
): Promise<{ project: string; ok: boolean; checks: ValidationCheck[] }> => {
  const checks: ValidationCheck[] = [];
  let record: ProjectRecord | null = null;
  try {
    await deps.store.listCollections();
    record = await readProjectRecord(deps.store, project);
    checks.push({ check: 'vector_store', ok: true, message: `the ${deps.store.engine} store answers` });
  } catch (error) {
    checks.push({
      check: 'vector_store',
      ok: false,
      message: `the vector store does not answer (${describe(error)}): start it or check QDRANT_URL / DATA_DIR`,
    });
    return { project, ok: false, checks };
  }
  const resolved = record ? null : await requireProject(deps, project).catch(() => null);
  record ??= resolved?.record ?? null;
  if (!record) {
    const known = (await listProjectRecords(deps.store)).map((r) => r.project);
    checks.push({
      check: 'collection',
      ok: false,
      message: `project ${project} does not exist${known.length ? ` (projects: ${known.join(', ')})` : ''}: \`lectern project create ${project}\``,
    });
    return { project, ok: false, checks };
  }
  const fp = record.fingerprint;
  const w = embedder.fingerprint;
  const tokenizerOk = w.model_id === fp.model_id && w.revision === fp.revision;
  checks.push({
    check: 'tokenizer',
    ok: tokenizerOk,
    message: tokenizerOk
      ? `chunks are counted with ${w.model_id}'s own tokenizer (max ${embedder.maxTokens} tokens)`
      : `the configured model ${modelName(w)} (its tokenizer) is not the project's ${modelName(fp)}: set EMBEDDING_MODEL=${fp.model_id} (or --model), or migrate with \`lectern rebuild --project ${project} --migrate-to ${w.model_id}\``,
  });
  const info = await deps.store.getCollection(record.collection);
  checks.push({
    check: 'collection',
    ok: info !== null,
    message: info
      ? `collection ${record.collection} exists (${info.pointsCount} chunks)`
      : `collection ${record.collection} is missing: \`lectern rebuild --project ${project}\` from a kept collection, or re-ingest`,
  });
  if (info) {
    const same =
      info.fingerprint.model_id === fp.model_id &&
      info.fingerprint.revision === fp.revision &&
      info.fingerprint.dimension === fp.dimension;
    checks.push({
      check: 'model',
      ok: same,
      message: same
        ? `collection built with ${modelName(fp)}, as recorded`
        : `collection built with ${modelName(info.fingerprint)} but the project records ${modelName(fp)}: run \`lectern rebuild --project ${project}\``,
    });
    const inspection = await deps.store.inspect(info.name, 0);
    const hasText = inspection.indexes.some(
      (i) => /full-text|text/i.test(i.type) || i.field === '__text' || i.field === 'text',
    );
    const indexesOk = inspection.indexes.length > 0 && (!record.hybrid || hasText);
    checks.push({
      check: 'indexes',
      ok: indexesOk,
      message: indexesOk
        ? `indexes: ${inspection.indexes.map((i) => i.field).join(', ')}`
        : `the full-text index of a hybrid project is missing: run \`lectern rebuild --project ${project}\``,
    });
  }
  if (record.references_path) {
    const present = existsSync(record.references_path);
    checks.push({
      check: 'references',
      ok: present,
      message: present
        ? 'references file present'
        : `references file ${record.references_path} is missing: export CSL JSON there, or \`lectern project create\` with --references`,
    });
  } else {
    checks.push({
      check: 'references',
      ok: true,
      message: 'no references file configured (citations come only from stored chunks)',
    });
  }
  return { project, ok: checks.every((c) => c.ok), checks };
};
