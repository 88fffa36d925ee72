// SPDX-License-Identifier: AGPL-3.0-or-later
import type { EmbeddingLogger } from './embedder.js';
import { findModel, POTION_MODEL_ID, type KnownModel } from './model-registry.js';
import { pullModel, type PullProgress } from './pull-model.js';

/** The Hugging Face hub; `HF_ENDPOINT` (the variable huggingface_hub reads) points elsewhere, e.g. a mirror. */
export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';

export interface FetchDefaultModelOptions {
  /** `<DATA_DIR>/models`. */
  cacheDir: string;
  /** The hub's base URL (HF_ENDPOINT); files are `<endpoint>/<repo>/resolve/main/<path>`. */
  endpoint?: string | undefined;
  /** Gives up on the whole fetch after this long (default 120 s): a start never hangs on a slow network. */
  timeoutMs?: number | undefined;
  fetch?: typeof fetch;
  log?: EmbeddingLogger | undefined;
  registry?: readonly KnownModel[] | undefined;
}

/** One progress line per file every 25% (and at its end), so a slow download is visible but never floods. */
const progressLogger = (log: EmbeddingLogger | undefined) => {
  const logged = new Map<string, number>();
  return (p: PullProgress): void => {
    const total = p.total ?? 0;
    const quarter = total > 0 ? Math.min(4, Math.floor((p.received / total) * 4)) : 0;
    if (total <= 0 || (logged.get(p.file) ?? -1) >= quarter) return;
    logged.set(p.file, quarter);
    log?.info(
      { file: p.file, received: p.received, total },
      `fetching ${POTION_MODEL_ID}: ${p.file} ${Math.round((p.received / total) * 100)}% of ${(total / 1e6).toFixed(1)} MB`,
    );
  };
};

export type FetchOutcome = { fetched: string } | { failed: string };

/**
 * First start without a model: fetches the small default model (potion-base-2M, 7.5 MB) from the hub into the
 * cache with `pullModel`, which keeps a file only when its sha256 is one pinned in the registry. Never throws: on
 * any failure (offline, a refused checksum, a timeout) it says why, and the caller falls back to what is bundled
 * and names the fallback in its one start-up line.
 */
export const fetchDefaultModel = async (o: FetchDefaultModelOptions): Promise<FetchOutcome> => {
  const model = findModel(POTION_MODEL_ID, o.registry);
  if (!model?.hubRepo) return { failed: `${POTION_MODEL_ID} has no hub repository in the registry` };
  const endpoint = (o.endpoint || DEFAULT_HF_ENDPOINT).replace(/\/+$/, '');
  const baseUrl = `${endpoint}/${model.hubRepo}/resolve/main`;
  const signal = AbortSignal.timeout(o.timeoutMs ?? 120_000);
  const doFetch = o.fetch ?? fetch;
  o.log?.info(
    { model: model.id, from: baseUrl },
    `no embedding model in ${o.cacheDir}: fetching ${model.id} from ${endpoint}`,
  );
  try {
    await pullModel({
      model: model.id,
      cacheDir: o.cacheDir,
      baseUrl,
      registry: o.registry,
      log: o.log,
      fetch: (input, init) => doFetch(input, { ...init, signal }),
      onProgress: progressLogger(o.log),
    });
    return { fetched: model.id };
  } catch (err) {
    const reason = signal.aborted ? `no answer within ${(o.timeoutMs ?? 120_000) / 1000} s` : (err as Error).message;
    return { failed: `could not fetch ${model.id} from ${endpoint}: ${reason}` };
  }
};
