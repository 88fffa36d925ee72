// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtraction, submitTask, waitForTask, type RunningExtraction } from './extraction.testkit.js';

interface Result {
  data: Record<string, unknown>;
  evidence: Record<string, Record<string, unknown>>;
  warnings: string[];
}

// A contactor sheet in Markdown (as the converter writes tables): the main and the auxiliary contacts both carry
// a "Conventional free air thermal current" row under one heading, with different values (the auxiliary row has
// none for S-T12); one frame's cell is empty in the per-frame coil row.
const SHEET = `# Contactor ratings

## Main and auxiliary contacts

| Model |  | S-T10 | S-T12 | S-T20 |
| --- | --- | --- | --- | --- |
| Rated insulation voltage | [V] | 690 | 690 | 690 |
| Conventional free air thermal current | [A] | 20 | 25 | 32 |
| Auxiliary contact rated current | [A] | 6 | 6 | 6 |
| Conventional free air thermal current | [A] | 10 |  | 10 |
| Coil consumption | [VA] | 7 |  | 10 |
`;

/**
 * Issue 26's precision rules of the offline extractor, end to end (POST /tasks, the real doc tools): one label on
 * several rows with different values gives null and a warning saying so, unless the schema's target model picks
 * its column; a per-model value with models left empty names them in the warnings.
 */
describe('offline extractor: table precision rules end to end', () => {
  let dataDir: string;
  let service: RunningExtraction;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'table-rules-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const extract = async (schema: Record<string, unknown>): Promise<Result> => {
    const id = await submitTask(service.baseUrl, 'contactors.md', SHEET, schema);
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    return (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as Result;
  };

  it('one label, different values on two rows: null with a warning; the target model column decides', async () => {
    const open = await extract({ conventional_free_air_thermal_current: '', rated_insulation_voltage: '' });
    expect(open.data['conventional_free_air_thermal_current']).toBeNull();
    expect(open.evidence['conventional_free_air_thermal_current']).toMatchObject({
      locator: null,
      warning: expect.stringMatching(/2 table rows with that label give different values/),
    });
    expect(open.warnings.some((w) => w.includes("'conventional_free_air_thermal_current' not found"))).toBe(true);
    // a label on one row only is read as usual
    expect(open.data['rated_insulation_voltage']).toMatch(/^690 ?V$/);

    const targeted = await extract({ part_number: 'S-T12', conventional_free_air_thermal_current: '' });
    // S-T12's column: only the main contacts' row has a value there, so the column decides: 25
    expect(targeted.data['conventional_free_air_thermal_current']).toMatch(/^25 ?A$/);
    expect(targeted.evidence['conventional_free_air_thermal_current']).toMatchObject({
      grounded: true,
      match: 'table_cell',
    });
    // S-T10's column has 20 on one row and 10 on the other: still not known which is meant
    const both = await extract({ part_number: 'S-T10', conventional_free_air_thermal_current: '' });
    expect(both.data['conventional_free_air_thermal_current']).toBeNull();
    expect(both.evidence['conventional_free_air_thermal_current']).toMatchObject({
      warning: expect.stringMatching(/2 table rows with that label give different values/),
    });
  });

  it('a per-model value with an empty model cell names the model in the warnings', async () => {
    const r = await extract({ coil_consumption_per_model: {} });
    expect(r.data['coil_consumption_per_model']).toEqual({
      'S-T10': expect.stringMatching(/^7 ?VA$/),
      'S-T20': expect.stringMatching(/^10 ?VA$/),
    });
    expect(r.warnings).toContainEqual(
      expect.stringMatching(/'coil_consumption_per_model' has no value for 1 .*\(S-T12\)/),
    );
  });
});
