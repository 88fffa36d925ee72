// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfTextAt } from '@lectern/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtraction, submitTask, waitForTask, type RunningExtraction } from './extraction.testkit.js';

interface Leaf {
  grounded?: boolean;
  page?: number;
  match?: string;
  warning?: string;
}
interface Result {
  data: Record<string, unknown>;
  evidence: Record<string, Leaf>;
  warnings: string[];
}

const show = (x: number, y: number, text: string, size = 10, font = 'F1') => pdfTextAt(x, y, text, size, font);

/**
 * A marine surveyor's invoice: small bold labels in capitals with their values on the line below, two to a row, over
 * an item table in the same columns (the converter takes the label rows into the table: "| UNDERWRITER | POLICY NO. |",
 * so the Markdown reads the second label as the first one's value), and a block of label ↔ value lines, one value
 * printed with a remark in brackets. Without round 13 the two fields come back "POLICY NO" and "GRP (hand laid)"
 * (checked). No bench document prints this text.
 */
const stacked: [string, string, string, string][] = [
  ['CLIENT', 'Corran Boatyard Ltd', 'INVOICE DATE', '4 March 2026'],
  ['SURVEYOR', 'Eilidh MacRae', 'REPORT NO.', 'QMS-3391'],
  ['UNDERWRITER', 'Saltire Hull Mutual', 'POLICY NO.', 'SHM 4410 2287'],
];
const lines: [string, string][] = [
  ['Vessel', 'Morven Lass'],
  ['Hull material', 'GRP (hand laid)'],
  ['Survey type', 'Condition and valuation'],
  ['Berth', 'Pontoon C, Oban'],
];
const ITEM_X = [72, 330, 420, 510];
const items = [
  ['Item', 'Fee', 'VAT', 'Total'],
  ['Hull survey, afloat', '420.00', '84.00', '504.00'],
  ['Valuation report', '150.00', '30.00', '180.00'],
  ['Travel, Oban', '36.00', '7.20', '43.20'],
];
const invoice = makePdf([
  {
    content: [
      show(72, 740, 'Quayside Marine Surveys', 14, 'F2'),
      show(400, 740, 'SURVEY INVOICE', 11, 'F2'),
      show(72, 724, '7 Pier Road, Oban PA34 5QD', 9),
      ...stacked.flatMap(([l1, v1, l2, v2], i) => {
        const y = 690 - i * 27;
        return [show(72, y, l1, 7, 'F2'), show(330, y, l2, 7, 'F2'), show(72, y - 12, v1), show(330, y - 12, v2)];
      }),
      ...items.flatMap((cells, i) => cells.map((c, k) => show(ITEM_X[k]!, 594 - i * 14, c, 9, i === 0 ? 'F2' : 'F1'))),
      show(72, 530, 'Vessel particulars', 11, 'F2'),
      ...lines.flatMap(([l, v], i) => [show(72, 510 - i * 15, l), show(240, 510 - i * 15, v)]),
      show(72, 430, 'Payment within 30 days of the invoice date to the account shown overleaf.', 9),
    ].join('\n'),
  },
]);

describe('the Markdown and the page layout read one field differently (offline extractor, round 13)', () => {
  let dataDir: string;
  let service: RunningExtraction;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'layout-arbitration-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a Markdown value the layout pairs as a label, and takes the layout’s reading without its remark', async () => {
    const id = await submitTask(service.baseUrl, 'survey-invoice.pdf', invoice, {
      underwriter: '',
      hull_material: '',
      vessel: '',
    });
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    const r = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as Result;
    // "POLICY NO." is the label of its own value (SHM 4410 2287) on the page, not the underwriter; the layout pairs
    // UNDERWRITER with the text under it. "GRP (hand laid)": the Markdown's cell keeps the remark, the layout does not
    expect(r.data).toMatchObject({
      underwriter: 'Saltire Hull Mutual',
      hull_material: 'GRP',
      vessel: 'Morven Lass',
    });
    for (const field of ['underwriter', 'hull_material'])
      expect([field, r.evidence[field]?.grounded, r.evidence[field]?.page]).toEqual([field, true, 1]);
    expect(r.warnings).toContainEqual(
      expect.stringContaining(
        `Field 'underwriter' was read from the page layout: "Saltire Hull Mutual" under its label`,
      ),
    );
    expect(r.warnings).toContainEqual(
      expect.stringContaining(
        `Field 'hull_material' was read from the page layout: "GRP (hand laid)" right of its label`,
      ),
    );
  });
});
