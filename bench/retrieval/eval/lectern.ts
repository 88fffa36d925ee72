// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Lectern through its real interface: document-store-mcp built in process (embedded store, potion-base-2M from
 * ../shared/models) and a real MCP client on Streamable HTTP. Planning PDFs go in twice, as a user would put them:
 * spec 000's `ingest_document` tool (project `application_docs`) and spec 004's project ingest (`lectern ingest`'s
 * runProjectIngest, heading-aware chunking, project `planning`). SciFact abstracts are stored with spec 004's
 * `store_chunks`, one chunk per abstract (`title. text`, doc id = BEIR id), in project `scifact`.
 *
 * The store lives in a cache directory keyed by the corpus (file names, sizes, hashes), the model and the code
 * (every non-test source file of libs/ and apps/document-store-mcp), so a rerun on unchanged code skips the ingest.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProject, runProjectIngest, type DocumentStoreDeps } from '@lectern/document-store';
import type { Embedder } from '@lectern/embedding';
import {
  connectMcp,
  corpusFile,
  listenOnFreePort,
  repoRoot,
  sharedModelDir,
  silentLogger,
  toolText,
} from '@lectern/testing';
import { z } from 'zod';
import { buildApp } from '../../../apps/document-store-mcp/src/app.js';
import { composeDocumentStore } from '../../../apps/document-store-mcp/src/compose.js';
import { loadConfig } from '../../../apps/document-store-mcp/src/config.js';
import { loadCorpus } from '../../embedding/corpus.js';
import type { Hit } from './metrics.js';
import { corpusPdfs, type CorpusPdf } from './pdf-text.js';
import type { CorpusName } from './sets.js';

export const SPEC000_PROJECT = 'application_docs';
export const PLANNING_PROJECT = 'planning';
export const SCIFACT_PROJECT = 'scifact';

/** A hash of every non-test TypeScript source the store runs (libs/, apps/document-store-mcp/src). */
export const codeVersion = (): string => {
  const root = repoRoot();
  const h = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|mjs|json)$/.test(name) && !/\.spec\.ts$/.test(name)) h.update(p).update(readFileSync(p));
    }
  };
  walk(join(root, 'libs'));
  walk(join(root, 'apps', 'document-store-mcp', 'src'));
  return h.digest('hex').slice(0, 12);
};

const IndexRecord = z.object({
  corpus: z.string(),
  /** Lectern doc id -> corpus key (PDF content hash, or BEIR id). */
  docKeys: z.record(z.string(), z.string()),
  ingest: z.object({ wall_s: z.number(), cpu_s: z.number(), chunks_000: z.number(), chunks_004: z.number() }),
  skipped: z.array(z.string()),
});
export type IndexRecord = z.infer<typeof IndexRecord>;

export interface LecternOptions {
  corpus: CorpusName;
  model: string;
  modelDir: string;
  /** Cache root (default: $TMPDIR/lectern-retrieval-eval). */
  cacheRoot?: string;
  /** Ingest again even when a cached store exists. */
  fresh?: boolean;
  /** Reuse the newest cached store of this corpus and model whatever the code version (query-time tuning only). */
  reuseIndex?: boolean;
  log: (m: string) => void;
}

export interface Lectern {
  record: IndexRecord;
  dataDir: string;
  cached: boolean;
  /** The store's configured embedder (the dense peer uses the same). */
  embedder(): Promise<Embedder>;
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The in-process server's store and embedders (fusion-trace.ts reads the candidate lists fusion sees). */
  deps: DocumentStoreDeps;
  close(): Promise<void>;
}

const corpusKey = (corpus: CorpusName, pdfs: readonly CorpusPdf[]): string => {
  const h = createHash('sha256').update(corpus);
  if (corpus === 'beir-scifact') h.update(readFileSync(corpusFile('beir-scifact', 'corpus.jsonl')));
  for (const p of pdfs) h.update(`${p.rel}\0${p.hash}\0`);
  return h.digest('hex').slice(0, 12);
};

