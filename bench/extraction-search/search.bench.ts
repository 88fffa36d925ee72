// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Which doc_search scoring finds the right locator more often on real datasheets: TF-IDF (spec 003's floor),
 * BM25, or hybrid (BM25 z-score-fused with an embedder's cosine at two weightings), each over chunks searched by
 * heading path + content (the product) or by content alone (the spec's wording).
 *
 * Each document is indexed through the product path (platform conversion job → locator chunker → cache). Each
 * query is what an extraction agent would ask for one schema field; its right locators are the chunks whose text
 * contains every string of one of its hand-written `right` alternatives (label and value, as printed in the PDF),
 * so the judgments hold whatever the chunker's numbering. Settings are chosen on the OMRON servo datasheet
 * ("tune", the one with expected values in ../shared/corpora/datasheets) and reported on the contactor catalogue
 * ("check") as well. Metrics: hit@1, hit@3 and MRR@5 (reciprocal rank of the first right chunk within the top 5).
 *   npx tsx bench/extraction-search/search.bench.ts [--model potion-base-2M --model-dir ../shared/models/potion-base-2M]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DocIndexBuildInput, type DocSearchMode } from '@lectern/contracts';
import {
  createDocTools,
  inverseDocumentFrequencies,
  loadIndex,
  rankChunks,
  termStats,
  type LoadedIndex,
} from '@lectern/doc-tools';
import { docToolsDeps } from '@lectern/doc-tools';
import { createPlatform } from '@lectern/platform';
import { corpusFile, silentLogger } from '@lectern/testing';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'potion-base-2M' },
    'model-dir': { type: 'string', default: '../shared/models/potion-base-2M' },
  },
});

interface Query {
  q: string;
  /** Alternatives; a chunk is right when it contains every string of one of them (case and spacing ignored). */
  right: string[][];
}

const DOCS: { name: string; split: 'tune' | 'check'; file: string; queries: Query[] }[] = [
  {
    name: 'omron-g-series-servo-motors',
    split: 'tune',
    file: 'datasheets/datasheetminer-benchmark/datasheets/omron-g-series-servo-motors.pdf',
    queries: [
      { q: 'rated torque', right: [['rated torque', '0.64']] },
      { q: 'peak torque', right: [['peak torque', '1.78']] },
      { q: 'rated current', right: [['rated current', '1.6']] },
      { q: 'peak current', right: [['max. current', '4.9']] },
      { q: 'rated speed', right: [['rated speed', '3,000']] },
      { q: 'max speed', right: [['max. speed', '5,000']] },
      { q: 'torque constant', right: [['torque constant', '0.41']] },
      { q: 'rotor inertia', right: [['rotor moment of inertia', '0.14']] },
      { q: 'axial load force rating', right: [['thrust load', '98']] },
      { q: 'radial load force rating', right: [['radial load', '245']] },
      { q: 'weight', right: [['mass', '0.8']] },
      { q: 'ip rating', right: [['ip65']] },
      {
        q: 'encoder feedback support',
        right: [
          ['encoder', '10,000'],
          ['encoder', '17 bit'],
        ],
      },
      { q: 'rated voltage', right: [['applied voltage', '230'], ['230 vac']] },
      {
        q: 'rated power',
        right: [
          ['rated output', '200'],
          ['capacity', '200 w'],
        ],
      },
      { q: 'brake cable', right: [['brake cable']] },
      { q: 'encoder cable length', right: [['encoder cable', '1.5 m']] },
      { q: 'oil seal option', right: [['oil seal']] },
    ],
  },
  {
    name: 'Contactors',
    split: 'check',
    file: 'datasheets/datasheetminer-benchmark/datasheets/Contactors.pdf',
    queries: [
      { q: 'rated insulation voltage', right: [['rated insulation voltage', '690']] },
      { q: 'rated impulse withstand voltage', right: [['impulse withstand voltage']] },
      { q: 'rated frequency', right: [['rated frequency', '50/60']] },
      { q: 'pollution degree', right: [['pollution degree']] },
      { q: 'switching frequency', right: [['switching frequency']] },
      { q: 'mechanical durability', right: [['mechanical durability']] },
      { q: 'electrical durability', right: [['electrical durability']] },
      { q: 'coil power consumption', right: [['coil consumption'], ['power consumption']] },
      { q: 'outside dimensions width height depth', right: [['outside dimensions']] },
      { q: 'applicable standard', right: [['applicable standard', 'iec60947-4-1']] },
      { q: 'conventional free air thermal current', right: [['conventional free air thermal current']] },
      { q: 'auxiliary contact rating', right: [['auxiliary contact rating']] },
      { q: 'DIN rail mounting', right: [['35mm rail']] },
      { q: 'coil surge absorber', right: [['surge absorber']] },
      { q: 'thermal overload relay model', right: [['th-t18']] },
      { q: 'AC-3 durability rating plate', right: [['rating plate']] },
    ],
  },
];

