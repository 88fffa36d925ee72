// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The retrieval evaluation, importable: `runEval({ set: 'planning-dev' })` answers every question of the set with
 * every system, side by side (per question the systems take turns, the first one rotating), and scores them with
 * metrics.ts. CPU time is this process's (the store runs in process, so it includes the server's work) and is
 * measured around each call, beside wall time; /proc/loadavg is read before and after.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { loadCorpus } from '../../embedding/corpus.js';
import {
  PLANNING_PROJECT,
  SCIFACT_PROJECT,
  SPEC000_PROJECT,
  openLectern,
  spec000Hits,
  spec004Hits,
  type Lectern,
} from './lectern.js';
import { meanScores, scoreQuestion, type Hit, type QuestionScore } from './metrics.js';
import { corpusPdfs, pageWindows, pymupdfPages } from './pdf-text.js';
import { bm25Peer, densePeer, type Peer, type PeerText } from './peers.js';
import { sharedModelDir } from '@lectern/testing';
import { loadSet, type EvalSet, type SetName } from './sets.js';

export const SYSTEMS = [
  'sad-hybrid',
  'sad-keyword',
  'sad-semantic',
  'query_hybrid',
  'query_hybrid-keyword',
  'find_chunks',
  'bm25-peer',
  'dense-peer',
] as const;
export type SystemName = (typeof SYSTEMS)[number];

export const SYSTEM_LABELS: Record<SystemName, string> = {
  'sad-hybrid': 'Lectern search_application_docs, hybrid (default)',
  'sad-keyword': 'Lectern search_application_docs, search_mode keyword',
  'sad-semantic': 'Lectern search_application_docs, search_mode semantic',
  query_hybrid: 'Lectern query_hybrid (spec 004, default weights)',
  'query_hybrid-keyword': 'Lectern query_hybrid, dense_weight 0 (BM25 only)',
  find_chunks: 'Lectern find_chunks (spec 004, dense only)',
  'bm25-peer': 'Peer 1: BM25 over PyMuPDF 800-char windows / abstracts',
  'dense-peer': 'Peer 2: exact cosine, same embedder, same windows / abstracts',
};

export interface EvalOptions {
  set: SetName;
  systems?: readonly SystemName[];
  model?: string;
  modelDir?: string;
  /** Re-ingest even when a cached store exists. */
  fresh?: boolean;
  /** Reuse the newest cached store whatever the code version (for query-time tuning only). */
  reuseIndex?: boolean;
  /** Only the first n questions (smoke runs). */
  limit?: number;
  log?: (m: string) => void;
}

/** One question's scores for one system (kind: the planning question's kind). */
export type PerQuery = { id: string; kind?: string } & QuestionScore;

export interface SystemResult {
  system: SystemName;
  label: string;
  metrics: QuestionScore;
  queries: number;
  wall_ms_per_query: number;
  cpu_ms_per_query: number;
  /** Per question: id and scores (for paired comparisons). */
  per_query: PerQuery[];
}

export interface EvalReport {
  set: SetName;
  corpus: string;
  date: string;
  model: string;
  queries: number;
  loadavg_before: number[];
  loadavg_after: number[];
  index: {
    cached: boolean;
    lectern_ingest: { wall_s: number; cpu_s: number; chunks_000: number; chunks_004: number };
    lectern_skipped: string[];
    peer_texts: number;
    pymupdf_cpu_s: number | null;
    peer_build: { bm25_cpu_s: number; dense_cpu_s: number };
  };
  results: SystemResult[];
}

const procLoad = (): number[] => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    return loadavg();
  }
};

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

/** PDF corpora: every PDF's PyMuPDF pages in 800-character windows; SciFact: the abstracts. */
const peerTexts = async (set: EvalSet): Promise<{ texts: PeerText[]; cpuS: number | null }> => {
  if (set.corpus === 'beir-scifact')
    return { texts: loadCorpus().map((d) => ({ doc: d.id, page: null, text: `${d.title}. ${d.text}` })), cpuS: null };
  const { docs, cpuS } = await pymupdfPages(corpusPdfs(set.corpus).pdfs);
  return { texts: pageWindows(docs, 800), cpuS };
};

