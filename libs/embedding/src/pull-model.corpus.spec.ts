// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedModelDir } from '@lectern/testing';
import { sha256File } from './model-files.js';
import { pullModel } from './pull-model.js';
import { modelAvailable, resolveEmbedder } from './resolve-embedder.js';

/** A loopback file server in the hub's layout; can cut a file short once, and records Range headers. */
const startFileServer = async (files: Record<string, Buffer>, cutOnce: { path: string; after: number } | undefined) => {
  const ranges: { path: string; range: string | undefined }[] = [];
  let cut = cutOnce;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').replace(/^\/+/, '');
    const body = files[path];
    ranges.push({ path, range: req.headers.range });
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
    const slice = body.subarray(from);
    res.writeHead(from > 0 ? 206 : 200, {
      'content-length': String(slice.length),
      ...(from > 0 ? { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` } : {}),
    });
    if (cut && cut.path === path) {
      const after = cut.after;
      cut = undefined;
      res.write(slice.subarray(0, after), () => res.destroy());
      return;
    }
    res.end(slice);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, ranges, close: () => new Promise<void>((r) => server.close(() => r())) };
};

describe('pullModel (lectern models pull)', () => {
  let cacheDir: string;
  const tokenizerFiles = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'vocab.txt'];
  const served: Record<string, Buffer> = Object.fromEntries(
    tokenizerFiles.map((f) => [f, readFileSync(join(sharedModelDir(), f))]),
  );

  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lectern-pull-'));
  });
  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('resumes an interrupted download and keeps only files whose sha256 matches the pinned value', async () => {
    // The hub is unreachable here: the server holds the real tokenizer files and a fake weights file.
    const server = await startFileServer(
      { ...served, 'onnx/model.onnx': Buffer.alloc(4096, 7) },
      { path: 'tokenizer.json', after: 300_000 },
    );
    const progress: number[] = [];
    try {
      const first = pullModel({ model: 'all-MiniLM-L6-v2', cacheDir, baseUrl: server.url });
      await expect(first).rejects.toMatchObject({
        code: 'download_failed',
        message: expect.stringContaining('run the same command again to resume'),
      });
      const dir = join(cacheDir, 'all-MiniLM-L6-v2');
      expect(existsSync(join(dir, 'tokenizer.json.part'))).toBe(true);

      const second = pullModel({
        model: 'all-MiniLM-L6-v2',
        cacheDir,
        baseUrl: server.url,
        onProgress: (p) => p.file === 'tokenizer.json' && progress.push(p.received),
      });
      await expect(second).rejects.toMatchObject({
        code: 'checksum_mismatch',
        message: expect.stringContaining('onnx/model.onnx'),
      });
      // The interrupted file continued from where it stopped, and verifies.
      const resumed = server.ranges.filter((r) => r.path === 'tokenizer.json');
      expect(resumed).toHaveLength(2);
      expect(resumed[1]?.range).toMatch(/^bytes=\d+-$/);
      expect(Number(/\d+/.exec(resumed[1]?.range ?? '')?.[0])).toBeGreaterThan(0);
      expect(progress[0]).toBeGreaterThan(Number(/\d+/.exec(resumed[1]?.range ?? '')?.[0]) - 1);
      expect(await sha256File(join(dir, 'tokenizer.json'))).toBe(
        'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0',
      );
      // The weights with a wrong sha256 are discarded, not kept.
      expect(existsSync(join(dir, 'onnx', 'model.onnx'))).toBe(false);
      expect(existsSync(join(dir, 'onnx', 'model.onnx.part'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('does not fetch files that are already present and verified', async () => {
    const server = await startFileServer(served, undefined);
    try {
      await pullModel({ model: 'all-MiniLM-L6-v2', cacheDir, baseUrl: server.url }).catch(() => undefined);
      const before = server.ranges.length;
      await expect(pullModel({ model: 'all-MiniLM-L6-v2', cacheDir, baseUrl: server.url })).rejects.toMatchObject({
        message: expect.stringContaining('HTTP 404'),
      });
      // Only the (missing) weights were asked for the second time.
      expect(server.ranges.slice(before).map((r) => r.path)).toEqual(['onnx/model.onnx']);
    } finally {
      await server.close();
    }
  });

  it('has nothing to download for the bundled model', async () => {
    const result = await pullModel({ model: 'universal-sentence-encoder-lite', cacheDir });
    expect(result.files).toEqual([]);
  });
});

describe('pullModel --from (import a local copy)', () => {
  const potion = sharedModelDir('potion-base-2M');
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'lectern-import-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('imports potion-base-2M with the same verification, reports progress, and auto then serves it', async () => {
    const cacheDir = join(root, 'models');
    const seen = new Set<string>();
    const result = await pullModel({
      model: 'potion-base-2M',
      cacheDir,
      from: potion,
      onProgress: (p) => seen.add(p.file),
    });
    expect(result.files.map((f) => [f.path, f.cached])).toEqual([
      ['tokenizer.json', false],
      ['config.json', false],
      ['model.safetensors', false],
    ]);
    expect(result.files[2]?.sha256).toBe('35520560833b76c844e2ab462628b5bf05caa2e797fd3c5347d8abcebbacb5ed');
    expect([...seen]).toEqual(['tokenizer.json', 'config.json', 'model.safetensors']);
    expect(await modelAvailable('potion-base-2M', { cacheDir })).toBe(true);
    const again = await pullModel({ model: 'potion-base-2M', cacheDir, from: potion });
    expect(again.files.every((f) => f.cached)).toBe(true);
    const e = await resolveEmbedder({ model: 'auto', cacheDir });
    await e.close();
    expect(e.modelId).toBe('potion-base-2M');
  });

  it('refuses weights that are not an accepted file and keeps nothing of them', async () => {
    const from = join(root, 'copy');
    await mkdir(from);
    for (const f of ['tokenizer.json', 'config.json']) await copyFile(join(potion, f), join(from, f));
    const bytes = await readFile(join(potion, 'model.safetensors'));
    await writeFile(join(from, 'model.safetensors'), bytes.subarray(0, bytes.length - 4096)); // truncated copy
    const cacheDir = join(root, 'models');
    await expect(pullModel({ model: 'potion-base-2M', cacheDir, from })).rejects.toMatchObject({
      code: 'checksum_mismatch',
      message: expect.stringMatching(
        /model\.safetensors has sha256 [0-9a-f]{64}, expected 35520560.*; the file was discarded/,
      ),
    });
    expect(existsSync(join(cacheDir, 'potion-base-2M', 'model.safetensors'))).toBe(false);
    expect(existsSync(join(cacheDir, 'potion-base-2M', 'model.safetensors.part'))).toBe(false);
    expect(await modelAvailable('potion-base-2M', { cacheDir })).toBe(false);
  });

  it('refuses a config.json that is not a model2vec config, and a directory without the files', async () => {
    const from = join(root, 'bad-config');
    await mkdir(from);
    for (const f of ['tokenizer.json', 'model.safetensors']) await copyFile(join(potion, f), join(from, f));
    await writeFile(join(from, 'config.json'), JSON.stringify({ model_type: 'bert', normalize: true }));
    await expect(pullModel({ model: 'potion-base-2M', cacheDir: join(root, 'm1'), from })).rejects.toMatchObject({
      code: 'model_file_invalid',
      message: expect.stringContaining('model_type is "bert", expected "model2vec"'),
    });
    await expect(
      pullModel({ model: 'potion-base-2M', cacheDir: join(root, 'm2'), from: join(root, 'nowhere') }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining("--from needs a directory holding the model's files"),
    });
  });
});
