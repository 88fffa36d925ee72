import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError } from '@lectern/contracts';
import type { EmbeddingLogger } from './embedder.js';
import { sha256File } from './model-files.js';
import { findModel, type KnownModel, type ModelFile } from './model-registry.js';

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

const filesToPull = (model: KnownModel, quantized: boolean): ModelFile[] => {
  const weights = quantized ? model.weights?.int8 : model.weights?.fp32;
  return [...model.files, ...(weights?.[0] ? [weights[0]] : [])];
};

/** Downloads `url` into `part`, continuing from the bytes already there (HTTP Range). */
const download = async (url: string, part: string, file: ModelFile, o: PullModelOptions): Promise<void> => {
  const have = existsSync(part) ? (await stat(part)).size : 0;
  const doFetch = o.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, redirect: 'follow' });
  } catch (cause) {
    throw new AppError('download_failed', `cannot reach ${url} (${(cause as Error).message}); check the network and retry`, { httpStatus: 502, cause });
  }
  if (res.status === 416 && have > 0) return; // the partial file is already complete
  if (!res.ok || !res.body) throw new AppError('download_failed', `GET ${url} answered HTTP ${res.status}`, { httpStatus: 502 });
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

/**
 * `lectern models pull`: downloads a model's files, resumably (`<file>.part` + HTTP Range), and keeps a file only
 * when its sha256 equals the value pinned in the registry. Files already present and verified are not fetched.
 */
export const pullModel = async (o: PullModelOptions): Promise<PullResult> => {
  const model = findModel(o.model, o.registry);
  if (!model) throw new AppError('invalid_input', `unknown model "${o.model}"`);
  const dir = join(o.cacheDir, model.id);
  if (model.source === 'bundled') return { model: model.id, dir, files: [] };
  const base = (o.baseUrl ?? `https://huggingface.co/${model.hubRepo}/resolve/main`).replace(/\/+$/, '');
  const result: PulledFile[] = [];
  for (const file of filesToPull(model, o.quantized ?? false)) {
    const target = join(dir, file.path);
    await mkdir(dirname(target), { recursive: true });
    if (existsSync(target) && (await sha256File(target)) === file.sha256) {
      result.push({ path: file.path, sha256: file.sha256, bytes: (await stat(target)).size, cached: true });
      continue;
    }
    const part = `${target}.part`;
    await download(`${base}/${file.path}`, part, file, o);
    const sha256 = await sha256File(part);
    if (sha256 !== file.sha256) {
      await rm(part, { force: true });
      throw new AppError(
        'checksum_mismatch',
        `${file.path} from ${base} has sha256 ${sha256}, expected ${file.sha256}; the file was discarded`,
        { httpStatus: 502 },
      );
    }
    await rename(part, target);
    result.push({ path: file.path, sha256, bytes: (await stat(target)).size, cached: false });
  }
  return { model: model.id, dir, files: result };
};
