// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbedderPool } from '@lectern/embedding';
import { ServiceMetrics } from './metrics.js';

const infoLines = async (metrics: ServiceMetrics): Promise<string[]> =>
  (await metrics.registry.metrics()).split('\n').filter((l) => l.startsWith('lectern_embedding_model_info{'));

describe('lectern_embedding_model_info', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lectern-metrics-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists no model before one is loaded, then the model the pool resolved (value 1), and none after close', async () => {
    const metrics = new ServiceMetrics('test-service', { defaultMetrics: false });
    const pool = new EmbedderPool({ model: 'auto', cacheDir: dir });
    metrics.trackEmbeddingModels(() => pool.loadedModels());
    expect(await infoLines(metrics)).toEqual([]);
    expect(await metrics.registry.metrics()).toContain('# TYPE lectern_embedding_model_info gauge');

    const embedder = await pool.configured();
    const model = embedder.fingerprint.model_id;
    expect(model.length).toBeGreaterThan(0);
    // a second use of the same model is still one line
    await pool.for(embedder.fingerprint);
    expect(await infoLines(metrics)).toEqual([
      `lectern_embedding_model_info{model="${model}",service="test-service"} 1`,
    ]);

    await pool.close();
    expect(await infoLines(metrics)).toEqual([]);
  });

  it('a second source replaces the first (one gauge per registry)', async () => {
    const metrics = new ServiceMetrics('test-service', { defaultMetrics: false });
    metrics.trackEmbeddingModels(() => ['a']);
    metrics.trackEmbeddingModels(() => ['b', 'c']);
    expect(await infoLines(metrics)).toEqual([
      'lectern_embedding_model_info{model="b",service="test-service"} 1',
      'lectern_embedding_model_info{model="c",service="test-service"} 1',
    ]);
  });
});
