// SPDX-License-Identifier: AGPL-3.0-or-later
import { createEmbedder, type EncoderBackend } from './embedder.js';
import { QueryVectorCache } from './query-vector-cache.js';

const fp = { model_id: 'm', revision: 'sha256:1', dimension: 2, normalized: true };
const v = (a: number, b: number) => new Float32Array([a, b]);

describe('QueryVectorCache', () => {
  it('keeps at most maxEntries vectors, dropping the least recently used', () => {
    const cache = new QueryVectorCache(fp, 2);
    cache.set('a', v(1, 0));
    cache.set('b', v(0, 1));
    expect(cache.get('a')).toEqual(v(1, 0)); // 'a' is now the most recent: 'b' goes next
    cache.set('c', v(1, 1));
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(v(1, 0));
    expect(cache.get('c')).toEqual(v(1, 1));
  });

  it('hands out copies: changing a vector given or returned does not change the next answer', () => {
    const cache = new QueryVectorCache(fp);
    const given = v(1, 2);
    cache.set('q', given);
    given[0] = 9;
    const first = cache.get('q') as Float32Array;
    first[1] = 9;
    expect(cache.get('q')).toEqual(v(1, 2));
  });

  it('does not keep a text longer than maxChars', () => {
    const cache = new QueryVectorCache(fp, 8, 10);
    cache.set('x'.repeat(11), v(1, 0));
    cache.set('x'.repeat(10), v(0, 1));
    expect(cache.size).toBe(1);
    expect(cache.get('x'.repeat(11))).toBeUndefined();
  });
});

/** A backend counting its inference calls; each text's vector is [its length, calls so far]. */
const countingEmbedder = (fingerprint = fp) => {
  let runs = 0;
  const backend: EncoderBackend = {
    dimension: 2,
    maxTokens: 64,
    tokenize: (text) => Array.from(text, (c) => c.charCodeAt(0)),
    truncate: (ids) => ids.slice(0, 64),
    padLength: (length) => Math.ceil(length / 16) * 16,
    run: async (rows) => {
      runs += 1;
      return new Float32Array(rows.flatMap((r) => [r.length, runs]));
    },
    close: async () => undefined,
  };
  const embedder = createEmbedder({
    modelId: fingerprint.model_id,
    fingerprint,
    tokenizeOnly: backend,
    start: async () => backend,
  });
  return { embedder, runs: () => runs };
};

describe('Embedder.embed: the query path', () => {
  it('gives the vector embedBatch gives for the same text', async () => {
    const a = countingEmbedder();
    const b = countingEmbedder();
    expect(await a.embedder.embed('the same query')).toEqual((await b.embedder.embedBatch(['the same query']))[0]);
  });

  it('answers a repeated query from the cache, and a copy each time', async () => {
    const { embedder, runs } = countingEmbedder();
    const first = await embedder.embed('heart disease');
    first[0] = -1;
    expect(await embedder.embed('heart disease')).toEqual(v(13, 1));
    expect(runs()).toBe(1);
    await embedder.embed('another query');
    expect(runs()).toBe(2);
  });

  it('starts empty for another model (its own embedder), and after close refuses rather than answering from it', async () => {
    const one = countingEmbedder();
    const other = countingEmbedder({ ...fp, revision: 'sha256:2' });
    await one.embedder.embed('q');
    await other.embedder.embed('q');
    expect(other.runs()).toBe(1);
    await one.embedder.close();
    await expect(one.embedder.embed('q')).rejects.toMatchObject({ code: 'model_unavailable' });
  });

  it('still refuses an empty query', async () => {
    const { embedder } = countingEmbedder();
    await expect(embedder.embed('  ')).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
