// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfTextAt } from '@lectern/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtraction, submitTask, waitForTask, type RunningExtraction } from './extraction.testkit.js';

interface Result {
  data: Record<string, unknown>;
  evidence: Record<string, unknown>;
  warnings: string[];
}

const show = (x: number, y: number, text: string, size = 10, font = 'F1') => pdfTextAt(x, y, text, size, font);
const XS = [72, 140, 200, 265, 325, 395, 465];
const rows = [
  ['Designation', 'Pitch p', 'Outer D', 'Width W', 'Belt load F', 'Static load F0', 'Max speed'],
  ['TP-20', '5 mm', '38 mm', '16 mm', '1.2 kN', '2.0 kN', '9000 r/min'],
  ['TP-32', '5 mm', '54 mm', '21 mm', '1.9 kN', '3.1 kN', '7000 r/min'],
  ['TP-48', '8 mm', '80 mm', '30 mm', '3.4 kN', '5.6 kN', '5000 r/min'],
];
/**
 * A timing pulley range: one row per size, a symbol after each column's name. The Markdown's table rules read a
 * column header as the per-model field's one value ("Static load F0" for `width`, checked without round 13); the grid
 * on the page prints it as a header. No bench document prints this text.
 */
const sheet = makePdf([
  {
    content: [
      show(72, 740, 'Toothed pulleys, TP series', 14, 'F2'),
      show(72, 722, 'Aluminium, anodised, for 25 mm belts.', 10),
      show(72, 700, 'Sizes and ratings', 11, 'F2'),
      ...rows.flatMap((cells, i) => cells.map((c, k) => show(XS[k]!, 680 - i * 15, c, 8, i === 0 ? 'F2' : 'F1'))),
      show(72, 610, 'Ratings are for a belt speed of 20 m/s; derate above 40 \u00b0C.', 10),
    ].join('\n'),
  },
]);

describe('a per-model field read as a grid’s column header (offline extractor, round 13)', () => {
  let dataDir: string;
  let service: RunningExtraction;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'layout-arbitration-grid-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses the header and takes the grid’s column keyed by the models', async () => {
    const id = await submitTask(service.baseUrl, 'pulleys.pdf', sheet, { width: {} });
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    const r = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as Result;
    expect(r.data['width']).toEqual({
      'TP-20': expect.stringMatching(/^16 ?mm$/),
      'TP-32': expect.stringMatching(/^21 ?mm$/),
      'TP-48': expect.stringMatching(/^30 ?mm$/),
    });
    expect(r.warnings).toContainEqual(
      expect.stringContaining(`Field 'width' was read from a grid on the page: "16 mm" for the model "TP-20"`),
    );
    // each model's evidence holds the column header that names the field, so it is grounded on the page
    const leaves = r.evidence['width'] as Record<string, { grounded?: boolean; page?: number; snippet?: string }>;
    for (const model of ['TP-20', 'TP-32', 'TP-48'])
      expect([
        model,
        leaves[model]?.grounded,
        leaves[model]?.page,
        leaves[model]?.snippet?.startsWith('Width W'),
      ]).toEqual([model, true, 1, true]);
  });
});
