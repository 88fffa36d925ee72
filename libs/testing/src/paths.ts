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

/** `../shared` beside the repository (override: SHARED_DIR). */
export const sharedDir = (): string => resolve(process.env['SHARED_DIR'] ?? join(repoRoot(), '..', 'shared'));

/** External test documents (override: CORPORA_DIR). Never copied into the repository. */
export const corporaDir = (): string => resolve(process.env['CORPORA_DIR'] ?? join(sharedDir(), 'corpora'));

/** A file under the corpora directory; throws a clear error naming the path when it is absent. */
export const corpusFile = (...parts: string[]): string => {
  const file = join(corporaDir(), ...parts);
  if (!existsSync(file)) throw new Error(`corpus file missing: ${file} (set CORPORA_DIR or place ../shared beside the repo)`);
  return file;
};

/** A model directory in ../shared/models (default: the MiniLM tokenizer/config; also `potion-base-2M`, a real pretrained model). */
export const sharedModelDir = (name = 'all-MiniLM-L6-v2'): string => join(sharedDir(), 'models', name);

/** A short born-digital PDF report from the planning corpus (4 pages of text layer): the specs' usual small document. */
export const smallReportPdf = (): string =>
  corpusFile('uk-planning-policy', 'dataset', 'Coventry', '4. Adopted City Centre Area Action Plan (2011 to 2031)', 'SASEA_Adoption_Statement_Dec_2017.pdf');
