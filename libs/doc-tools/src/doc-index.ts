// SPDX-License-Identifier: AGPL-3.0-or-later
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, ChunkKindSchema, DocTypeSchema, LocatorSchema } from '@lectern/contracts';
import { z } from 'zod';
import { inverseDocumentFrequencies, termStats, type TermStats } from './terms.js';

/** Bumped when the chunker or the files change: an older cached index is rebuilt. */
export const INDEX_VERSION = 1;

const ChunkFileSchema = z.object({
  locator: LocatorSchema,
  kind: ChunkKindSchema,
  content: z.string(),
  meta: z.object({
    heading_path: z.string(),
    original_heading: z.string().nullable(),
    chunk_index: z.number().int(),
    headings: z.array(z.string()),
    heading_level: z.number().int(),
  }),
});
export type IndexedChunk = z.infer<typeof ChunkFileSchema>;

const HeadingFileSchema = z.object({
  locator: LocatorSchema,
  title: z.string(),
  level: z.number().int().min(1).max(6),
  headings: z.array(z.string()),
});
export type IndexedHeading = z.infer<typeof HeadingFileSchema>;

/** `index.json`: what doc_index_build returns, and how it was built. */
export const IndexMetaSchema = z.object({
  version: z.number().int(),
  index_id: z.string(),
  doc_fingerprint: z.string(),
  doc_type: DocTypeSchema,
  page_count: z.number().int().nonnegative().nullable(),
  chunk_count: z.number().int().nonnegative(),
  headings: z.array(HeadingFileSchema),
  notes: z.array(z.string()),
  filename: z.string(),
  cache_key: z.string().nullable(),
  built_at: z.string(),
});
export type IndexMeta = z.infer<typeof IndexMetaSchema>;

const ChunksFileSchema = z.array(ChunkFileSchema);
const IdfFileSchema = z.record(z.string(), z.number());
const EmbeddingsFileSchema = z.object({
  model_id: z.string(),
  revision: z.string(),
  vectors: z.array(z.array(z.number())),
});
export type EmbeddingsFile = z.infer<typeof EmbeddingsFileSchema>;

/** An index in memory: its files, and each chunk's term statistics over heading path and content. */
export interface LoadedIndex {
  dir: string;
  meta: IndexMeta;
  chunks: IndexedChunk[];
  idf: Record<string, number>;
  stats: TermStats[];
}

/**
 * What a chunk is searched by: its heading ancestry, then its content. The headings count because a datasheet's
 * tables are often named only by the heading above them ("PV DC Input"); measured in docs/benchmarks/extraction-search.md.
 */
export const searchableText = (chunk: IndexedChunk): string =>
  chunk.meta.heading_path ? `${chunk.meta.heading_path}\n${chunk.content}` : chunk.content;

export const indexDir = (cacheDir: string, indexId: string): string => join(cacheDir, indexId);

const readJson = async <T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

/** The cached `index.json` when it is complete and of this version. */
export const readIndexMeta = async (cacheDir: string, indexId: string): Promise<IndexMeta | undefined> => {
  const meta = await readJson(join(indexDir(cacheDir, indexId), 'index.json'), IndexMetaSchema);
  return meta && meta.version === INDEX_VERSION && meta.index_id === indexId ? meta : undefined;
};

const notFound = (indexId: string) =>
  new AppError('index_not_found', `No index ${indexId}: build it with doc_index_build first.`, { httpStatus: 404 });

export const loadIndex = async (cacheDir: string, indexId: string): Promise<LoadedIndex> => {
  const dir = indexDir(cacheDir, indexId);
  const meta = await readIndexMeta(cacheDir, indexId);
  const chunks = meta ? await readJson(join(dir, 'chunks.json'), ChunksFileSchema) : undefined;
  const idf = chunks ? await readJson(join(dir, 'idf.json'), IdfFileSchema) : undefined;
  if (!meta || !chunks || !idf) throw notFound(indexId);
  return { dir, meta, chunks, idf, stats: chunks.map((c) => termStats(searchableText(c))) };
};

/**
 * Write `index.json`, `chunks.json` and `idf.json` into a fresh directory beside the cache entry, then rename it
 * into place: a reader sees a whole index or none, and a crash mid-write leaves only a `.building-*` directory.
 */
export const writeIndex = async (cacheDir: string, meta: IndexMeta, chunks: IndexedChunk[]): Promise<void> => {
  await mkdir(cacheDir, { recursive: true });
  const temp = join(cacheDir, `.building-${meta.index_id}-${randomBytes(4).toString('hex')}`);
  await mkdir(temp);
  try {
    const idf = inverseDocumentFrequencies(chunks.map((c) => termStats(searchableText(c))));
    await writeFile(join(temp, 'chunks.json'), JSON.stringify(chunks));
    await writeFile(join(temp, 'idf.json'), JSON.stringify(idf));
    await writeFile(join(temp, 'index.json'), JSON.stringify(meta, null, 2));
    const target = indexDir(cacheDir, meta.index_id);
    // rename() onto a non-empty directory fails: the first complete index wins (another build of the same
    // document, e.g. by another replica on this DATA_DIR); an older or damaged one is moved aside, then replaced.
    for (let attempt = 0; ; attempt++) {
      try {
        await rename(temp, target);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || attempt >= 3) throw error;
      }
      if (await readIndexMeta(cacheDir, meta.index_id)) return;
      const aside = join(cacheDir, `.replaced-${meta.index_id}-${randomBytes(4).toString('hex')}`);
      await rename(target, aside).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
      await rm(aside, { recursive: true, force: true });
    }
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
};

export const readEmbeddings = (dir: string): Promise<EmbeddingsFile | undefined> =>
  readJson(join(dir, 'embeddings.json'), EmbeddingsFileSchema);

export const writeEmbeddings = async (dir: string, file: EmbeddingsFile): Promise<void> => {
  const temp = join(dir, `.embeddings-${randomBytes(4).toString('hex')}.json`);
  await writeFile(temp, JSON.stringify(file));
  await rename(temp, join(dir, 'embeddings.json'));
};
