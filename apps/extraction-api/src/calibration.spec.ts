// SPDX-License-Identifier: AGPL-3.0-or-later
import { ABSTAIN_BELOW } from '@lectern/extraction';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtraction, submitTask, waitForTask, type RunningExtraction } from './extraction.testkit.js';

/**
 * Two parties, one printed with a remark on its line that no extent rule cuts (a value holding far more words than a
 * name needs, and a number): the neighbour kept, variant 12's commonest miss before round 8's extent rules.
 */
const AGREEMENT = `# Supply agreement

Supplier: Harrow Fasteners Ltd and its appointed carriers under clause 9 below

Customer: Bexley Assemblies plc

Effective date: 3 March 2026
`;

interface Result {
  data: Record<string, unknown>;
  evidence: Record<string, { confidence?: number; warning?: string; grounded?: boolean }>;
  warnings: string[];
}

/**
 * Calibrated confidence (issue 26, round 8): a returned value's `confidence` is the calibrated probability that it
 * is right (libs/extraction/src/local/calibration.ts), and a value below the abstention threshold is not returned:
 * the field is null, and its evidence and the warnings say what was seen and with what confidence.
 */
describe('offline extractor: calibrated confidence and abstention', () => {
  let dataDir: string;
  let service: RunningExtraction;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'extraction-calibration-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a name with a remark kept is null with a warning; a clean value is returned with its probability', async () => {
    const id = await submitTask(service.baseUrl, 'agreement.md', AGREEMENT, {
      supplier: '',
      customer: '',
      effective_date: '',
    });
    expect(await waitForTask(service.baseUrl, id)).toMatchObject({ status: 'succeeded' });
    const result = (await (await fetch(`${service.baseUrl}/tasks/${id}/result`)).json()) as Result;

    expect(result.data['supplier']).toBeNull();
    const seen = result.evidence['supplier']!.warning ?? '';
    expect(seen).toContain('saw "Harrow Fasteners Ltd and its appointed carriers under clause 9 below"');
    expect(seen).toMatch(new RegExp(`its confidence 0\\.\\d\\d is below ${ABSTAIN_BELOW}`));
    expect(seen).toContain('more words than its kind needs; a name holding a number');
    expect(result.warnings.some((w) => w.startsWith("Field 'supplier'") && w.includes('Harrow Fasteners'))).toBe(true);

    expect(result.data['customer']).toBe('Bexley Assemblies plc');
    expect(result.data['effective_date']).toBe('3 March 2026');
    for (const field of ['customer', 'effective_date']) {
      const leaf = result.evidence[field]!;
      expect(leaf.grounded).toBe(true);
      expect(leaf.confidence).toBeGreaterThanOrEqual(ABSTAIN_BELOW);
      expect(leaf.confidence).toBeLessThan(1);
    }
  });
});
