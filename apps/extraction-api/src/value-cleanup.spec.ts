// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePdf, pdfString } from '@lectern/testing';
import { startExtraction, submitTask, waitForTask, type RunningExtraction } from './extraction.testkit.js';

interface Result {
  data: Record<string, unknown>;
  evidence: Record<string, Record<string, unknown>>;
  warnings: string[];
}

// A bullet list of key data with limit words, as a PDF (the page prints "•", the Markdown "- ").
const LINES = [
  'Pressure switch PS-40 key data',
  '\u2022 Switching voltage: max. 48 V',
  '\u2022 Hysteresis: 0.4 bar typ.',
  '\u2022 Switching cycles: min. 5000',
  '\u2022 Contact load: 3 A per contact',
];

/**
 * Issue 26, round 6, end to end (POST /tasks, the real converter and doc tools): a value is the number without
 * the limit or approximation words printed with it, the warnings say what was dropped, a field whose description
 * asks for the qualifier keeps it, and a bullet line's evidence is found on the page.
 */
describe('offline extractor: limit words dropped from values, said in the warnings', () => {
  let dataDir: string;
  let service: RunningExtraction;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'value-cleanup-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const extract = async (schema: Record<string, unknown>): Promise<Result> => {
    const content = LINES.map((l, i) => `BT /F1 11 Tf 72 ${700 - i * 18} Td (${pdfString(l)}) Tj ET`).join('\n');
    const id = await submitTask(service.baseUrl, 'ps40.pdf', makePdf([{ content }]), schema);
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    return (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as Result;
  };

  it('drops "max.", "typ.", "min." and "per contact", says so, and grounds the bullet lines', async () => {
    const r = await extract({ switching_voltage: '', hysteresis: '', switching_cycles: '', contact_load: '' });
    expect(r.data['switching_voltage']).toMatch(/^48 ?V$/);
    expect(r.data['hysteresis']).toMatch(/^0\.4 ?bar$/);
    expect(r.data['switching_cycles']).toBe('5000');
    expect(r.data['contact_load']).toMatch(/^3 ?A$/);
    expect(r.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Field 'switching_voltage' was read as "48 ?V" from "max\. 48 ?V": "max\." printed/),
        expect.stringMatching(/^Field 'switching_cycles' was read as "5000" from "min\. 5000"/),
      ]),
    );
    for (const key of ['switching_voltage', 'hysteresis', 'switching_cycles'])
      expect(r.evidence[key]).toMatchObject({ grounded: true, page: 1 });
  });

  it('keeps the qualifier when the field’s description asks for it', async () => {
    const r = await extract({ switching_voltage: 'Switching voltage as printed, with its qualifier' });
    expect(r.data['switching_voltage']).toMatch(/^max\. 48 ?V$/);
    expect(r.warnings.some((w) => w.includes('dropped'))).toBe(false);
  });
});
