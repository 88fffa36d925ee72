import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedModelDir } from '@lectern/testing';
import { sha256File } from './model-files.js';
import { pullModel } from './pull-model.js';

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
  const served: Record<string, Buffer> = Object.fromEntries(tokenizerFiles.map((f) => [f, readFileSync(join(sharedModelDir(), f))]));

  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'lectern-pull-'));
  });
  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('resumes an interrupted download and keeps only files whose sha256 matches the pinned value', async () => {
    // The hub is unreachable here: the server holds the real tokenizer files and a fake weights file.
    const server = await startFileServer({ ...served, 'onnx/model.onnx': Buffer.alloc(4096, 7) }, { path: 'tokenizer.json', after: 300_000 });
    const progress: number[] = [];
    try {
      const first = pullModel({ model: 'all-MiniLM-L6-v2', cacheDir, baseUrl: server.url });
      await expect(first).rejects.toMatchObject({ code: 'download_failed', message: expect.stringContaining('run the same command again to resume') });
      const dir = join(cacheDir, 'all-MiniLM-L6-v2');
      expect(existsSync(join(dir, 'tokenizer.json.part'))).toBe(true);

      const second = pullModel({
        model: 'all-MiniLM-L6-v2',
        cacheDir,
        baseUrl: server.url,
        onProgress: (p) => p.file === 'tokenizer.json' && progress.push(p.received),
      });
      await expect(second).rejects.toMatchObject({ code: 'checksum_mismatch', message: expect.stringContaining('onnx/model.onnx') });
      // The interrupted file continued from where it stopped, and verifies.
      const resumed = server.ranges.filter((r) => r.path === 'tokenizer.json');
      expect(resumed).toHaveLength(2);
      expect(resumed[1]?.range).toMatch(/^bytes=\d+-$/);
      expect(Number(/\d+/.exec(resumed[1]?.range ?? '')?.[0])).toBeGreaterThan(0);
      expect(progress[0]).toBeGreaterThan(Number(/\d+/.exec(resumed[1]?.range ?? '')?.[0]) - 1);
      expect(await sha256File(join(dir, 'tokenizer.json'))).toBe('da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0');
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