const flat = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
const isRight = (content: string, query: Query) =>
  query.right.some((all) => all.every((s) => flat(content).includes(flat(s))));

type Variant = {
  name: string;
  mode: DocSearchMode;
  fusion?: { denseWeight: number; keywordWeight: number };
  text: 'heading+content' | 'content';
};
const VARIANTS: Variant[] = (['heading+content', 'content'] as const).flatMap((text) => [
  { name: 'tfidf', mode: 'tfidf' as const, text },
  { name: 'bm25', mode: 'bm25' as const, text },
  { name: 'hybrid 0.2/0.8', mode: 'hybrid' as const, fusion: { denseWeight: 0.2, keywordWeight: 0.8 }, text },
  { name: 'hybrid 0.5/0.5', mode: 'hybrid' as const, fusion: { denseWeight: 0.5, keywordWeight: 0.5 }, text },
]);

const dataDir = mkdtempSync(join(tmpdir(), 'lectern-extraction-search-'));
const platform = createPlatform({ dataDir, log: silentLogger() });
const embedding = { model: values.model as string, modelDir: values['model-dir'] };
const deps = docToolsDeps(platform, {
  roots: ['/'],
  maxDocumentBytes: 200e6,
  indexTimeoutMs: 600_000,
  defaultMode: 'bm25',
  embedding,
  enableOcr: true,
});
const tools = createDocTools(deps);
const results: Record<string, unknown>[] = [];
try {
  for (const doc of DOCS) {
    const built = await tools.indexBuild(DocIndexBuildInput.parse({ file_path: corpusFile(doc.file) }));
    const index = await loadIndex(deps.cacheDir, built.index_id);
    const contentOnly: LoadedIndex = { ...index, stats: index.chunks.map((c) => termStats(c.content)) };
    contentOnly.idf = inverseDocumentFrequencies(contentOnly.stats);
    const all = index.chunks.map((_, i) => i);
    for (const query of doc.queries) {
      if (!index.chunks.some((c) => isRight(c.content, query)))
        throw new Error(`${doc.name}: no chunk is right for "${query.q}"`);
    }
    for (const v of VARIANTS) {
      const state = { vectors: new WeakMap(), bm25: new WeakMap() };
      let hit1 = 0;
      let hit3 = 0;
      let mrr = 0;
      for (const query of doc.queries) {
        const ranked = await rankChunks(
          deps,
          state,
          v.text === 'content' ? contentOnly : index,
          all,
          query.q,
          v.mode,
          v.fusion,
        );
        const rank = ranked
          .slice(0, 5)
          .findIndex((s) => isRight((index.chunks[Number(s.id)] as { content: string }).content, query));
        if (rank === 0) hit1++;
        if (rank >= 0 && rank < 3) hit3++;
        if (rank >= 0) mrr += 1 / (rank + 1);
      }
      const n = doc.queries.length;
      results.push({
        doc: doc.name,
        split: doc.split,
        chunks: index.chunks.length,
        queries: n,
        variant: v.name,
        text: v.text,
        hit1: hit1 / n,
        hit3: hit3 / n,
        mrr5: mrr / n,
      });
    }
  }
} finally {
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(
  join(dir, `search-${String(values.model)}.json`),
  `${JSON.stringify({ model: values.model, results }, null, 2)}\n`,
);
const pct = (x: unknown) => `${((x as number) * 100).toFixed(0)}%`;
process.stdout.write(
  `| split | document | searched text | scoring | hit@1 | hit@3 | MRR@5 |\n|---|---|---|---|---|---|---|\n`,
);
for (const r of results) {
  process.stdout.write(
    `| ${String(r['split'])} | ${String(r['doc'])} (${String(r['queries'])} q, ${String(r['chunks'])} chunks) | ${String(r['text'])} | ${String(r['variant'])} | ${pct(r['hit1'])} | ${pct(r['hit3'])} | ${(r['mrr5'] as number).toFixed(3)} |\n`,
  );
}
