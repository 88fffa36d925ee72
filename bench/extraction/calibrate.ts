// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Fits the offline extractor's confidence model (libs/extraction/src/local/calibration.ts) from the bench's feature
 * dump, leave-one-set-out: for each set, a logistic model fitted on every other set scores the left-out set's values;
 * those left-out probabilities are the honest estimate, and the abstention threshold is chosen from them (pooled over
 * all sets). Then the model is fitted once on every set: the weights to put in calibration.ts.
 *
 *   BENCH_FEATURES=/tmp/features.jsonl BENCH_PATHS=local npx tsx bench/extraction/extraction.bench.ts > /dev/null
 *   npx tsx bench/extraction/calibrate.ts /tmp/features.jsonl [lambda]
 *
 * A value is right when the strict scorer says so; any other returned value is wrong. Markdown to stdout.
 */
import { readFileSync } from 'node:fs';
import { FEATURE_NAMES, featureVector, type ValueFeatures } from '@lectern/extraction';

interface Row {
  set: string;
  doc: string;
  field: string;
  value: unknown;
  strict: string;
  lenient: string;
  features: ValueFeatures;
  /** The value the extractor chose; false: another candidate's (training only with `candidates`). */
  chosen?: boolean;
  snippet?: string;
}

const file = process.argv[2];
if (!file) throw new Error('usage: calibrate.ts <features.jsonl> [lambda]');
/** L2 penalty on the weights (not the intercept). */
const lambda = Number(process.argv[3] ?? '1');
/**
 * Training additions (comma-separated, figures are always on the chosen values only): `candidates`, the other
 * candidates' values; `extend`, each right value extended to the end of its snippet's line or cell (the neighbour
 * kept: the commonest wrong value on the blind sets), as a wrong value.
 */
const modes = new Set((process.argv[4] ?? '').split(',').filter(Boolean));
const withCandidates = modes.has('candidates');
const dumped = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Row);
const rows = dumped.filter((r) => r.chosen !== false);
const IDENTIFIER = /(?:^|_)(?:number|no|id|code|ref|reference|serial|address|postcode|zip|phone|version|model)$/;
/** A right value with the rest of its line or cell kept: the same features, a longer value. */
const extended = (r: Row): Row[] => {
  if (r.strict !== 'right' || typeof r.value !== 'string' || !r.snippet) return [];
  const at = r.snippet.toLowerCase().indexOf(r.value.toLowerCase());
  if (at < 0) return [];
  const tail = /^[^\n|]*/
    .exec(r.snippet.slice(at + r.value.length))![0]
    .replace(/^[\s,;:]+/, '')
    .trim();
  const words = tail.split(/\s+/).filter((w) => /[\p{L}\d]/u.test(w)).length;
  if (words === 0) return [];
  const digitInWords =
    r.features.digitInWords ||
    (r.features.kind === 'text' && !IDENTIFIER.test(r.field.split('.').pop()!) && /\d/.test(tail));
  return [
    {
      ...r,
      value: `${r.value} ${tail}`,
      strict: 'wrong',
      chosen: false,
      features: { ...r.features, extraWords: r.features.extraWords + words, digitInWords },
    },
  ];
};
const training = [...(withCandidates ? dumped : rows), ...(modes.has('extend') ? rows.flatMap(extended) : [])];
const xOf = (r: Row) => [1, ...featureVector(r.features)];
const yOf = (r: Row) => (r.strict === 'right' ? 1 : 0);
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Solve A x = b (Gaussian elimination with partial pivoting; A is small and positive definite here). */
const solve = (a: number[][], b: number[]): number[] => {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c += 1) {
    let p = c;
    for (let r = c + 1; r < n; r += 1) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r += 1) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k += 1) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
};

