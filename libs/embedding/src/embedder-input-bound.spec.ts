// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_CHARS_PER_TOKEN, createEmbedder, type EncoderBackend } from './embedder.js';
import { resolveEmbedder } from './resolve-embedder.js';

const FIVE_MB = 5 * 1024 * 1024;
/** Prose-like text of `chars` characters. */
const prose = (chars: number): string =>
  'The planning officer reviewed the transport assessment. '.repeat(Math.ceil(chars / 56)).slice(0, chars);

describe('Embedder input bound (createEmbedder)', () => {
  const longest: number[] = [];
  const backend: EncoderBackend = {
    dimension: 2,
    maxTokens: 256,
    tokenize: (text) => {
      longest.push(text.length);
      return text.split(' ').map((w) => w.length);
    },
    truncate: (ids) => ids.slice(0, 256),
    padLength: (length) => length,
    run: async (rows) => new Float32Array(rows.flatMap((r) => [r.length, 1])),
    close: async () => undefined,
  };
  const embedder = createEmbedder({
    modelId: 'recording',
    fingerprint: { model_id: 'recording', revision: 'sha256:0', dimension: 2, normalized: true },
    tokenizeOnly: backend,
    start: async () => backend,
  });

  it('tokenises at most maxTokens x 32 characters of a 5 MB text (embed, embedBatch and countTokens)', async () => {
    longest.length = 0;
    const huge = prose(FIVE_MB);
    await embedder.embed(huge);
    await embedder.embedBatch(['short', huge]);
    expect(embedder.countTokens(huge)).toBeGreaterThan(256);
    expect(longest.length).toBe(4);
    expect(Math.max(...longest)).toBe(256 * MAX_CHARS_PER_TOKEN);
  });

  it('never splits a surrogate pair at the cut', async () => {
    longest.length = 0;
    const cut = 256 * MAX_CHARS_PER_TOKEN;
    await embedder.embed(`${'a'.repeat(cut - 1)}😀${'b'.repeat(cut)}`);
    expect(longest).toEqual([cut - 1]);
  });
});

describe('Embedder input bound (the bundled model)', () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lectern-bound-'));
  });
  afterAll(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('embeds a 5 MB text as its bounded prefix, without tokenising it whole', async () => {
    const embedder = await resolveEmbedder({ model: 'auto', cacheDir });
    try {
      const huge = prose(FIVE_MB);
      const prefix = huge.slice(0, embedder.maxTokens * MAX_CHARS_PER_TOKEN);
      const heapBefore = process.memoryUsage().heapUsed;
      const [whole, ofPrefix] = [await embedder.embed(huge), await embedder.embed(prefix)];
      expect(Array.from(whole)).toEqual(Array.from(ofPrefix));
      // Tokenising 5 MB whole held about 5 GB; the prefix is a few hundred KB.
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    } finally {
      await embedder.close();
    }
  });
});
