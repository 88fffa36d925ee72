// SPDX-License-Identifier: AGPL-3.0-or-later
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError } from '@lectern/contracts';
import type { EmbeddingLogger } from './embedder.js';
import { sha256File } from './model-files.js';
import { findModel, type KnownModel } from './model-registry.js';
import { readModel2VecConfig, staticEmbeddingsFrom } from './model2vec/model2vec.backend.js';

export interface PullProgress {
  file: string;
  received: number;
  total: number | undefined;
}

export interface PullModelOptions {
  model: string;
  /** `<DATA_DIR>/models`; files land in `<cacheDir>/<model id>/` in the hub's layout. */
  cacheDir: string;
  quantized?: boolean | undefined;
  /** Where files are fetched from (default: the Hugging Face hub, `https://huggingface.co/<repo>/resolve/main`). */
  baseUrl?: string | undefined;
  /** Import from this local directory (hub layout, or the files side by side) instead of downloading. */
  from?: string | undefined;
  fetch?: typeof fetch;
  onProgress?: (p: PullProgress) => void;
  log?: EmbeddingLogger | undefined;
  /** The models known, with their pinned sha256 values (default: MODEL_REGISTRY). */
  registry?: readonly KnownModel[] | undefined;
}

export interface PulledFile {
  path: string;
  sha256: string;
  bytes: number;
  /** Already present and verified: nothing downloaded. */
  cached: boolean;
}

export interface PullResult {
  model: string;
  dir: string;
  files: PulledFile[];
}

/** One file to fetch: kept when its sha256 is one of `accepted`, and (when given) `check` passes on it. */
interface PullItem {
  path: string;
  bytes: number | undefined;
  /** Accepted sha256 values; empty: not pinned (model2vec's config.json), `check` decides. */
  accepted: string[];
  /** Structural check of the fetched file; throws MODEL_FILE_INVALID naming `label`. */
  check?: (file: string, label: string) => Promise<void>;
}

const itemsToPull = (model: KnownModel, quantized: boolean): PullItem[] => {
  const items: PullItem[] = model.files.map((f) => ({ path: f.path, bytes: f.bytes, accepted: [f.sha256] }));
  const weights = quantized ? model.weights?.int8 : model.weights?.fp32;
  const first = weights?.[0];
  if (first)
    items.push({
      path: first.path,
      bytes: first.bytes,
      accepted: (weights ?? []).filter((w) => w.path === first.path).map((w) => w.sha256),
    });
  const statics = model.staticEmbeddings;
  const matrix = statics?.accepted[0];
  if (statics && matrix) {
    items.push({
      path: statics.config,
      bytes: undefined,
      accepted: [],
      check: async (file, label) => void (await readModel2VecConfig(file, label)),
    });
    items.push({
      path: matrix.path,
      bytes: matrix.bytes,
      accepted: statics.accepted.filter((a) => a.path === matrix.path).map((a) => a.sha256),
      check: async (file, label) =>
        void staticEmbeddingsFrom(await readFile(file), label, { ...statics, dimension: model.dimension }),
    });
  }
  return items;
};

/** Copies `source` into `part` with progress (a local import: `--from DIR`). */
const copyLocal = async (source: string, part: string, file: PullItem, o: PullModelOptions): Promise<void> => {
  const total = (await stat(source)).size;
  let received = 0;
  const input = createReadStream(source);
  input.on('data', (chunk) => {
    received += chunk.length;
    o.onProgress?.({ file: file.path, received, total });
  });
  await pipeline(input, createWriteStream(part));
};

/** Where `path` lies in a local model directory: the hub layout (`onnx/model.onnx`), or flat (`model.onnx`). */
const localSource = (from: string, path: string): string => {
  const source = [join(from, path), join(from, path.replace(/^.*\//, ''))].find((p) => existsSync(p));
  if (!source)
    throw new AppError(
      'invalid_input',
      `${join(from, path)} does not exist; --from needs a directory holding the model's files`,
    );
  return source;
};

/** Downloads `url` into `part`, continuing from the bytes already there (HTTP Range). */
const download = async (url: string, part: string, file: PullItem, o: PullModelOptions): Promise<void> => {
  const have = existsSync(part) ? (await stat(part)).size : 0;
  const doFetch = o.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, redirect: 'follow' });
  } catch (cause) {
    throw new AppError(
      'download_failed',
      `cannot reach ${url} (${(cause as Error).message}); check the network and retry`,
      { httpStatus: 502, cause },
    );
  }
  if (res.status === 416 && have > 0) return; // the partial file is already complete
  if (!res.ok || !res.body)
    throw new AppError('download_failed', `GET ${url} answered HTTP ${res.status}`, { httpStatus: 502 });
  const resumed = res.status === 206 && have > 0;
  if (resumed) o.log?.info({ file: file.path, from: have }, `resuming ${file.path} at byte ${have}`);
  const length = Number(res.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(length) ? length + (resumed ? have : 0) : file.bytes;
  let received = resumed ? have : 0;
  const body = Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    received += chunk.length;
    o.onProgress?.({ file: file.path, received, total });
  });
  try {
    await pipeline(body, createWriteStream(part, { flags: resumed ? 'a' : 'w' }));
  } catch (cause) {
    throw new AppError(
      'download_failed',
      `download of ${file.path} interrupted after ${received} bytes (${(cause as Error).message}); run the same command again to resume`,
      { httpStatus: 502, cause },
    );
  }
};

const verified = async (file: string, item: PullItem, label: string): Promise<string> => {
  const sha256 = await sha256File(file);
  if (item.accepted.length > 0 && !item.accepted.includes(sha256)) {
    throw new AppError(
      'checksum_mismatch',
      `${label} has sha256 ${sha256}, expected ${item.accepted.join(' or ')}; the file was discarded`,
      {
        httpStatus: 502,
      },
    );
  }
  await item.check?.(file, label);
  return sha256;
};

/**
 * `lectern models pull`: downloads a model's files, resumably (`<file>.part` + HTTP Range), or imports them from a
 * local directory (`from`), and keeps a file only when its sha256 is one of the values pinned in the registry (and,
 * for Model2Vec, its tensor has the expected name, dtype and shape). Files already present and verified are kept.
 */
export const pullModel = async (o: PullModelOptions): Promise<PullResult> => {
  const model = findModel(o.model, o.registry);
  if (!model) throw new AppError('invalid_input', `unknown model "${o.model}"`);
  const dir = join(o.cacheDir, model.id);
  if (model.source === 'bundled') return { model: model.id, dir, files: [] };
  const base = o.from ?? (o.baseUrl ?? `https://huggingface.co/${model.hubRepo}/resolve/main`).replace(/\/+$/, '');
  const result: PulledFile[] = [];
  for (const file of itemsToPull(model, o.quantized ?? false)) {
    const target = join(dir, file.path);
    await mkdir(dirname(target), { recursive: true });
    const present = existsSync(target) ? await verified(target, file, target).catch(() => undefined) : undefined;
    if (present) {
      result.push({ path: file.path, sha256: present, bytes: (await stat(target)).size, cached: true });
      continue;
    }
    const part = `${target}.part`;
    const source = o.from ? localSource(o.from, file.path) : `${base}/${file.path}`;
    if (o.from) await copyLocal(source, part, file, o);
    else await download(source, part, file, o);
    let sha256: string;
    try {
      sha256 = await verified(part, file, o.from ? source : `${file.path} from ${base}`);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
    await rename(part, target);
    result.push({ path: file.path, sha256, bytes: (await stat(target)).size, cached: false });
  }
  return { model: model.id, dir, files: result };
};
