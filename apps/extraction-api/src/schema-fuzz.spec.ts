// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  freshVariant9Docs,
  freshVariant10Docs,
  freshVariant11Docs,
  freshVariant12Docs,
  seededRandom,
  type BusinessDoc,
} from '@lectern/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExtraction, submitTask, waitForTask, type RunningExtraction } from './extraction.testkit.js';

/**
 * Schemas nobody wrote: the offline extractor answers every one (values, nulls and warnings), never an internal
 * error. Each schema mixes field names and shapes (a bare name, a description, a list, a per-model `{}`) from the
 * blind sets' schemas and nests some under a party or thing (`landlord.address` beside `tenant.address`: such a pair
 * once sent the issuer-block rule into unbounded recursion and the task failed with `internal_error`). Seeded, so
 * a failure names the schema that failed and repeats.
 */
const ROUNDS = 30;
const docs: BusinessDoc[] = [
  freshVariant9Docs(),
  freshVariant10Docs(),
  freshVariant11Docs(),
  freshVariant12Docs(),
].flat();
const names = [...new Set(docs.flatMap((d) => Object.keys(d.schema)))].sort();
const shapes = [...new Set(docs.flatMap((d) => Object.values(d.schema).map((v) => JSON.stringify(v))))]
  .sort()
  .map((v) => JSON.parse(v) as unknown);
const PARENTS = ['landlord', 'tenant', 'buyer', 'seller', 'shop', 'motor', 'coil', 'party', 'vendor', 'customer'];
const OWN_WORDS = ['name', 'address', 'date', 'total', 'amount'];

/** Draws from the project's seeded generator: the same schemas on every run. */
const generator = (seed: number) => {
  const random = seededRandom(seed);
  return { percent: () => random(100), below: random, pick: <T>(items: T[]): T => items[random(items.length)]! };
};

const schemaOf = (random: ReturnType<typeof generator>): Record<string, unknown> => {
  const schema: Record<string, unknown> = {};
  const fields = 3 + random.below(12);
  for (let i = 0; i < fields; i += 1) {
    if (random.percent() < 25) {
      const parent = random.pick(PARENTS);
      const held = schema[parent];
      const inner = (typeof held === 'object' && held !== null && !Array.isArray(held) ? held : {}) as Record<
        string,
        unknown
      >;
      inner[random.pick(names)] = random.pick(shapes);
      inner[random.pick(OWN_WORDS)] = '';
      schema[parent] = inner;
    } else schema[random.pick(names)] = random.pick(shapes);
  }
  return schema;
};

describe('the offline extractor on schemas nobody wrote', () => {
  let dataDir: string;
  let service: RunningExtraction;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'schema-fuzz-'));
    service = await startExtraction({ DATA_DIR: dataDir, EXTRACTOR: 'local' });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`answers ${ROUNDS} random schemas over the blind sets' documents, every one succeeded`, async () => {
    const random = generator(2);
    const failed: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const doc = random.pick(docs);
      const schema = schemaOf(random);
      const id = await submitTask(service.baseUrl, doc.name, doc.pdf, schema);
      const task = await waitForTask(service.baseUrl, id);
      if (task.status !== 'succeeded')
        failed.push(`${doc.name} ${JSON.stringify(schema)}: ${JSON.stringify(task.error)}`);
    }
    expect(failed).toEqual([]);
  }, 300_000);
});
