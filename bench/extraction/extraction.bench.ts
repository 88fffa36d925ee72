// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Issue 26's extraction benchmark: every datasheet of ../shared/corpora/datasheets (the OMRON G-Series catalogue
 * with its datasheetminer expected record plus per-model fields written here; Contactors.pdf with an expected file
 * written here by reading the PDF) and the generated contract/receipt set (`generated-set.ts`, marked generated).
 * Each document goes through extraction-api as a user's would (POST /tasks, the doc tools over MCP, evidence
 * verification), twice: the offline extractor (`EXTRACTOR=local`), and the agent path (`EXTRACTOR=anthropic`)
 * against the fake LLM server running an oracle script that knows the answers and uses only the real doc tools:
 * the upper bound of the tool chain, not a model's score. Per field: right, wrong (returned), null-when-present,
 * null-correct; precision, recall, F1 per document, per split (tuning / report) and overall, scored twice: strict
 * (normalised exact match, the headline) and lenient (containment, the first rounds' scorer); see score.ts.
 *
 *   npx tsx bench/extraction/extraction.bench.ts > bench/extraction/results/extraction.md
 *
 * The per-field table goes to stdout, timings and /proc/loadavg to stderr; docs/benchmarks/extraction.md records a run.
 *
 * BENCH_FEATURES=<file.jsonl>: every value the offline extractor decided (returned or abstained on) with its
 * calibration features (libs/extraction/src/local/calibration.ts), its set, and whether it is right (strict and
 * lenient), one JSON line each: the input of `bench/extraction/calibrate.ts`. A chosen value's line also says which
 * reading gave it and what the page layout's pair and grid cell read (`paths`; `bench/extraction/paths.ts` sorts the
 * wrong values and nulls by it, with BENCH_JSON's file).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtraction, submitTask, waitForTask } from '../../apps/extraction-api/src/extraction.testkit.js';
import { anthropicScript, corpusDocuments, extractionScore, startFakeLlm, type BenchDocument } from '@lectern/testing';
import { setFeatureSink, type FeatureRecord } from '@lectern/extraction';
import { generatedDocuments } from './generated-set.js';
import { oracleScript } from './oracle-script.js';

const { add, dictKeys, emptyTally, merge, score, summary } = extractionScore;
type Tally = extractionScore.Tally;
type Mode = extractionScore.Mode;
/** Strict first: it is the headline. */
const MODES: Mode[] = ['strict', 'lenient'];

interface Run {
  data: Record<string, unknown>;
  evidence: Record<string, unknown>;
  warnings?: string[];
  seconds: number;
}

const runTask = async (baseUrl: string, doc: BenchDocument): Promise<Run> => {
  const started = performance.now();
  const id = await submitTask(baseUrl, doc.filename, await doc.bytes(), doc.schema);
  const task = await waitForTask(baseUrl, id);
  if (task.status !== 'succeeded') throw new Error(`${doc.name}: ${JSON.stringify(task.error)}`);
  const result = (await (await fetch(`${baseUrl}/tasks/${id}/result`)).json()) as Run;
  return { ...result, seconds: (performance.now() - started) / 1000 };
};

const grounded = (leaf: unknown): string => {
  if (typeof leaf !== 'object' || leaf === null) return '';
  const l = leaf as Record<string, unknown>;
  if ('grounded' in l) return l['grounded'] === true ? `yes p${String(l['page'] ?? '?')}` : 'NO';
  const inner = Object.values(l).map(grounded);
  return inner.length ? `${inner.filter((g) => g.startsWith('yes')).length}/${inner.length} keys` : '';
};

const show = (v: unknown) => {
  const text = JSON.stringify(v ?? null);
  return (text.length > 70 ? `${text.slice(0, 67)}...` : text).replace(/\|/g, '\\|');
};

/** `name` contains `text`, not followed by a digit when `text` ends in one ("fresh-1" is not in "fresh-13-…"). */
const nameHas = (name: string, text: string): boolean => {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(/\d$/.test(text) ? `${escaped}(?!\\d)` : escaped).test(name);
};

const main = async () => {
  // BENCH_ONLY=fresh: only the documents whose name has that text (a quick look at one set);
  // BENCH_EXCEPT=fresh-13: every document but those whose name has that text (a blind set kept out of a fit);
  // a text ending in a digit is not matched by a longer number (fresh-1 is not fresh-13);
  // either may list several texts separated by commas (BENCH_EXCEPT=fresh-20,fresh-21);
  // BENCH_PATHS=local: the offline extractor only (no oracle agent)
  const only = process.env['BENCH_ONLY'];
  const except = process.env['BENCH_EXCEPT'];
  const withAgent = process.env['BENCH_PATHS'] !== 'local';
  const documents = [...corpusDocuments(), ...generatedDocuments()].filter(
    (d) =>
      (!only || only.split(',').some((t) => nameHas(d.name, t))) &&
      (!except || !except.split(',').some((t) => nameHas(d.name, t))),
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-extraction-'));
  const scripts = new Map(documents.map((d) => [d.name, anthropicScript(oracleScript(d.expected))]));
  // documents run one at a time: the fake LLM answers with the oracle of the document being extracted
  let current = documents[0]?.name ?? '';
  const llm = await startFakeLlm((body) => scripts.get(current)!(body));
  const local = await startExtraction({ DATA_DIR: join(dataDir, 'local'), EXTRACTOR: 'local' });
  const agent = await startExtraction({
    DATA_DIR: join(dataDir, 'agent'),
    EXTRACTOR: 'anthropic',
    ANTHROPIC_API_KEY: 'bench-key',
    ANTHROPIC_BASE_URL: llm.url,
    ANTHROPIC_DEFAULT_SONNET_MODEL: 'oracle',
  });
  // BENCH_JSON=file: every field's expected and extracted value in full (the table cuts them at 70 characters)
  const jsonOut = process.env['BENCH_JSON'];
  const full: unknown[] = [];
  const rows: string[] = [];
  const dictRows: string[] = [];
  const featuresFile = process.env['BENCH_FEATURES'];
  const featureLines: string[] = [];
  let pending: FeatureRecord[] = [];
  if (featuresFile) setFeatureSink((r) => pending.push(r));
  const tallies = new Map<string, Tally>();
  const tally = (key: string) => tallies.get(key) ?? tallies.set(key, emptyTally()).get(key)!;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  process.stderr.write(
    `loadavg before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  try {
    for (const doc of documents) {
      // offline and agent side by side, document by document
      current = doc.name;
      pending = [];
      const runs: Record<string, Run> = { local: await runTask(local.baseUrl, doc) };
      const set = doc.set ?? (doc.source === 'corpus' ? 'datasheets' : doc.source);
      for (const r of pending) {
        if (!(r.path[0]! in doc.expected)) continue;
        const expected = r.path.reduce<unknown>(
          (node, key) =>
            typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined,
          doc.expected,
        );
        featureLines.push(
          JSON.stringify({
            set,
            doc: doc.name,
            field: r.path.join('.'),
            value: r.value,
            expected: expected ?? null,
            strict: score(expected ?? null, r.value, 'strict'),
            lenient: score(expected ?? null, r.value, 'lenient'),
            confidence: r.confidence,
            abstained: r.abstained,
            chosen: r.chosen,
            snippet: r.snippet,
            features: r.features,
            ...(r.paths ? { paths: r.paths } : {}),
          }),
        );
      }
      if (withAgent) runs['agent'] = await runTask(agent.baseUrl, doc);
      for (const [path, run] of Object.entries(runs)) {
        for (const mode of MODES) {
          const perDoc = emptyTally();
          for (const [field, expected] of Object.entries(doc.expected)) {
            const got = run.data[field];
            const outcome = score(expected, got, mode);
            add(perDoc, outcome, expected);
            if (typeof expected === 'object' && expected !== null && !Array.isArray(expected)) {
              const k = dictKeys(expected as Record<string, unknown>, got, mode);
              dictRows.push(
                `| ${mode} | ${path} | ${doc.name} | ${field} | ${Object.keys(expected).length} | ${k.right} | ${k.wrong} | ${k.missing} | ${k.extra} |`,
              );
            }
            if (mode === 'strict' && jsonOut)
              full.push({
                path,
                document: doc.name,
                set: doc.set ?? (doc.source === 'corpus' ? 'datasheets' : doc.source),
                field,
                expected,
                got: got ?? null,
                strict: outcome,
                lenient: score(expected, got, 'lenient'),
                evidence: run.evidence[field] ?? null,
                warnings: run.warnings?.filter((w) => w.includes(`'${field}'`)) ?? [],
              });
            if (mode === 'strict')
              rows.push(
                `| ${path} | ${doc.name} | ${field} | ${show(expected)} | ${show(got)} | ${outcome} | ${score(expected, got, 'lenient')} | ${got === null ? '' : grounded(run.evidence[field])} |`,
              );
          }
          merge(tally(`${mode}|${path}|doc|${doc.name}`), perDoc);
          merge(tally(`${mode}|${path}|split|${set}, ${doc.split}`), perDoc);
          merge(tally(`${mode}|${path}|split|${set} (all)`), perDoc);
          merge(tally(`${mode}|${path}|all|all`), perDoc);
        }
        process.stderr.write(`${path} ${doc.name}: ${run.seconds.toFixed(1)} s\n`);
      }
    }
  } finally {
    await local.close();
    await agent.close();
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (featuresFile) writeFileSync(featuresFile, featureLines.map((l) => `${l}\n`).join(''));
  if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(full, null, 1)}\n`);
  const cpu = process.cpuUsage(cpu0);
  process.stderr.write(
    `wall ${((performance.now() - wall0) / 1000).toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; loadavg after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  const order = (key: string) => {
    const [mode, path, level] = key.split('|');
    return `${MODES.indexOf(mode as Mode)}|${path}|${['doc', 'split', 'all'].indexOf(level!)}`;
  };
  const sorted = [...tallies.entries()].sort((a, b) => order(a[0]).localeCompare(order(b[0])));
  const summaryRows = sorted.map(([key, t]) => {
    const [mode, path, , what] = key.split('|');
    const s = summary(t);
    return `| ${mode} | ${path} | ${what} | ${t.fields} | ${t.right} | ${t.wrong} | ${t.null_when_present} | ${t.null_correct} | ${s.fieldsRight} | ${s.returnedWrong} | ${s.precision} | ${s.recall} | ${s.f1} |`;
  });
  process.stdout.write(
    [
      '| scoring | path | documents | fields | right | wrong | null when present | null correct | fields right | returned wrong | precision | recall | F1 |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...summaryRows,
      '',
      '| scoring | path | document | per-model field | expected models | right | wrong | missing | extra keys |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...dictRows,
      '',
      '| path | document | field | expected | extracted | strict | lenient | grounded |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
};

await main();
