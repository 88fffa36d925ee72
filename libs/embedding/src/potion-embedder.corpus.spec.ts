// SPDX-License-Identifier: AGPL-3.0-or-later
import { copyFile, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedModelDir } from '@lectern/testing';
import type { Embedder } from './embedder.js';
import { loadModel2VecTokenizer } from './model2vec/model2vec.backend.js';
import { readSafetensors, tensorToFloat32 } from './model2vec/safetensors.js';
import { resolveEmbedder } from './resolve-embedder.js';
import { dot } from './vector-math.js';

const POTION = sharedModelDir('potion-base-2M');
const bits = (v: Float32Array): string => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
const norm = (v: Float32Array): number => Math.sqrt(dot(v, v));

// Printed by `python3 bench/embedding/model2vec-reference.py` (its own safetensors reader and WordPiece, stdlib only).
const SENTENCE = "Model2Vec's café embeddings \u2603 retrieve documents quickly.";
const REFERENCE_IDS = [1950, 1481, 2732, 1284, 11, 61, 6674, 6867, 7276, 3673, 1021, 11856, 4497, 1861, 18];
const REFERENCE_VECTOR = [
  -0.0256915197, 0.330883741, -0.159563136, -0.254832709, -0.154533636, 0.318456371, 0.0495648079, 0.00641018006,
  -0.0623079833, 0.0294438886, 0.00641398807, 0.0637136535, 0.0736669043, 0.0322211864, 0.248083564, -0.0661734033,
  0.112859289, -0.160496459, -0.094722905, 0.00363380402, -0.160178737, -0.0208674722, 0.0326554481, -0.0880398191,
  -0.00479752004, -0.192325371, 0.10308014, 0.0850251454, -0.146486646, 0.185630759, -0.17110018, 0.0175211641,
  -0.0117189056, 0.0723296152, -0.132705361, 0.13021486, 0.102040596, 0.115630714, -0.0778402678, -0.096951547,
  -0.130614096, -0.0871001617, -4.12773201e-5, -0.0347986694, -0.0795236418, -0.0899622575, 0.277971267, -0.0692729014,
  -0.125067862, -0.0421404076, -0.128665001, -0.108951537, 0.0340297021, 0.00544826107, 0.00093078602, 0.237030039,
  -0.0796519184, -0.0866952386, 0.112481677, -0.0504484711, 0.0515729776, -0.0336505036, 0.116753675, -0.128262036,
];

/** A safetensors file written by hand: 8-byte LE header length, JSON header, data. */
const safetensors = (tensors: { name: string; dtype: string; shape: number[]; data: Buffer }[]): Buffer => {
  let offset = 0;
  const header: Record<string, unknown> = {};
  for (const t of tensors) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.data.length] };
    offset += t.data.length;
  }
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([length, json, ...tensors.map((t) => t.data)]);
};

/** A model directory: the real tokenizer, and the given config and weights. */
const modelDir = async (root: string, name: string, weights: Buffer | 'real', config?: object): Promise<string> => {
  const dir = await mkdtemp(join(root, `${name}-`));
  await copyFile(join(POTION, 'tokenizer.json'), join(dir, 'tokenizer.json'));
  if (config) await writeFile(join(dir, 'config.json'), JSON.stringify(config));
  else await copyFile(join(POTION, 'config.json'), join(dir, 'config.json'));
  if (weights === 'real') await symlink(join(POTION, 'model.safetensors'), join(dir, 'model.safetensors'));
  else await writeFile(join(dir, 'model.safetensors'), weights);
  return dir;
};

