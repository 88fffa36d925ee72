// SPDX-License-Identifier: AGPL-3.0-or-later
import { decodePng, findTextQuads, pixelAt } from '@lectern/conversion';
import { evidenceLeaves } from '@lectern/extraction';
import { makeTextPdf } from '@lectern/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtraction, submitTask, waitForTask, type RunningExtraction } from './extraction.testkit.js';

const DATASHEET = makeTextPdf([
  [
    '# Widget W-100 datasheet',
    'The W-100 is a compact industrial widget for conveyor drives.',
    'Rated voltage: 230 V',
    'Rated current: 1.6 A',
  ],
  ['# Environment', 'Protection class: IP65 for the housing.', 'Mass: 0.5 kg'],
]);

const overlaps = (a: number[], b: number[]) =>
  Math.min(a[2]!, b[2]!) > Math.max(a[0]!, b[0]!) && Math.min(a[5]!, b[5]!) > Math.max(a[1]!, b[1]!);

/**
 * Issue 26's "must show": every returned value's page and quads re-verified. A real PDF through POST /tasks
 * (offline extractor); for each grounded value, its evidence page is rendered by the REST route with the quads
 * highlighted (the highlight's pixels are checked in the decoded PNG), and the value's own text is searched on
 * that page independently and must lie inside the evidence's quads.
 */
describe('evidence located on PDF pages', () => {
  let dataDir: string;
  let service: RunningExtraction;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'evidence-pages-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every value carries its page and quads, re-verified by rendering the page and searching the text there', async () => {
    const id = await submitTask(service.baseUrl, 'widget.pdf', DATASHEET, {
      rated_voltage: '',
      rated_current: '',
      protection_class: '',
      mass: '',
      thd: '',
    });
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    const r = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as {
      data: Record<string, unknown>;
      evidence: Record<string, unknown>;
      warnings: string[];
    };
    expect(r.data).toMatchObject({ rated_voltage: '230V', rated_current: '1.6A', protection_class: 'IP65', thd: null });
    expect(r.warnings).toContain("Field 'thd' not found in document");
    const entries = evidenceLeaves(r.evidence);
    const located = entries.filter((e) => e.leaf.snippet);
    expect(located.length).toBeGreaterThanOrEqual(4);
    for (const [n, { path, leaf }] of entries.entries()) {
      if (!leaf.snippet) continue;
      const name = path.join('.');
      const value = String(r.data[name]);
      expect([name, leaf.grounded, leaf.page, (leaf.quads?.length ?? 0) > 0]).toEqual([
        name,
        true,
        expect.any(Number),
        true,
      ]);
      expect(leaf.page).toBe(name === 'rated_voltage' || name === 'rated_current' ? 1 : 2);
      // the route renders the page with the quads highlighted: a pixel inside the first quad is tinted yellow
      const response = await fetch(`${service.baseUrl}/tasks/${id}/evidence/${n}/page.png?dpi=72`);
      expect(response.status).toBe(200);
      const image = await decodePng(Buffer.from(await response.arrayBuffer()));
      const q = leaf.quads![0]!;
      const [red, , blue] = pixelAt(image, q[0]! + 1, q[1]! + 1);
      expect([name, blue! < 200 && red! > 150]).toEqual([name, true]);
      // the value's own text, searched on that page, lies within the evidence's quads
      const digits = /[\d.]+|IP\d\d/.exec(value)![0];
      const found = await findTextQuads(DATASHEET, leaf.page!, digits);
      expect(found.quads.length).toBeGreaterThan(0);
      expect([name, found.quads.some((v) => leaf.quads!.some((e) => overlaps(v, e)))]).toEqual([name, true]);
    }
  });
});
