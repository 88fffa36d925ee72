// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wordPieceTokenizerJson } from '@lectern/testing';
import { MODEL_REGISTRY, POTION_MODEL_ID, type KnownModel } from './model-registry.js';
import { resolveEmbedder } from './resolve-embedder.js';

// A fresh install's first start, in the plain tier: a small Model2Vec model made here (the real potion files live
// in ../shared), served by a loopback fake of the hub in its layout (`/<repo>/resolve/main/<file>`); the registry
// pins this model's sha256 values the way MODEL_REGISTRY pins potion-base-2M's.

const ROWS = 8;
const DIM = 64;
const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'heat', 'pump', 'policy', 'tree'];

const safetensors = (): Buffer => {
  const data = Buffer.alloc(ROWS * DIM * 4);
  for (let r = 0; r < ROWS; r++)
    for (let c = 0; c < DIM; c++) data.writeFloatLE(((r * 31 + c * 7) % 13) - 6, (r * DIM + c) * 4);
  const header = Buffer.from(
    JSON.stringify({ embeddings: { dtype: 'F32', shape: [ROWS, DIM], data_offsets: [0, data.length] } }),
  );
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([size, header, data]);
};

const tokenizer = (): Buffer => Buffer.from(wordPieceTokenizerJson(VOCAB, 4));

const HUB_FILES: Record<string, Buffer> = {
  'model.safetensors': safetensors(),
  'tokenizer.json': tokenizer(),
  'config.json': Buffer.from(JSON.stringify({ model_type: 'model2vec', hidden_dim: DIM, normalize: true })),
};
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** MODEL_REGISTRY with potion-base-2M's pins replaced by this small model's (or a wrong matrix sha256). */
const registryPinning = (matrixSha: string): KnownModel[] =>
  MODEL_REGISTRY.map((m) =>
    m.id !== POTION_MODEL_ID
      ? m
      : {
          ...m,
          files: [{ path: 'tokenizer.json', sha256: sha(HUB_FILES['tokenizer.json'] as Buffer), bytes: 1 }],
          staticEmbeddings: {
            ...(m.staticEmbeddings as NonNullable<KnownModel['staticEmbeddings']>),
            rows: ROWS,
            accepted: [
              {
                path: 'model.safetensors',
                sha256: matrixSha,
                bytes: (HUB_FILES['model.safetensors'] as Buffer).length,
              },
            ],
          },
        },
  );

const startFakeHub = async () => {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/minishlab\/potion-base-2M\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    const body = m ? HUB_FILES[m[1] as string] : undefined;
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
};

const recorder = () => {
  const lines: { level: string; msg: string }[] = [];
  const log = {
    info: (_: object, msg: string) => void lines.push({ level: 'info', msg }),
    warn: (_: object, msg: string) => void lines.push({ level: 'warn', msg }),
  };
  return { lines, log };
};

describe("fresh install: 'auto' with no model fetches potion-base-2M from the hub", () => {
  let hub: Awaited<ReturnType<typeof startFakeHub>>;
  let cacheDir: string;

  beforeAll(async () => {
    hub = await startFakeHub();
  });
  afterAll(() => hub.close());
  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lectern-fetch-'));
    hub.requests.length = 0;
  });
  afterEach(() => rm(cacheDir, { recursive: true, force: true }));

  it('fetches the files with progress, verifies them by sha256 and serves the model', async () => {
    const { lines, log } = recorder();
    const registry = registryPinning(sha(HUB_FILES['model.safetensors'] as Buffer));
    const e = await resolveEmbedder({ model: 'auto', cacheDir, registry, log, fetchDefault: { endpoint: hub.url } });
    try {
      expect(e.modelId).toBe(POTION_MODEL_ID);
      expect(hub.requests.sort()).toEqual(
        ['config.json', 'model.safetensors', 'tokenizer.json'].map(
          (f) => `/minishlab/potion-base-2M/resolve/main/${f}`,
        ),
      );
      expect(existsSync(join(cacheDir, POTION_MODEL_ID, 'model.safetensors'))).toBe(true);
      expect(lines.some((l) => /fetching potion-base-2M: model\.safetensors 100%/.test(l.msg))).toBe(true);
      expect(lines.filter((l) => l.level === 'warn')).toEqual([]);
      expect(lines.at(-1)?.msg).toMatch(/^embedding model: potion-base-2M \(64-d/);
      const [a, b] = await e.embedBatch(['heat pump', 'policy tree']);
      expect(a).toHaveLength(DIM);
      expect(Array.from(a as Float32Array)).not.toEqual(Array.from(b as Float32Array));
    } finally {
      await e.close();
    }
    // A second start finds the verified files: nothing is fetched again.
    const again = await resolveEmbedder({ model: 'auto', cacheDir, registry, fetchDefault: { endpoint: hub.url } });
    await again.close();
    expect(again.modelId).toBe(POTION_MODEL_ID);
    expect(hub.requests).toHaveLength(3);
  });

  it('refuses a file whose sha256 is not the pinned one and says which model serves instead, once', async () => {
    const { lines, log } = recorder();
    const registry = registryPinning('0'.repeat(64));
    const e = await resolveEmbedder({ model: 'auto', cacheDir, registry, log, fetchDefault: { endpoint: hub.url } });
    await e.close();
    expect(e.modelId).toBe('universal-sentence-encoder-lite');
    expect(existsSync(join(cacheDir, POTION_MODEL_ID, 'model.safetensors'))).toBe(false);
    expect(existsSync(join(cacheDir, POTION_MODEL_ID, 'model.safetensors.part'))).toBe(false);
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/embedding model: universal-sentence-encoder-lite .*the bundled fallback/);
    expect(warnings[0]?.msg).toContain('sha256');
    expect(warnings[0]?.msg).toContain('lectern models pull potion-base-2M');
  });

  it('offline (nothing listening at HF_ENDPOINT): falls back and names the fallback in one line', async () => {
    const closed = await startFakeHub();
    await closed.close();
    const { lines, log } = recorder();
    const e = await resolveEmbedder({ model: 'auto', cacheDir, log, fetchDefault: { endpoint: closed.url } });
    await e.close();
    expect(e.modelId).toBe('universal-sentence-encoder-lite');
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toContain(`could not fetch potion-base-2M from ${closed.url}`);
    expect(warnings[0]?.msg).toContain('universal-sentence-encoder-lite');
  });

  it('without fetchDefault (EMBEDDING_AUTO_FETCH=0) it never reaches the hub', async () => {
    const e = await resolveEmbedder({ model: 'auto', cacheDir });
    await e.close();
    expect(e.modelId).toBe('universal-sentence-encoder-lite');
    expect(hub.requests).toEqual([]);
  });
});
