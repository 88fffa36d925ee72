// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The headline figure of each benchmark page, from the numbers already measured: reads
 * `bench/<area>/results/headline.json` (copied from the page's table; its `source` says which) and writes
 * `headline.svg` beside it with the shared plotter. The vector-store page's figure comes from its own results
 * (`bench/vector-store/render-report.ts`).
 *
 *   npx tsx bench/plot/render-headlines.ts           # write the SVGs
 *   npx tsx bench/plot/render-headlines.ts --check   # exit 1 when a committed SVG is not what its JSON gives
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { barChart } from './svg-plot.js';

export const HEADLINE_AREAS = ['conversion', 'document-store', 'embedding', 'load'] as const;

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];

const HeadlineSchema = z.object({
  kind: z.literal('bar'),
  source: z.string(),
  title: z.string(),
  categories: z.array(z.string()).min(1),
  value: z.object({ label: z.string(), log: z.boolean().optional() }),
  unit: z.string().optional(),
  note: z.string().optional(),
  series: z.array(z.object({ label: z.string(), values: z.array(z.number().positive().nullable()) })).min(1),
});

export const headlineJson = (area: string): string =>
  join(dirname(import.meta.dirname), area, 'results', 'headline.json');
export const headlineSvgPath = (area: string): string => join(dirname(headlineJson(area)), 'headline.svg');

/** The SVG a headline JSON gives. */
export const renderHeadline = (json: unknown): string => {
  const h = HeadlineSchema.parse(json);
  for (const s of h.series)
    if (s.values.length !== h.categories.length)
      throw new Error(
        `${h.title}: series "${s.label}" has ${s.values.length} values for ${h.categories.length} categories`,
      );
  return barChart({
    title: h.title,
    categories: h.categories,
    value: h.value,
    ...(h.unit ? { unit: h.unit } : {}),
    ...(h.note ? { note: h.note } : {}),
    series: h.series.map((s, i) => ({
      label: s.label,
      color: PALETTE[i % PALETTE.length] as string,
      values: s.values.map((v) => v ?? undefined),
    })),
  });
};

const main = (): void => {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const area of HEADLINE_AREAS) {
    const svg = renderHeadline(JSON.parse(readFileSync(headlineJson(area), 'utf8')));
    const out = headlineSvgPath(area);
    if (check) {
      if (!existsSync(out) || readFileSync(out, 'utf8') !== svg) {
        console.error(`stale: ${out} (run npx tsx bench/plot/render-headlines.ts)`);
        stale += 1;
      }
    } else {
      writeFileSync(out, svg);
      console.log(`wrote ${out}`);
    }
  }
  process.exitCode = stale ? 1 : 0;
};

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
