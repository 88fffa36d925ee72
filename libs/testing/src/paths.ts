// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the directory holding nx.json), found from this file. */
export const repoRoot = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('repository root (nx.json) not found');
    dir = parent;
  }
  return dir;
};

/**
 * The plain tier (`npm run jest`) must run on a clone without `../shared`: its setup file sets
 * LECTERN_TEST_TIER=plain, and any read of the shared directory from it is a mistake in the test (rename the spec
 * `*.corpus.spec.ts`, or have it generate its data, e.g. with `makeTextPdf`).
 */
const refuseInPlainTier = (what: string): void => {
  if (process.env['LECTERN_TEST_TIER'] === 'plain')
    throw new Error(
      `${what} read from a plain-tier test: name the spec *.corpus.spec.ts (npm run test:corpus) or generate the data it needs`,
    );
};

/** True in the corpus tier (and outside jest): ../shared may be read. */
export const corpusTier = (): boolean => process.env['LECTERN_TEST_TIER'] !== 'plain';

/** `../shared` beside the repository (override: LECTERN_SHARED_DIR; SHARED_DIR is the older name). */
export const sharedDir = (): string => {
  refuseInPlainTier('../shared');
  return resolve(process.env['LECTERN_SHARED_DIR'] ?? process.env['SHARED_DIR'] ?? join(repoRoot(), '..', 'shared'));
};

/** External test documents (override: CORPORA_DIR). Never copied into the repository. */
export const corporaDir = (): string => {
  refuseInPlainTier('../shared/corpora');
  return resolve(process.env['CORPORA_DIR'] ?? join(sharedDir(), 'corpora'));
};

/** A file under the corpora directory; throws a clear error naming the path when it is absent. */
export const corpusFile = (...parts: string[]): string => {
  const file = join(corporaDir(), ...parts);
  if (!existsSync(file))
    throw new Error(
      `corpus file missing: ${file} (set CORPORA_DIR or LECTERN_SHARED_DIR, or place ../shared beside the repo)`,
    );
  return file;
};

/** A model directory in ../shared/models (default: the MiniLM tokenizer/config; also `potion-base-2M`, a real pretrained model). */
export const sharedModelDir = (name = 'all-MiniLM-L6-v2'): string => {
  const dir = join(sharedDir(), 'models', name);
  if (!existsSync(dir))
    throw new Error(`shared model missing: ${dir} (set LECTERN_SHARED_DIR, or place ../shared beside the repo)`);
  return dir;
};

/** A short born-digital PDF report from the planning corpus (4 pages of text layer; corpus tier only). */
export const smallReportPdf = (): string =>
  corpusFile(
    'uk-planning-policy',
    'dataset',
    'Coventry',
    '4. Adopted City Centre Area Action Plan (2011 to 2031)',
    'SASEA_Adoption_Statement_Dec_2017.pdf',
  );