/** Penalised logistic regression by Newton's method (IRLS). */
const fit = (train: Row[]): number[] => {
  const d = FEATURE_NAMES.length + 1;
  let w = Array<number>(d).fill(0);
  for (let iter = 0; iter < 50; iter += 1) {
    const grad = Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => Array<number>(d).fill(0));
    for (const r of train) {
      const x = xOf(r);
      const p = sigmoid(x.reduce((s, v, k) => s + v * w[k]!, 0));
      const g = yOf(r) - p;
      for (let i = 0; i < d; i += 1) {
        grad[i]! += g * x[i]!;
        for (let j = 0; j < d; j += 1) hess[i]![j]! += p * (1 - p) * x[i]! * x[j]!;
      }
    }
    for (let i = 1; i < d; i += 1) {
      grad[i]! -= lambda * w[i]!;
      hess[i]![i]! += lambda;
    }
    hess[0]![0]! += 1e-6;
    const step = solve(hess, grad);
    w = w.map((v, k) => v + step[k]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return w;
};

const predict = (w: number[], r: Row) => sigmoid(xOf(r).reduce((s, v, k) => s + v * w[k]!, 0));

const sets = [...new Set(rows.map((r) => r.set))];
const heldOut = new Map<Row, number>();
for (const set of sets) {
  const w = fit(training.filter((r) => r.set !== set));
  for (const r of rows.filter((r) => r.set === set)) heldOut.set(r, predict(w, r));
}
const all = fit(training);

const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`);
const THRESHOLDS = [0, 0.2, 0.3, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9];
const at = (subset: Row[], t: number) => {
  const kept = subset.filter((r) => heldOut.get(r)! >= t);
  const right = kept.filter((r) => yOf(r) === 1).length;
  return { kept: kept.length, right, wrong: kept.length - right };
};
/** Brier score and the mean predicted vs the observed share right, of the left-out predictions. */
const calibrationOf = (subset: Row[]) => {
  const brier = subset.reduce((s, r) => s + (heldOut.get(r)! - yOf(r)) ** 2, 0) / subset.length;
  const mean = subset.reduce((s, r) => s + heldOut.get(r)!, 0) / subset.length;
  const observed = subset.filter((r) => yOf(r) === 1).length / subset.length;
  return { brier, mean, observed };
};

const out: string[] = [];
out.push(
  `${rows.length} values (${rows.filter((r) => yOf(r) === 1).length} right, ${rows.filter((r) => yOf(r) === 0).length} wrong, strict); lambda ${lambda}; trained on ${training.length} values${modes.size ? ` (${[...modes].join(', ')})` : ''}`,
  '',
);
out.push('Left-out figures per set (kept right / kept wrong at each threshold; the model never saw the set):', '');
out.push(
  `| left-out set | values | wrong | mean p | share right | Brier | ${THRESHOLDS.map((t) => `≥ ${t}`).join(' | ')} |`,
);
out.push(`| --- | --- | --- | --- | --- | --- | ${THRESHOLDS.map(() => '---').join(' | ')} |`);
for (const set of [...sets, 'all (pooled)']) {
  const subset = set === 'all (pooled)' ? rows : rows.filter((r) => r.set === set);
  const c = calibrationOf(subset);
  const cells = THRESHOLDS.map((t) => {
    const a = at(subset, t);
    return `${a.right} / ${a.wrong} (${pct(a.wrong, a.kept)})`;
  });
  out.push(
    `| ${set} | ${subset.length} | ${subset.filter((r) => yOf(r) === 0).length} | ${c.mean.toFixed(3)} | ${c.observed.toFixed(3)} | ${c.brier.toFixed(4)} | ${cells.join(' | ')} |`,
  );
}
// the threshold: the fewest wrong values kept plus right values lost over the pooled left-out values (a wrong value
// returned and a right one withheld cost the same; a tie goes to the higher threshold: precision first), on a 0.05 grid
const grid = Array.from({ length: 19 }, (_, k) => Math.round(k * 5) / 100);
const right = rows.filter((r) => yOf(r) === 1).length;
const costs = grid.map((t) => {
  const a = at(rows, t);
  return { t, cost: a.wrong + (right - a.right), ...a };
});
const chosen = costs.reduce((b, c) => (c.cost <= b.cost ? c : b));
out.push(
  '',
  `Threshold by the fewest (wrong kept + right lost), pooled left-out: ${costs.map((c) => `${c.t}: ${c.wrong} + ${right - c.right} = ${c.cost}`).join('; ')}. Chosen: **${chosen.t}**.`,
);
out.push('', 'Left-out probability of every wrong value:', '');
out.push('| set | document | field | value | left-out p | p (all sets) |', '| --- | --- | --- | --- | --- | --- |');
for (const r of rows.filter((r) => yOf(r) === 0))
  out.push(
    `| ${r.set} | ${r.doc.slice(0, 50)} | ${r.field} | ${JSON.stringify(r.value).slice(0, 50).replace(/\|/g, '\\|')} | ${heldOut.get(r)!.toFixed(3)} | ${predict(all, r).toFixed(3)} |`,
  );
out.push('', 'Weights fitted on every set (calibration.ts `WEIGHTS`):', '');
out.push('| input | weight |', '| --- | --- |', `| (intercept) | ${all[0]!.toFixed(3)} |`);
FEATURE_NAMES.forEach((n, k) => out.push(`| ${n} | ${all[k + 1]!.toFixed(3)} |`));
out.push('', `[${all.map((v) => v.toFixed(3)).join(', ')}]`);
process.stdout.write(`${out.join('\n')}\n`);
