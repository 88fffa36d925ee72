// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTextPdf, sharedModelDir } from '@lectern/testing';
import { lectern } from './lectern-binary.testkit.js';

/** FR-005/FR-020 with two real models: potion-base-2M (../shared/models) and the bundled USE-lite. */
describe('lectern rebuild --migrate-to another real model (corpus)', () => {
  let dataDir: string;
  let docs: string;
  let potion: Record<string, string>;
  let useLite: Record<string, string>;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-migrate-'));
    docs = join(dataDir, 'docs');
    mkdirSync(docs);
    writeFileSync(
      join(docs, 'drainage.pdf'),
      makeTextPdf([
        ['# Sustainable drainage', 'Permeable paving and swales slow the run-off from new housing estates.'],
        ['# Flood risk', 'The sequential test steers development to areas at the lowest risk of flooding.'],
      ]),
    );
    potion = {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      EMBEDDING_MODEL: 'potion-base-2M',
      EMBEDDING_MODEL_DIR: sharedModelDir('potion-base-2M'),
    };
    useLite = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', EMBEDDING_MODEL: 'universal-sentence-encoder-lite' };
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses every write with the other model, migrates on request keeping the old collection, then refuses the old model', async () => {
    expect((await lectern(['project', 'create', 'plans'], potion)).code).toBe(0);
    expect((await lectern(['ingest', docs, '-p', 'plans'], potion)).code).toBe(0);
    for (let i = 0; i < 2; i++) {
      const refused = await lectern(['ingest', docs, '-p', 'plans'], useLite);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/EMBEDDING_MISMATCH: Project "plans" was built with potion-base-2M/);
    }
    const migrated = await lectern(
      ['rebuild', '-p', 'plans', '--migrate-to', 'universal-sentence-encoder-lite', '--json'],
      potion,
    );
    expect(migrated.code).toBe(0);
    const s = JSON.parse(migrated.stdout) as {
      from: { model: string; points: number };
      to: { collection: string; model: string; points: number };
      kept: string[];
    };
    expect(s.from.model).toMatch(/^potion-base-2M@/);
    expect(s.to).toMatchObject({ collection: 'plans__v2', points: s.from.points });
    expect(s.to.model).toMatch(/^universal-sentence-encoder-lite@/);
    expect(s.kept).toEqual(['plans']);
    const inspected = JSON.parse((await lectern(['inspect', '-p', 'plans', '--json'], useLite)).stdout) as {
      embedding_model: { model_id: string };
      collection: string;
    };
    expect(inspected).toMatchObject({
      collection: 'plans__v2',
      embedding_model: { model_id: 'universal-sentence-encoder-lite' },
    });
    const found = JSON.parse(
      (await lectern(['search', 'permeable paving', '-p', 'plans', '--json'], useLite)).stdout,
    ) as { results: Array<{ text: string }> };
    expect(found.results[0]?.text).toMatch(/Permeable paving/);
    const old = await lectern(['ingest', docs, '-p', 'plans'], potion);
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/EMBEDDING_MISMATCH/);
    const validated = JSON.parse((await lectern(['validate', '-p', 'plans', '--json'], potion)).stdout) as {
      ok: boolean;
      checks: Array<{ check: string; ok: boolean }>;
    };
    expect(validated.ok).toBe(false);
    expect(validated.checks.find((c) => c.check === 'tokenizer')?.ok).toBe(false);
  }, 600_000);
});
