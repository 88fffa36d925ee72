// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type EmbeddingFingerprint } from '@lectern/contracts';
import { findModel, pullCommand } from './model-registry.js';

/** How to get a model, in one sentence, for error messages and start-up logs. */
export const howToGet = (modelId: string): string => {
  const known = findModel(modelId);
  if (!known) return `"${modelId}" is not a model this version knows`;
  if (known.source === 'bundled') return `"${modelId}" ships with Lectern (npm install restores it)`;
  return `run \`${pullCommand(modelId)}\` (needs network), or set EMBEDDING_MODEL_DIR to a directory holding its files`;
};

/** A model that was asked for cannot be loaded here. */
export const modelUnavailableError = (modelId: string, reason: string, cause?: unknown): AppError =>
  new AppError('model_unavailable', `embedding model ${modelId} is not available: ${reason}; ${howToGet(modelId)}`, {
    httpStatus: 503,
    cause,
  });

const describe = (f: EmbeddingFingerprint): string => `${f.model_id} (${f.revision}, ${f.dimension}-d)`;

/**
 * A collection/project keeps the model it was built with. Throws EMBEDDING_MISMATCH (saying which model the
 * collection needs and how to get it) unless `actual` is that same model with the same weights.
 */
export const assertSameModel = (
  expected: EmbeddingFingerprint,
  actual: EmbeddingFingerprint,
  what = 'this collection',
): void => {
  if (
    expected.model_id === actual.model_id &&
    expected.revision === actual.revision &&
    expected.dimension === actual.dimension &&
    expected.normalized === actual.normalized
  ) {
    return;
  }
  throw new AppError(
    'EMBEDDING_MISMATCH',
    `${what} was built with embedding model ${describe(expected)}, but the loaded model is ${describe(actual)}. ` +
      `Query it with the same model: set EMBEDDING_MODEL=${expected.model_id} (${howToGet(expected.model_id)}), ` +
      'or rebuild the collection with the new model (explicit migration).',
    { httpStatus: 409 },
  );
};

export const sameModel = (a: EmbeddingFingerprint, b: EmbeddingFingerprint): boolean => {
  try {
    assertSameModel(a, b);
    return true;
  } catch {
    return false;
  }
};
