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
  snippet?: string | null;
}
interface Result {
  data: Record<string, unknown>;
  evidence: Record<string, Leaf>;
  warnings: string[];
}

/**
 * A kennel's boarding slip: a column of labels with their values far to the right (the converter prints the labels
 * as one block and the values as the next, so the Markdown no longer says which value is whose), and two small
 * labels in capitals above their values in boxes, and a block of labels under a heading that names their field with
 * them, and a label that leaves out the quantity its value's unit states. No bench document prints this text.
 */
const slip = makePdf([
  {
    content: [
      pdfTextAt(72, 740, 'Harefield Boarding Kennels', 14),
      pdfTextAt(72, 715, 'Boarding slip'),
      pdfTextAt(72, 690, 'Kennel'),
      pdfTextAt(210, 690, 'Run 14B'),
      pdfTextAt(72, 675, 'Check-in'),
      pdfTextAt(210, 675, '6 May 2031'),
      pdfTextAt(72, 660, 'Microchip'),
      pdfTextAt(210, 660, '985 112 004 377 210'),
      pdfTextAt(72, 635, 'Care notes', 12),
      pdfTextAt(72, 610, 'DIET', 7),
      pdfTextAt(300, 610, 'VET ON CALL', 7),
      pdfTextAt(72, 600, 'Grain-free kibble'),
      pdfTextAt(300, 600, 'Dr Ines Marwood'),
      pdfTextAt(72, 570, 'Walks twice a day; no contact with other dogs.'),
      // a block's heading over its labels: "Rabies" alone does not name rabies_vaccination
      pdfTextAt(72, 540, 'Vaccinations', 12),
      pdfTextAt(72, 520, 'Rabies'),
      pdfTextAt(210, 520, '12 March 2030'),
      pdfTextAt(72, 505, 'Leptospirosis'),
      pdfTextAt(210, 505, '2 June 2030'),
      // a label leaving out the quantity its value's unit states (the value with its range in brackets: the Markdown
      // path finds it no single value)
      pdfTextAt(72, 470, 'Heater'),
      pdfTextAt(210, 470, '230 V (207 V to 253 V)'),
    ].join('\n'),
  },
]);

const SCHEMA = {
  kennel: '',
  check_in_date: '',
  microchip_number: '',
  diet: '',
  vet_on_call: '',
  rabies_vaccination: '',
  heater_voltage: '',
  owner_name: '',
};

/**
 * Issue 26, round 10: the offline extractor pairs a label with its value from the page layout (mupdf's lines with
 * their boxes) where the converter's Markdown lost the pairing, through POST /tasks; each value's evidence is the
 * label and the value on the page (page + quads, the value's own box among them), and a field the page does not
 * state stays null.
 */
describe('label ↔ value pairing from the page layout (offline extractor)', () => {
  let dataDir: string;
  let service: RunningExtraction;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'layout-pairing-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads values right of their labels and under them, with the value’s box in the evidence', async () => {
    const id = await submitTask(service.baseUrl, 'boarding-slip.pdf', slip, SCHEMA);
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    const r = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as Result;
    expect(r.data).toMatchObject({
      kennel: 'Run 14B',
      check_in_date: '6 May 2031',
      microchip_number: '985 112 004 377 210',
      diet: 'Grain-free kibble',
      vet_on_call: 'Dr Ines Marwood',
      rabies_vaccination: '12 March 2030',
      heater_voltage: expect.stringMatching(/^230 ?V$/),
      owner_name: null,
    });
    for (const field of [
      'kennel',
      'check_in_date',
      'microchip_number',
      'diet',
      'vet_on_call',
      'rabies_vaccination',
      'heater_voltage',
    ]) {
      const leaf = r.evidence[field]!;
      expect([field, leaf.grounded, leaf.page]).toEqual([field, true, 1]);
      // the value's own box is one of the evidence's quads
      // (as the page prints it: the value's unit may come back without its space)
      const own = await findTextQuads(slip, 1, String(r.data[field]).replace(/^(\d+)V$/, '$1 V'));
      const overlaps = own.quads.some((q) =>
        (leaf.quads ?? []).some(
          (e) => Math.min(q[2]!, e[2]!) > Math.max(q[0]!, e[0]!) && Math.min(q[5]!, e[5]!) > Math.max(q[1]!, e[1]!),
        ),
      );
      expect([field, overlaps]).toEqual([field, true]);
    }
    expect(r.warnings.some((w) => w.includes("'kennel' was read from the page layout"))).toBe(true);
  });
});
