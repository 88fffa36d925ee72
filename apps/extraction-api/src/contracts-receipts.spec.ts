// SPDX-License-Identifier: AGPL-3.0-or-later
import { findTextQuads } from '@lectern/conversion';
import { evidenceLeaves } from '@lectern/extraction';
import {
  contractDocs,
  extractionScore,
  freshDocs,
  page,
  FRESH_VARIANTS_A,
  receiptDocs,
  type BusinessDoc,
} from '@lectern/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtraction, submitTask, waitForTask, type RunningExtraction } from './extraction.testkit.js';

interface Result {
  data: Record<string, unknown>;
  evidence: Record<string, unknown>;
  warnings: string[];
}

/** As a reader compares: the document's value, its currency sign or a leading "the" aside, case and spacing ignored. */
const squash = (v: unknown) =>
  String(v)
    .toLowerCase()
    .replace(/^the\s+|[\s$]+/g, '');
const same = (expected: unknown, got: unknown): boolean =>
  Array.isArray(expected)
    ? Array.isArray(got) && got.length === expected.length && expected.every((e, i) => same(e, got[i]))
    : squash(got) === squash(expected);

const overlaps = (a: number[], b: number[]) =>
  Math.min(a[2]!, b[2]!) > Math.max(a[0]!, b[0]!) && Math.min(a[5]!, b[5]!) > Math.max(a[1]!, b[1]!);

/**
 * A returned value's evidence is grounded, or (an issuer's name or address, a till receipt's date printed with no
 * label: `local/issuer-block.ts`) honestly not, because no label names the field: anything else is a failure.
 */
const grounding = (leaf: { grounded?: boolean; match?: string; warning?: string }): string =>
  leaf.grounded === true ||
  (leaf.grounded === false && leaf.match === 'pattern' && /does not name the field/.test(leaf.warning ?? ''))
    ? 'ok'
    : `grounded ${String(leaf.grounded)}: ${leaf.warning ?? ''}`;

/**
 * Issue 26, beyond datasheets: generated contracts (key-value lines, a table, prose) and receipts (labelled
 * lines, a till receipt, an invoice table) through POST /tasks with the offline extractor. Precision first: each
 * returned value is the one the document states (or null), and every returned value's page and quads are
 * re-verified by searching the value's text on that page.
 */