/** One system's top 10 for one query. */
const asker = (
  system: SystemName,
  set: EvalSet,
  lectern: Lectern,
  peers: Partial<Record<'bm25' | 'dense', Peer>>,
): ((q: string) => Promise<Hit[]>) => {
  const keys = lectern.record.docKeys;
  const planning = set.corpus !== 'beir-scifact';
  const p000 = planning ? SPEC000_PROJECT : SCIFACT_PROJECT;
  const p004 = planning ? PLANNING_PROJECT : SCIFACT_PROJECT;
  const sad = (mode: string) => async (query: string) =>
    spec000Hits(
      await lectern.call('search_application_docs', { query, max_results: 10, search_mode: mode, project: p000 }),
      keys,
    );
  const s004 =
    (tool: string, extra: Record<string, unknown> = {}) =>
    async (query: string) =>
      spec004Hits(await lectern.call(tool, { project: p004, query, top_k: 10, max_chars: 20_000, ...extra }), keys);
  switch (system) {
    case 'sad-hybrid':
      return sad('hybrid');
    case 'sad-keyword':
      return sad('keyword');
    case 'sad-semantic':
      return sad('semantic');
    case 'query_hybrid':
      return s004('query_hybrid');
    case 'query_hybrid-keyword':
      return s004('query_hybrid', { dense_weight: 0, keyword_weight: 1 });
    case 'find_chunks':
      return s004('find_chunks');
    case 'bm25-peer':
      return (q) => (peers.bm25 as Peer).search(q, 10);
    case 'dense-peer':
      return (q) => (peers.dense as Peer).search(q, 10);
  }
};

export const runEval = async (o: EvalOptions): Promise<EvalReport> => {
  const log = o.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const systems = [...(o.systems ?? SYSTEMS)];
  const set = loadSet(o.set);
  const queries = o.limit ? set.queries.slice(0, o.limit) : set.queries;
  const model = o.model ?? 'potion-base-2M';
  const loadBefore = procLoad();
  const lectern = await openLectern({
    corpus: set.corpus,
    model,
    modelDir: o.modelDir ?? sharedModelDir(model),
    fresh: o.fresh,
    reuseIndex: o.reuseIndex,
    log,
  });
  try {
    // Judgments name planning documents by path; systems report content hashes (copies are one document).
    const pathKey =
      set.corpus === 'beir-scifact' ? null : new Map(corpusPdfs(set.corpus).pdfs.map((p) => [p.rel, p.hash]));
    const judge = (docs: string[]) =>
      new Set(
        docs.map((d) => {
          if (!pathKey) return d;
          const key = pathKey.get(d);
          if (!key) throw new Error(`${o.set}: document ${d} is not in the corpus`);
          return key;
        }),
      );
    const peers: Partial<Record<'bm25' | 'dense', Peer>> = {};
    let peerCount = 0;
    let pymupdfCpu: number | null = null;
    const build = { bm25_cpu_s: 0, dense_cpu_s: 0 };
    if (systems.includes('bm25-peer') || systems.includes('dense-peer')) {
      const { texts, cpuS } = await peerTexts(set);
      peerCount = texts.length;
      pymupdfCpu = cpuS;
      let c = process.cpuUsage();
      if (systems.includes('bm25-peer')) peers.bm25 = bm25Peer(texts);
      build.bm25_cpu_s = cpuMs(c) / 1000;
      c = process.cpuUsage();
      if (systems.includes('dense-peer')) peers.dense = await densePeer(texts, await lectern.embedder());
      build.dense_cpu_s = cpuMs(c) / 1000;
      log(`peers: ${texts.length} texts`);
    }
    const ask = new Map(systems.map((s) => [s, asker(s, set, lectern, peers)]));
    const acc = new Map(systems.map((s) => [s, { wall: 0, cpu: 0, per: [] as PerQuery[] }]));
    for (const [qi, q] of queries.entries()) {
      const judgment = { docs: judge(q.docs), ...(q.page ? { page: q.page, keyPhrase: q.keyPhrase } : {}) };
      for (let k = 0; k < systems.length; k++) {
        const s = systems[(qi + k) % systems.length] as SystemName;
        const a = acc.get(s) as { wall: number; cpu: number; per: PerQuery[] };
        const t = performance.now();
        const c = process.cpuUsage();
        const hits = await (ask.get(s) as (q: string) => Promise<Hit[]>)(q.text);
        a.cpu += cpuMs(c);
        a.wall += performance.now() - t;
        a.per.push({ id: q.id, ...(q.kind ? { kind: q.kind } : {}), ...scoreQuestion(hits, judgment) });
      }
      if ((qi + 1) % 100 === 0) log(`  ${qi + 1}/${queries.length} queries`);
    }
    const results: SystemResult[] = systems.map((s) => {
      const a = acc.get(s) as { wall: number; cpu: number; per: PerQuery[] };
      return {
        system: s,
        label: SYSTEM_LABELS[s],
        metrics: meanScores(a.per),
        queries: a.per.length,
        wall_ms_per_query: a.wall / Math.max(1, a.per.length),
        cpu_ms_per_query: a.cpu / Math.max(1, a.per.length),
        per_query: a.per,
      };
    });
    return {
      set: o.set,
      corpus: set.corpus,
      date: new Date().toISOString(),
      model,
      queries: queries.length,
      loadavg_before: loadBefore,
      loadavg_after: procLoad(),
      index: {
        cached: lectern.cached,
        lectern_ingest: lectern.record.ingest,
        lectern_skipped: lectern.record.skipped,
        peer_texts: peerCount,
        pymupdf_cpu_s: pymupdfCpu,
        peer_build: build,
      },
      results,
    };
  } finally {
    await lectern.close();
  }
};
