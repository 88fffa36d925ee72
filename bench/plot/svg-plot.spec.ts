// SPDX-License-Identifier: AGPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { barChart, linePlot } from './svg-plot.js';
import { HEADLINE_AREAS, headlineJson, headlineSvgPath, renderHeadline } from './render-headlines.js';

const docs = join(import.meta.dirname, '..', '..', 'docs', 'benchmarks');
const attr = (svg: string, element: string, name: string): number[] =>
  [...svg.matchAll(new RegExp(`<${element}[^>]* ${name}="([-\\d.]+)"`, 'g'))].map((m) => Number(m[1]));

describe("bench/plot: the benchmark pages' figures", () => {
  it('barChart draws one bar per value, longer for larger values, on a log axis too', () => {
    for (const log of [false, true]) {
      const svg = barChart({
        title: 'T <&>',
        categories: ['a', 'b'],
        value: { label: 'ms', log },
        series: [
          { label: 'fast', color: '#111', values: [1, 10] },
          { label: 'slow', color: '#222', values: [100, undefined] },
        ],
      });
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).toContain('T &lt;&amp;&gt;');
      // bars in drawing order: a/fast (1), a/slow (100), b/fast (10); the first rect is the background
      const [one, hundred, ten] = attr(svg, 'rect', 'width').slice(1);
      expect(attr(svg, 'rect', 'width')).toHaveLength(4);
      expect(one).toBeLessThan(ten as number);
      expect(ten).toBeLessThan(hundred as number);
    }
  });

  it('linePlot puts larger values higher and keeps one legend entry per label', () => {
    const svg = linePlot({
      title: 'latency',
      x: { label: 'size', log: true },
      y: { label: 'ms', log: true },
      series: [
        {
          label: 'dense',
          color: '#111',
          points: [
            [10, 1],
            [1000, 100],
          ],
        },
        {
          label: 'dense',
          color: '#111',
          dashed: true,
          points: [
            [10, 2],
            [1000, 200],
          ],
        },
      ],
    });
    const cy = attr(svg, 'circle', 'cy');
    expect(cy[0]).toBeGreaterThan(cy[1] as number); // SVG y grows downwards
    expect(svg.match(/>dense</g)).toHaveLength(1);
  });

  it('every benchmark page shows its headline SVG, and each committed SVG is what its numbers give', () => {
    for (const area of HEADLINE_AREAS) {
      const committed = readFileSync(headlineSvgPath(area), 'utf8');
      expect(committed).toBe(renderHeadline(JSON.parse(readFileSync(headlineJson(area), 'utf8'))));
      expect(readFileSync(join(docs, `${area}.md`), 'utf8')).toContain(`](../../bench/${area}/results/headline.svg)`);
    }
    expect(readFileSync(join(docs, 'vector-store.md'), 'utf8')).toContain(
      '](../../bench/vector-store/results/latency.svg)',
    );
  });

  it('refuses a headline whose series do not match its categories', () => {
    expect(() =>
      renderHeadline({
        kind: 'bar',
        source: 's',
        title: 't',
        categories: ['a', 'b'],
        value: { label: 'v' },
        series: [{ label: 'x', values: [1] }],
      }),
    ).toThrow(/1 values for 2 categories/);
  });
});
