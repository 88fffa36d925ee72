// SPDX-License-Identifier: AGPL-3.0-or-later
import { findTextQuads } from '@lectern/conversion';
import { makePdf, pdfTextAt } from '@lectern/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtraction, submitTask, waitForTask, type RunningExtraction } from './extraction.testkit.js';

interface Leaf {
  grounded?: boolean;
  page?: number;
  quads?: number[][];
}
interface Result {
  data: Record<string, unknown>;
  evidence: Record<string, Leaf | Record<string, Leaf>>;
  warnings: string[];
}

const show = (x: number, y: number, text: string, size = 9) => pdfTextAt(x, y, text, size);
const row = (y: number, cells: string[], xs: number[]) => cells.map((c, i) => (c ? show(xs[i]!, y, c) : '')).join('\n');

/**
 * A kiln controller's datasheet: a Min / Typ / Max / Unit grid (the field's qualifier names the column: nominal =
 * Typ, maximum = Max; a row with one limit and its unit), and a grid with one column per model (a per-model field
 * takes its row keyed by the models), and a grid with one model per row whose header prints the unit in brackets.
 * No bench document prints this text.
 */
const LIMITS = [72, 250, 310, 370, 430];
const MODELS = [72, 250, 330, 410];
const ROWS = [72, 200, 290, 420];
const sheet = makePdf([
  {
    content: [
      show(72, 740, 'Kilnwright KC series kiln controller', 14),
      show(72, 715, 'Electrical characteristics', 11),
      row(695, ['Parameter', 'Min', 'Typ', 'Max', 'Unit'], LIMITS),
      row(681, ['Element supply', '207', '230', '253', 'V'], LIMITS),
      row(667, ['Thermocouple offset', '-2', '', '2', 'K'], LIMITS),
      row(653, ['Firing ramp', '', '', '400', 'K/h'], LIMITS),
      show(72, 620, 'Models', 11),
      row(600, ['Parameter', 'KC-210', 'KC-420', 'KC-630'], MODELS),
      row(586, ['Element power', '2.1 kW', '4.2 kW', '6.3 kW'], MODELS),
      row(572, ['Zones', '1', '2', '3'], MODELS),
      show(72, 540, 'Dimensions', 11),
      row(520, ['Model', 'Chamber (l)', 'Lid', 'Mass (kg)'], ROWS),
      row(506, ['KC 210', '60', 'G 1 / hinged', '38.5'], ROWS),
      row(492, ['KC 420', '120', 'G 2 / lift-off', '61.0'], ROWS),
    ].join('\n'),
  },
]);

const SCHEMA = {
  nominal_element_supply: '',
  maximum_element_supply: '',
  firing_ramp: '',
  element_power: {},
  mass: {},
  door_seal: '',
};

describe('grid cells by row label × column header from the page layout (offline extractor, round 12)', () => {
  let dataDir: string;
  let service: RunningExtraction;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'grid-cells-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the cell the field’s qualifier names, a row with its Unit cell, and a per-model row as a dict', async () => {
    const id = await submitTask(service.baseUrl, 'kiln-controller.pdf', sheet, SCHEMA);
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    const r = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as Result;
    expect(r.data).toMatchObject({
      nominal_element_supply: expect.stringMatching(/^230 ?V$/),
      maximum_element_supply: expect.stringMatching(/^253 ?V$/),
      firing_ramp: expect.stringMatching(/^400 ?K\/h$/),
      element_power: {
        'KC-210': expect.stringMatching(/^2\.1 ?kW$/),
        'KC-420': expect.stringMatching(/^4\.2 ?kW$/),
        'KC-630': expect.stringMatching(/^6\.3 ?kW$/),
      },
      // one model per row: the column whose header names the field, keyed by the row labels, the unit from the
      // header's brackets
      mass: { 'KC 210': expect.stringMatching(/^38\.5 ?kg$/), 'KC 420': expect.stringMatching(/^61\.0 ?kg$/) },
      door_seal: null,
    });
    // each value grounded on page 1, its cell's own box among the evidence's quads
    const leaves: [string, Leaf, string][] = [
      ['nominal_element_supply', r.evidence['nominal_element_supply'] as Leaf, '230'],
      ['maximum_element_supply', r.evidence['maximum_element_supply'] as Leaf, '253'],
      ['firing_ramp', r.evidence['firing_ramp'] as Leaf, '400'],
      ['mass.KC 210', (r.evidence['mass'] as Record<string, Leaf>)['KC 210']!, '38.5'],
      ['mass.KC 420', (r.evidence['mass'] as Record<string, Leaf>)['KC 420']!, '61.0'],
    ];
    for (const [name, leaf, text] of leaves) {
      expect([name, leaf.grounded, leaf.page]).toEqual([name, true, 1]);
      const own = await findTextQuads(sheet, 1, text);
      const overlaps = own.quads.some((q) =>
        (leaf.quads ?? []).some(
          (e) => Math.min(q[2]!, e[2]!) > Math.max(q[0]!, e[0]!) && Math.min(q[5]!, e[5]!) > Math.max(q[1]!, e[1]!),
        ),
      );
      expect([name, overlaps]).toEqual([name, true]);
    }
    // the Markdown's table rules read a Max column and a row's only limit, not the Typ cell a field calls nominal:
    // that one is the grid's (row label × column header), with its row's Unit cell
    expect(r.warnings).toContainEqual(
      expect.stringContaining(
        `Field 'nominal_element_supply' was read from a grid on the page: "230" in the row "Element supply" under the column "Typ"`,
      ),
    );
  });
});