describe('Embedder potion-base-2M (Model2Vec static embeddings)', () => {
  let embedder: Embedder;
  let root: string;
  let matrix: Float32Array;
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (_: unknown, msg: string) => warnings.push(msg) } as never;
  const row = (id: number): Float32Array => matrix.subarray(id * 64, (id + 1) * 64);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lectern-potion-'));
    embedder = await resolveEmbedder({ model: 'potion-base-2M', modelDir: POTION, cacheDir: root, log });
    matrix = tensorToFloat32(await readSafetensors(join(POTION, 'model.safetensors')), 'embeddings');
  });
  afterAll(async () => {
    await embedder?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('is the 64-d model, normalised as its config.json says, with a fingerprint pinned to its files', () => {
    expect(embedder.modelId).toBe('potion-base-2M');
    expect(embedder.dimension).toBe(64);
    expect(embedder.maxTokens).toBe(512);
    expect(embedder.fingerprint).toMatchObject({ model_id: 'potion-base-2M', dimension: 64, normalized: true });
    expect(embedder.fingerprint.revision).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(warnings).toEqual([]); // the shared copy is an accepted file
  });

  it('matches the vector computed independently by bench/embedding/model2vec-reference.py', async () => {
    const tokenizer = await loadModel2VecTokenizer(POTION);
    expect(tokenizer.encode(SENTENCE)).toEqual(REFERENCE_IDS);
    const v = await embedder.embed(SENTENCE);
    expect(v).toHaveLength(64);
    v.forEach((x, i) => expect(Math.abs(x - (REFERENCE_VECTOR[i] as number))).toBeLessThan(1e-6));
  });

  it('tokenises without special tokens and drops [UNK]', async () => {
    const tokenizer = await loadModel2VecTokenizer(POTION);
    const ids = tokenizer.encode('This is an example sentence');
    expect(ids).toEqual([1029, 1009, 1025, 1748, 5257]); // no [CLS] (2) / [SEP] (3) around them
    expect(embedder.countTokens('This is an example sentence')).toBe(5);
    // The snowman and the emoji are [UNK] (id 1): dropped, so they change nothing.
    expect(tokenizer.encode('hello \u2603 world \u{1F600}')).toEqual(tokenizer.encode('hello world'));
    expect(bits(await embedder.embed('hello \u2603 world \u{1F600}'))).toBe(bits(await embedder.embed('hello world')));
    // Nothing but [UNK]: model2vec's zero vector.
    expect(Array.from(await embedder.embed('\u2603 \u{1F600}')).every((x) => x === 0)).toBe(true);
  });

  it('averages the token rows and L2-normalises the mean', async () => {
    const [cat, dog] = [
      (await loadModel2VecTokenizer(POTION)).encode('cat')[0] as number,
      (await loadModel2VecTokenizer(POTION)).encode('dog')[0] as number,
    ];
    const mean = Array.from({ length: 64 }, (_, d) => ((row(cat)[d] as number) + (row(dog)[d] as number)) / 2);
    const length = Math.sqrt(mean.reduce((s, x) => s + x * x, 0));
    const v = await embedder.embed('cat dog');
    v.forEach((x, d) => expect(x).toBeCloseTo((mean[d] as number) / length, 6));
    expect(norm(v)).toBeCloseTo(1, 6);
    // Order does not matter; repetition weighs a token more.
    expect(bits(await embedder.embed('dog cat'))).toBe(bits(v));
    expect(dot(await embedder.embed('cat cat dog'), await embedder.embed('cat'))).toBeGreaterThan(
      dot(v, await embedder.embed('cat')),
    );
  });

  it('without "normalize" in config.json returns the plain mean, and says so in the fingerprint', async () => {
    const dir = await modelDir(root, 'plain', 'real', { model_type: 'model2vec', hidden_dim: 64 });
    const plain = await resolveEmbedder({ model: 'potion-base-2M', modelDir: dir, cacheDir: root });
    try {
      expect(plain.fingerprint.normalized).toBe(false);
      expect(plain.fingerprint.revision).not.toBe(embedder.fingerprint.revision);
      const v = await plain.embed('cat');
      const cat = (await loadModel2VecTokenizer(POTION)).encode('cat')[0] as number;
      expect(bits(v)).toBe(bits(Float32Array.from(row(cat))));
      expect(norm(v)).not.toBeCloseTo(1, 2);
    } finally {
      await plain.close();
    }
  });

  it('averages at most 512 tokens and warns when it cuts', async () => {
    warnings.length = 0;
    const cats = Array.from({ length: 512 }, () => 'cat').join(' ');
    const long = `${cats} ${Array.from({ length: 100 }, () => 'dog').join(' ')}`;
    expect(embedder.countTokens(long)).toBe(612);
    expect(bits(await embedder.embed(long))).toBe(bits(await embedder.embed('cat')));
    expect(warnings.some((w) => w.includes('612 tokens truncated to 512'))).toBe(true);
    expect(bits(await embedder.embed(`cat ${Array.from({ length: 100 }, () => 'dog').join(' ')}`))).not.toBe(
      bits(await embedder.embed('cat')),
    );
  });

  it('is deterministic: the same text gives the same bits alone, in any batch, in any order', async () => {
    const texts = Array.from(
      { length: 70 },
      (_, i) => `document ${i}: ${'retrieval of scientific claims '.repeat(1 + (i % 9))}`,
    );
    const alone = await Promise.all(texts.map((t) => embedder.embed(t)));
    const batched = await embedder.embedBatch(texts, { batchSize: 32 });
    const reversed = (await embedder.embedBatch([...texts].reverse(), { batchSize: 7 })).reverse();
    expect(batched.map(bits)).toEqual(alone.map(bits));
    expect(reversed.map(bits)).toEqual(alone.map(bits));
  });

  it('reads F16 and I8 matrices (the hub formats) to the same vectors within their precision', async () => {
    const scale = matrix.reduce((m, x) => Math.max(m, Math.abs(x)), 0) / 127;
    const half = new Uint16Array(matrix.length);
    const int8 = new Int8Array(matrix.length);
    for (let i = 0; i < matrix.length; i++) {
      half[i] = toHalf(matrix[i] as number);
      int8[i] = Math.round((matrix[i] as number) / scale);
    }
    const [f16, i8] = [Buffer.from(half.buffer), Buffer.from(int8.buffer)]; // little-endian hosts, as the format
    const sentence = 'Static embeddings retrieve scientific abstracts quickly.';
    const reference = await embedder.embed(sentence);
    for (const [dtype, data, minCosine] of [
      ['F16', f16, 0.99999],
      ['I8', i8, 0.999],
    ] as const) {
      const dir = await modelDir(root, dtype, safetensors([{ name: 'embeddings', dtype, shape: [29528, 64], data }]));
      const e = await resolveEmbedder({ model: 'potion-base-2M', modelDir: dir, cacheDir: root });
      try {
        expect(dot(await e.embed(sentence), reference)).toBeGreaterThan(minCosine);
      } finally {
        await e.close();
      }
    }
  });

  it('refuses a truncated file with model_file_invalid naming the file', async () => {
    const real = await readFile(join(POTION, 'model.safetensors'));
    for (const [bytes, reason] of [
      [real.subarray(0, 4), /truncated: 4 bytes/],
      [real.subarray(0, 60), /truncated: header of 112 bytes announced, file has 60 bytes/],
      [
        real.subarray(0, 1_000_000),
        /truncated: tensor "embeddings" ends at byte 7559168 of the data section, which has 999880 bytes/,
      ],
    ] as const) {
      const dir = await modelDir(root, 'cut', Buffer.from(bytes));
      await expect(resolveEmbedder({ model: 'potion-base-2M', modelDir: dir, cacheDir: root })).rejects.toMatchObject({
        code: 'model_file_invalid',
        message: expect.stringMatching(new RegExp(`model\\.safetensors: ${reason.source}`)),
      });
    }
  });

  it('refuses a tensor of the wrong shape, dtype or name', async () => {
    const cases = [
      [
        { name: 'embeddings', dtype: 'F32', shape: [29528, 32] },
        /tensor "embeddings" has shape \[29528, 32\], expected \[29528, 64\]/,
      ],
      [{ name: 'embeddings', dtype: 'F32', shape: [1000, 64] }, /has shape \[1000, 64\], expected \[29528, 64\]/],
      [
        { name: 'embeddings', dtype: 'I32', shape: [29528, 64] },
        /tensor "embeddings" is I32; expected one of F32, F16, I8/,
      ],
      [{ name: 'weight', dtype: 'F32', shape: [29528, 64] }, /has no tensor "embeddings" \(tensors: weight\)/],
    ] as const;
    for (const [t, reason] of cases) {
      const width = t.dtype === 'F32' || t.dtype === 'I32' ? 4 : 1;
      const data = Buffer.alloc(t.shape[0] * t.shape[1] * width);
      const dir = await modelDir(root, 'shape', safetensors([{ ...t, shape: [...t.shape], data }]));
      await expect(resolveEmbedder({ model: 'potion-base-2M', modelDir: dir, cacheDir: root })).rejects.toMatchObject({
        code: 'model_file_invalid',
        message: expect.stringMatching(reason),
      });
    }
  });
});

/** float -> IEEE 754 half (round to nearest even), for the F16 test file. */
const toHalf = (x: number): number => {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0] as number;
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  const mant = u & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    const m = (mant | 0x800000) >>> (1 - exp);
    return sign | ((m + 0x1000 + ((m >>> 13) & 1) - 1) >>> 13);
  }
  if (exp >= 31) return sign | 0x7c00;
  const rounded = (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  return sign | (rest > 0x1000 || (rest === 0x1000 && rounded & 1) ? rounded + 1 : rounded);
};