describe('contracts and receipts (offline extractor, generated PDFs)', () => {
  let dataDir: string;
  let service: RunningExtraction;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'contracts-receipts-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const extract = async (doc: BusinessDoc): Promise<Result> => {
    const id = await submitTask(service.baseUrl, doc.name, doc.pdf, doc.schema);
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    return (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as Result;
  };

  const docs = [...contractDocs().slice(0, 3), ...receiptDocs().slice(0, 3)];

  it.each(docs.map((d) => [d.name, d] as const))(
    '%s: values right or null, each on its page with its quads',
    async (_name, doc) => {
      const r = await extract(doc);
      for (const [field, expected] of Object.entries(doc.expected)) {
        const got = r.data[field];
        if (got === null) {
          // precision first: a null is said in the warnings
          expect(r.warnings.some((w) => w.includes(`'${field}'`))).toBe(true);
          continue;
        }
        expect([field, got, same(expected, got)]).toEqual([field, got, true]);
      }
      for (const { path, leaf } of evidenceLeaves(r.evidence)) {
        if (!leaf.snippet) continue;
        const name = path.join('.');
        expect([name, grounding(leaf), leaf.page, (leaf.quads?.length ?? 0) > 0]).toEqual([name, 'ok', 1, true]);
        const value = r.data[path[0]!];
        const first = String(Array.isArray(value) ? value[0] : value);
        const found = await findTextQuads(doc.pdf, leaf.page!, first);
        expect([name, found.quads.some((v) => leaf.quads!.some((e) => overlaps(v, e)))]).toEqual([name, true]);
      }
    },
  );

  it('reads each layout: key-value parties as a list, prose dates and law, a total printed without a colon', async () => {
    const [kv, table, prose] = contractDocs();
    expect((await extract(kv!)).data).toMatchObject({
      parties: ['Northwind Traders Ltd', 'Contoso Analytics LLC'],
      effective_date: '14 March 2024',
      governing_law: 'State of New York',
      term: 'two (2) years',
    });
    // a table of Supplier / Customer rows names the parties by their roles: both, as a list
    expect((await extract(table!)).data).toMatchObject({
      parties: ['Northwind Traders Ltd', 'Contoso Analytics LLC'],
      term: '24 months',
    });
    const fromProse = await extract(prose!);
    expect(fromProse.data).toMatchObject({
      parties: ['Northwind Traders Ltd', 'Contoso Analytics LLC'],
      effective_date: '14 March 2024',
      term: 'two (2) years',
    });
    expect(fromProse.data['governing_law']).toBe('State of New York');
    const till = await extract(receiptDocs()[1]!);
    // the shop's name and address printed without a label, at the top: taken, and said to be unlabelled
    // (not grounded: no label names them), with their page and quads
    expect(till.data).toMatchObject({
      vendor: 'Blue Heron Cafe',
      address: '12 Harbour Street, Portsmouth PO1 2AB',
      total: '$12.96',
      date: '03/14/2024',
    });
    expect(till.evidence['vendor']).toMatchObject({
      grounded: false,
      match: 'pattern',
      page: 1,
      snippet: '# Blue Heron Cafe',
    });
    expect(till.warnings).toContain(
      "Field 'address' is not grounded: the snippet does not name the field (address) or its synonyms",
    );
  });

  /**
   * Other layouts and schema wordings (libs/testing/src/fresh-docs.ts: a two-column cover sheet, recitals prose,
   * numbered clauses, a two-column invoice, a till receipt's GRAND TOTAL, a statement table, datasheet lines, a
   * unit column, a multi-model table; amount_due, invoice_total, commencement_date, applicable_law…): nothing
   * returned is wrong, most is found, and each value is on its page where its evidence's quads are.
   */
  it('fresh layouts and schema wordings: no wrong value, at least 38 of 40 fields right (strict scoring), every value on its page', async () => {
    const counts = { right: 0, fields: 0 };
    for (const doc of freshDocs(FRESH_VARIANTS_A, 5)) {
      const r = await extract(doc);
      for (const [field, expected] of Object.entries(doc.expected)) {
        const outcome = extractionScore.score(expected, r.data[field], 'strict');
        expect([doc.name, field, r.data[field], outcome === 'wrong']).toEqual([doc.name, field, r.data[field], false]);
        counts.fields += 1;
        if (outcome === 'right' || outcome === 'null_correct') counts.right += 1;
      }
      for (const { path, leaf } of evidenceLeaves(r.evidence)) {
        if (!leaf.snippet) continue;
        const name = `${doc.name} ${path.join('.')}`;
        expect([name, grounding(leaf), leaf.page, (leaf.quads?.length ?? 0) > 0]).toEqual([name, 'ok', 1, true]);
        // the value's first number (or first word) is printed where the evidence's quads are (a per-model
        // value's evidence is its table row)
        const value = r.data[path[0]!];
        if (path.length > 1 || (typeof value === 'object' && value !== null && !Array.isArray(value))) continue;
        const text = String(Array.isArray(value) ? value[0] : value);
        // (a number ends before a comma or full stop that follows it: "Lindenstrasse 14, 10969 Berlin")
        const needle = /\d+(?:[.,]\d+)*/.exec(text)?.[0] ?? text.split(/\s+/)[0]!;
        const found = await findTextQuads(doc.pdf, leaf.page!, needle);
        expect([name, found.quads.some((v) => leaf.quads!.some((e) => overlaps(v, e)))]).toEqual([name, true]);
      }
    }
    expect(counts.fields).toBe(40);
    expect(counts.right).toBeGreaterThanOrEqual(38);
  });

  /**
   * A form's two blocks side by side (issue 26, root causes of fresh variant 8's misses, on a document of its own):
   * the supplier's block under its label on the left, `label  value` lines on the right, an item table right under
   * both, and a block of key figures in two columns. The converter reads each block as lines (not one table with
   * the items), a label and its value set apart by a wide gap are read as `Label: value`, a label on a line of its
   * own names the line under it.
   */
  it("a form's side-by-side blocks: labels with a wide gap, labels above their values, the issuer's label", async () => {
    const doc: BusinessDoc = {
      name: 'form-blocks.pdf',
      kind: 'receipt',
      layout: 'form blocks',
      schema: {
        supplier: 'Company the goods are ordered from',
        order_number: '',
        order_date: '',
        consignee: 'Who receives the goods',
        flow_rate: '',
        supply_voltage: '',
        warranty_period: '',
        total_including_vat: '',
      },
      expected: {},
      pdf: page([
        { heading: 'ORDER' },
        {
          columns: [
            ['Supplier', 'Nordlicht Pumpen AG', 'Hafenweg 3', '24103 Kiel, Germany'],
            ['Order No.  PO-88120', 'Order date  02.04.2026', 'Buyer  K. Jansen', 'Currency  EUR'],
          ],
        },
        {
          table: [
            ['Item', 'Description', 'Qty', 'Price', 'Amount'],
            ['7-210', 'Circulation pump', '2', '1,410.00', '2,820.00'],
            ['', '', '', 'VAT 19%', '535.80'],
            ['', '', '', 'Total incl. VAT', '3,355.80'],
          ],
        },
        { text: ['Payment terms: 30 days net        Warranty period: 24 months from delivery'] },
        {
          columns: [
            ['Consignee', 'Werft Ostsee GmbH', 'Kai 12, 24149 Kiel'],
            ['Flow rate  12 m3/h', 'Supply voltage  230 V AC', 'Degree of protection  IP44'],
          ],
        },
      ]),
    };
    const r = await extract(doc);
    expect(r.data).toEqual({
      original_file: 'form-blocks.pdf',
      supplier: 'Nordlicht Pumpen AG',
      order_number: 'PO-88120',
      order_date: '02.04.2026',
      consignee: 'Werft Ostsee GmbH',
      flow_rate: '12 m3/h',
      supply_voltage: '230V AC',
      // the second `Label: value` pair of a line; an amount's thousands separator is not a cut
      warranty_period: '24 months',
      total_including_vat: '3,355.80',
    });
    // each from its label's line(s), on page 1 with quads
    for (const field of Object.keys(doc.schema))
      expect([field, r.evidence[field]]).toMatchObject([field, { page: 1, grounded: true }]);
    expect(r.evidence['consignee']).toMatchObject({ snippet: 'Consignee\nWerft Ostsee GmbH' });
  });
});
