// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Issue 15: the offline extractor (EXTRACTOR=local) scored on the datasheets that have expected values
 * (../shared/corpora/datasheets/datasheetminer-benchmark: the Omron G-Series servo motors, product R88M-G20030).
 * The document goes through extraction-api as a user's would (POST /tasks, the doc tools over MCP, evidence
 * verification); each field is scored against the expected record, normalised as the expected file writes it
 * ("value;unit": the number must match; a number: equal; a string: one contains the other, case and spacing
 * ignored; null: the extractor must answer null).
 *
 *   npx tsx bench/extraction/offline-extractor.bench.ts
 *
 * Writes the Markdown table to stdout; docs/benchmarks/extraction.md records a run.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corporaDir } from '@lectern/testing';
import { startExtraction, submitTask, waitForTask } from '../../apps/extraction-api/src/extraction.testkit.js';

const root = join(corporaDir(), 'datasheets', 'datasheetminer-benchmark');
/** The fields scored: the expected record's specification fields (ids, URLs, page lists and prices are not in the document). */
const FIELDS = [
  'manufacturer',
  'series',
  'rated_voltage',
  'rated_speed',
  'max_speed',
  'rated_torque',
  'peak_torque',
  'rated_power',
  'encoder_feedback_support',
  'poles',
  'rated_current',
  'peak_current',
  'voltage_constant',
  'torque_constant',
  'resistance',
  'inductance',
  'ip_rating',
  'rotor_inertia',
  'axial_load_force_rating',
  'radial_load_force_rating',
  'weight',
];
const DATASHEETS = [{ pdf: 'omron-g-series-servo-motors.pdf', expected: 'omron-g-series-servo-motors.json' }];

const firstNumber = (v: unknown): number | undefined => {
  const m = /-?\d+(?:[.,]\d+)?/.exec(String(v).replace(/(\d),(\d{3})\b/g, '$1$2'));
  return m ? Number(m[0].replace(',', '.')) : undefined;
};
const squash = (v: unknown) =>
  String(v)
    .toLowerCase()
    .replace(/[\s\-_]+/g, '');

const correct = (expected: unknown, got: unknown): boolean => {
  if (expected === null || expected === undefined) return got === null;
  if (got === null || got === undefined) return false;
  if (typeof expected === 'number') return firstNumber(got) === expected;
  const text = String(expected);
  if (/^-?[\d.]+;/.test(text)) return firstNumber(got) === Number(text.split(';')[0]);
  return squash(got).includes(squash(text)) || squash(text).includes(squash(got));
};

const main = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-extraction-'));
  const service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  const rows: string[] = [];
  let scored = 0;
  let right = 0;
  let returned = 0;
  let grounded = 0;
  try {
    for (const sheet of DATASHEETS) {
      const expected = (
        JSON.parse(readFileSync(join(root, 'expected', sheet.expected), 'utf8')) as Record<string, unknown>[]
      )[0]!;
      // The product is named in the schema (the part number's hint): it picks the column of per-model tables.
      const schema = Object.fromEntries([
        ['part_number', String(expected['part_number'])],
        ...FIELDS.map((f) => [f, '']),
      ]);
      const started = performance.now();
      const id = await submitTask(
        service.baseUrl,
        sheet.pdf,
        readFileSync(join(root, 'datasheets', sheet.pdf)),
        schema,
      );
      const task = await waitForTask(service.baseUrl, id);
      if (task.status !== 'succeeded') throw new Error(`${sheet.pdf}: ${JSON.stringify(task.error)}`);
      const result = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as {
        data: Record<string, unknown>;
        evidence: Record<string, { grounded?: boolean; locator: string | null }>;
        timing: { total_seconds: number };
      };
      const seconds = (performance.now() - started) / 1000;
      for (const field of FIELDS) {
        const got = result.data[field];
        const ok = correct(expected[field], got);
        const ev = result.evidence[field];
        scored += 1;
        right += ok ? 1 : 0;
        if (got !== null) {
          returned += 1;
          grounded += ev?.grounded ? 1 : 0;
        }
        rows.push(
          `| ${sheet.pdf} | ${field} | ${JSON.stringify(expected[field] ?? null)} | ${JSON.stringify(got)} | ${ok ? 'yes' : 'no'} | ${got === null ? '' : ev?.grounded ? `yes (${ev.locator})` : 'NO'} |`,
        );
      }
      process.stderr.write(
        `${sheet.pdf}: ${seconds.toFixed(1)} s (timing.total_seconds ${result.timing.total_seconds})\n`,
      );
    }
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(
    [
      '| datasheet | field | expected | extracted | correct | grounded |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
      `Correct: ${right}/${scored} (${((100 * right) / scored).toFixed(1)}%). Returned (non-null): ${returned}; grounded: ${grounded}/${returned}.`,
      '',
    ].join('\n'),
  );
};

await main();