/** Starts document-store-mcp on the cached store of `corpus`, ingesting first when there is none. */
export const openLectern = async (o: LecternOptions): Promise<Lectern> => {
  const pdfCorpus = o.corpus === 'beir-scifact' ? null : corpusPdfs(o.corpus);
  const pdfs = pdfCorpus?.pdfs ?? [];
  const cacheRoot = o.cacheRoot ?? join(tmpdir(), 'lectern-retrieval-eval');
  const prefix = `${o.corpus}-${corpusKey(o.corpus, pdfs)}-${o.model}-`;
  let dataDir = join(cacheRoot, `${prefix}${codeVersion()}`);
  if (o.reuseIndex && !existsSync(join(dataDir, 'eval-index.json')) && existsSync(cacheRoot)) {
    const older = readdirSync(cacheRoot)
      .filter((d) => d.startsWith(prefix) && existsSync(join(cacheRoot, d, 'eval-index.json')))
      .sort((a, b) => statSync(join(cacheRoot, b)).mtimeMs - statSync(join(cacheRoot, a)).mtimeMs);
    if (older[0]) dataDir = join(cacheRoot, older[0]);
  }
  const marker = join(dataDir, 'eval-index.json');
  const cached = !o.fresh && existsSync(marker);
  if (!cached) {
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    DOCUMENT_ROOTS: [dataDir, ...(pdfCorpus?.roots ?? [])].join(','),
    EMBEDDING_MODEL: o.model,
    EMBEDDING_MODEL_DIR: o.modelDir,
    LOG_LEVEL: 'silent',
    // Searches on this thread: the --fusion / --phrase-weight overrides (module state) reach them, and the systems'
    // CPU per query is this process's.
    SEARCH_THREADS: '0',
  });
  const {
    documentStore: { deps },
    platform,
  } = composeDocumentStore(config, silentLogger());
  const app = buildApp({ config, logger: silentLogger(), documentStore: deps });
  const client = await connectMcp(await listenOnFreePort(app), 'streamable-http');
  const call = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 1_800_000 });
    const body = toolText(result) as Record<string, unknown>;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(body)}`);
    return body;
  };
  const close = async (): Promise<void> => {
    await client.close();
    await app.close();
    await platform.close();
  };
  try {
    let record: IndexRecord;
    if (cached) {
      record = IndexRecord.parse(JSON.parse(readFileSync(marker, 'utf8')));
      o.log(`lectern: cached store ${dataDir}`);
    } else {
      o.log(`lectern: ingesting ${o.corpus} into ${dataDir}`);
      record = await ingest(o.corpus, pdfs, deps, call, o.log);
      writeFileSync(marker, `${JSON.stringify(record)}\n`);
    }
    return { record, dataDir, cached, call, deps, close, embedder: () => deps.embedders.configured() };
  } catch (error) {
    await close();
    throw error;
  }
};

const ingest = async (
  corpus: CorpusName,
  pdfs: readonly CorpusPdf[],
  deps: DocumentStoreDeps,
  call: Lectern['call'],
  log: (m: string) => void,
): Promise<IndexRecord> => {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const docKeys: Record<string, string> = {};
  const skipped: string[] = [];
  let chunks000 = 0;
  let chunks004 = 0;
  if (corpus !== 'beir-scifact') {
    for (const [i, pdf] of pdfs.entries()) {
      const out = await call('ingest_document', {
        file_path: pdf.abs,
        application_ref: 'EVAL-PLANNING',
        project: SPEC000_PROJECT,
      });
      const id = out['document_id'];
      if (typeof id === 'string') docKeys[id] = pdf.hash;
      else skipped.push(`spec000 ${pdf.rel}: ${String(out['status'])} ${String(out['reason'] ?? '')}`);
      chunks000 += Number(out['chunks_created'] ?? 0);
      log(`  spec000 ${i + 1}/${pdfs.length} ${String(out['status'])} ${pdf.rel}`);
    }
    const embedder = await deps.embedders.configured();
    await createProject(deps, {
      project: PLANNING_PROJECT,
      chunking: { kind: 'heading', max_tokens: embedder.maxTokens },
    });
    const root = corpusPdfs(corpus).base;
    const byRel = new Map(pdfs.map((p) => [p.rel, p.hash]));
    const run = await runProjectIngest(
      { ...deps, roots: [root] },
      {
        project: PLANNING_PROJECT,
        root,
        files: pdfs.map((p) => p.abs),
        kind: 'ingest',
        embedder,
        onFile: (done, total, outcome) => log(`  spec004 ${done}/${total} ${JSON.stringify(outcome).slice(0, 160)}`),
      },
    );
    for (const d of run.documents) {
      const key = byRel.get(d.file.split('\\').join('/'));
      if (key) docKeys[d.doc_id] = key;
      else skipped.push(`spec004 ${d.file}: no corpus key`);
    }
    for (const e of run.errors) skipped.push(`spec004 ${e.file}: ${e.error}`);
    chunks004 = run.totals.chunks;
  } else {
    await createProject(deps, { project: SCIFACT_PROJECT, chunking: { kind: 'client' } });
    const docs = loadCorpus();
    for (let i = 0; i < docs.length; i += 250) {
      const chunks = docs.slice(i, i + 250).map((d) => ({
        doc_id: d.id,
        chunk_index: 0,
        text: `${d.title}. ${d.text}`.slice(0, 20_000),
        section_heading: d.title,
      }));
      const out = await call('store_chunks', { project: SCIFACT_PROJECT, chunks });
      chunks004 += Number(out['chunks_stored'] ?? 0);
    }
    for (const d of docs) docKeys[d.id] = d.id;
    log(`  scifact: ${chunks004} chunks stored`);
  }
  const cpu = process.cpuUsage(c0);
  return {
    corpus,
    docKeys,
    ingest: {
      wall_s: (performance.now() - t0) / 1000,
      cpu_s: (cpu.user + cpu.system) / 1e6,
      chunks_000: chunks000,
      chunks_004: chunks004,
    },
    skipped,
  };
};

/** The page span of a spec 000 result ("14,15"). */
const pageSpan = (pages: unknown): [number | null, number | null] => {
  const ns = String(pages ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  return ns.length ? [Math.min(...ns), Math.max(...ns)] : [null, null];
};

/** Spec 000 `search_application_docs` results as hits (doc id through the ingest's doc id map). */
export const spec000Hits = (body: Record<string, unknown>, docKeys: Record<string, string>): Hit[] =>
  (body['results'] as Array<{ text: string; metadata: { document_id: string; page_numbers: string } }>).map((r) => {
    const [pageStart, pageEnd] = pageSpan(r.metadata.page_numbers);
    return { doc: docKeys[r.metadata.document_id] ?? r.metadata.document_id, pageStart, pageEnd, text: r.text };
  });

/** Spec 004 `find_chunks` / `query_hybrid` results as hits. */
export const spec004Hits = (body: Record<string, unknown>, docKeys: Record<string, string>): Hit[] =>
  (body['results'] as Array<{ doc_id: string; text: string; page_start: number | null; page_end: number | null }>).map(
    (r) => ({ doc: docKeys[r.doc_id] ?? r.doc_id, pageStart: r.page_start, pageEnd: r.page_end, text: r.text }),
  );

/** The diagnosis tools' store: the planning corpus's cached index with the default model (ingested when missing). */
export const openPlanningLectern = (log: (m: string) => void = () => {}): Promise<Lectern> =>
  openLectern({
    corpus: 'uk-planning-policy',
    model: 'potion-base-2M',
    modelDir: sharedModelDir('potion-base-2M'),
    reuseIndex: true,
    log,
  });

/**
 * For the diagnosis tools: the cached store's SQLite file opened read-only, and the row id of one project's
 * collection in it (`lectern_<project>`), whose `vs_chunks_<cid>` tables they read.
 */
export const openStoreCollection = (dataDir: string, project: string): { db: Database.Database; cid: number } => {
  const db = new Database(join(dataDir, 'vectors', 'vectors.sqlite'), { readonly: true });
  const row = db.prepare(`SELECT rowid AS cid FROM vs_collections WHERE name = ?`).get(`lectern_${project}`) as
    | { cid: number }
    | undefined;
  if (!row) throw new Error(`no collection lectern_${project} in ${dataDir}`);
  return { db, cid: row.cid };
};
