// SPDX-License-Identifier: AGPL-3.0-or-later
import { RestErrorSchema } from '@lectern/contracts';
import { hostileCorpus, spawnService, type HostileCase, type SpawnedService } from '@lectern/testing';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postFile } from './converter.testkit.js';

const GB = 1024 ** 3;

/**
 * Issue 12's bad-input corpus through a real converter process's `POST /convert` (spawned as `npm start` runs
 * it): every hostile file and malformed request is answered with a typed error, nothing is left in
 * DATA_DIR/uploads, the service keeps answering, and its peak RSS (VmHWM over its whole life) stays under 1 GB.
 */
describe('POST /convert: the bad-input corpus', () => {
  let service: SpawnedService;
  let dataDir: string;
  let corpus: HostileCase[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-converter-corpus-'));
    corpus = await hostileCorpus();
    service = await spawnService('apps/converter/src/main.ts', 'CONVERTER_PORT', {
      DATA_DIR: dataDir,
      CONVERSION_TIMEOUT_MS: '120000',
    });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every case typed, keeps nothing, stays up and under 1 GB', async () => {
    const answers: Record<string, string> = {};
    const health = async () => (await fetch(new URL('/health', service.baseUrl))).status;
    for (const c of corpus) {
      const response = await postFile(service.baseUrl, '/convert', { bytes: c.bytes, filename: c.filename });
      const body: unknown = await response.json();
      answers[c.name] = response.ok ? 'converted' : RestErrorSchema.parse(body).error.code;
      expect([c.name, c.expect.includes(answers[c.name] ?? '') ? 'allowed' : answers[c.name]]).toEqual([
        c.name,
        'allowed',
      ]);
      expect(await health()).toBe(200);
    }
    const form = (parts: Array<[string, string | Blob, string?]>): FormData => {
      const f = new FormData();
      for (const [name, value, filename] of parts) {
        if (typeof value === 'string') f.append(name, value);
        else f.append(name, value, filename);
      }
      return f;
    };
    const doc = new Blob(['# Notes\n\nshort']);
    const malformed: Array<{ name: string; init: RequestInit; code: string }> = [
      {
        name: 'not multipart',
        init: { body: JSON.stringify({ file: 'x' }), headers: { 'content-type': 'application/json' } },
        code: 'invalid_arguments',
      },
      { name: 'no file field', init: { body: form([['options', '{}']]) }, code: 'invalid_arguments' },
      {
        name: 'options not JSON',
        init: {
          body: form([
            ['options', '{maxPages:'],
            ['file', doc, 'a.md'],
          ]),
        },
        code: 'invalid_arguments',
      },
      {
        name: 'options raising a limit',
        init: {
          body: form([
            ['options', '{"maxPages":1000000}'],
            ['file', doc, 'a.md'],
          ]),
        },
        code: 'invalid_arguments',
      },
      {
        name: 'unknown option',
        init: {
          body: form([
            ['options', '{"rm":"-rf"}'],
            ['file', doc, 'a.md'],
          ]),
        },
        code: 'invalid_arguments',
      },
    ];
    for (const m of malformed) {
      const response = await fetch(new URL('/convert', service.baseUrl), { method: 'POST', ...m.init });
      answers[m.name] = response.ok ? 'accepted' : RestErrorSchema.parse(await response.json()).error.code;
      expect([m.name, answers[m.name]]).toEqual([m.name, m.code]);
    }
    const peak = service.peakRssBytes();
    process.stdout.write(
      `bad-input corpus, converter: peak RSS ${(peak / 1024 / 1024).toFixed(0)} MB\n${JSON.stringify(answers)}\n`,
    );
    expect(peak).toBeLessThan(GB);
    const left = readdirSync(join(dataDir, 'uploads'), { recursive: true, withFileTypes: true }).filter((e) =>
      e.isFile(),
    );
    expect(left.map((e) => e.name)).toEqual([]);
    expect(service.child.exitCode).toBeNull();
  }, 600_000);
});
