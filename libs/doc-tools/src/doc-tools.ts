// SPDX-License-Identifier: AGPL-3.0-or-later
import type {
  DocIndexBuildInput,
  DocIndexBuildOutput,
  DocReadInput,
  DocReadOutput,
  DocSearchInput,
  DocSearchOutput,
  JsonValidateAndNormalizeInput,
  JsonValidateAndNormalizeOutput,
} from '@lectern/contracts';
import type { z } from 'zod';
import { buildIndex } from './build-index.js';
import type { IngestContext } from '@lectern/ingestion';
import type { DocToolsDeps } from './deps.js';
import { IndexCache } from './index-cache.js';
import { readChunk } from './read-chunk.js';
import { searchIndex, type SearchState } from './search-index.js';
import { validateAndNormalize } from './validate-normalize.js';

/** Spec 003's four document tools as use cases over one cache directory (typed by their contracts). */
export interface DocTools {
  indexBuild(
    input: z.infer<typeof DocIndexBuildInput>,
    ctx?: IngestContext,
  ): Promise<z.input<typeof DocIndexBuildOutput>>;
  search(input: z.infer<typeof DocSearchInput>): Promise<z.input<typeof DocSearchOutput>>;
  read(input: z.infer<typeof DocReadInput>): Promise<z.input<typeof DocReadOutput>>;
  validateAndNormalize(
    input: z.infer<typeof JsonValidateAndNormalizeInput>,
  ): z.infer<typeof JsonValidateAndNormalizeOutput>;
}

export const createDocTools = (deps: DocToolsDeps): DocTools => {
  const cache = new IndexCache(deps.cacheDir);
  const state: SearchState = { cache, vectors: new WeakMap(), bm25: new WeakMap() };
  return {
    indexBuild: (input, ctx) => buildIndex(deps, cache, input, ctx),
    search: (input) => searchIndex(deps, state, input),
    read: (input) => readChunk(cache, input),
    validateAndNormalize,
  };
};
