// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  DocIndexBuildOutput,
  DocReadOutput,
  DocSearchHitSchema,
  JsonValidateAndNormalizeOutput,
} from '@lectern/contracts';
import { z } from 'zod';
import type { DocToolName, DocToolsClient } from './doc-tools-client.js';

export type IndexInfo = z.infer<typeof DocIndexBuildOutput>;
export type SearchHit = z.infer<typeof DocSearchHitSchema>;
export type ReadChunk = z.infer<typeof DocReadOutput>;
export type Validation = z.infer<typeof JsonValidateAndNormalizeOutput>;

/** doc_read's largest page (its contract's `max_chars` bound). */
export const DOC_READ_MAX_CHARS = 20_000;

/** A tool's error, as the tool reported it (`error_type`, `message`). */
export class DocToolError extends AppError {}

/** The text block of doc_search is its hit list (`textShape: 'result'`); structured content wraps it in `result`. */
const HitsSchema = z.preprocess(
  (v) => (Array.isArray(v) ? v : (v as { result?: unknown } | null)?.result),
  z.array(DocSearchHitSchema),
);

const callParsed = async <T>(
  tools: DocToolsClient,
  name: DocToolName,
  args: Record<string, unknown>,
  schema: z.ZodType<T>,
  signal?: AbortSignal,
): Promise<T> => {
  const answer = await tools.call(name, args, signal);
  if (answer.isError) {
    const error = (answer.json ?? {}) as { error_type?: string; message?: string };
    throw new DocToolError(error.error_type ?? 'doc_tool_error', `${name}: ${error.message ?? answer.text}`, {
      httpStatus: 422,
    });
  }
  const parsed = schema.safeParse(answer.json);
  if (!parsed.success)
    throw new DocToolError('doc_tool_bad_answer', `${name} answered with an unexpected shape.`, { httpStatus: 502 });
  return parsed.data;
};

export const docIndexBuild = (tools: DocToolsClient, filePath: string, signal?: AbortSignal) =>
  callParsed(tools, 'doc_index_build', { file_path: filePath }, DocIndexBuildOutput, signal);

export const docSearch = (
  tools: DocToolsClient,
  args: { index_id: string; query: string; top_k?: number; scope?: 'text' | 'tables' | 'all' },
  signal?: AbortSignal,
) => callParsed(tools, 'doc_search', args, HitsSchema, signal);

export const docRead = (
  tools: DocToolsClient,
  args: { index_id: string; locator: string; max_chars?: number },
  signal?: AbortSignal,
) => callParsed(tools, 'doc_read', args, DocReadOutput, signal);

export const docValidate = (
  tools: DocToolsClient,
  data: Record<string, unknown>,
  schema: Record<string, unknown>,
  signal?: AbortSignal,
) => callParsed(tools, 'json_validate_and_normalize', { data, schema }, JsonValidateAndNormalizeOutput, signal);

/** Locators of a `doc_search` answer's JSON (for the agent's search-before-read guard). */
export const hitLocators = (json: unknown): string[] => {
  const parsed = HitsSchema.safeParse(json);
  return parsed.success ? parsed.data.map((h) => h.locator) : [];
};

/** A `doc_read` answer's chunk when it holds the whole chunk (not truncated); else undefined. */
export const wholeChunk = (json: unknown): { locator: string; content: string } | undefined => {
  const parsed = DocReadOutput.safeParse(json);
  return parsed.success && !parsed.data.truncated
    ? { locator: parsed.data.locator, content: parsed.data.content }
    : undefined;
};

/** Reads the chunk at a locator; undefined when there is none (or it cannot be read). */
export type ChunkReader = (locator: string) => Promise<string | undefined>;

/**
 * The chunks one task has read, per index: each locator is read through `doc_read` at most once, whoever asks
 * (the offline extractor, then the evidence check of its values), and a whole chunk the agent already read
 * (`remember`) is not read again.
 */
export interface ChunkCache {
  /** The reader of one index's chunks (whole chunks: tables are never split, up to doc_read's largest page). */
  reader(indexId: string): ChunkReader;
  /** A chunk's whole content, read already (a `doc_read` answer that was not truncated). */
  remember(indexId: string, locator: string, content: string): void;
}

export const chunkCache = (tools: DocToolsClient, signal?: AbortSignal): ChunkCache => {
  const cache = new Map<string, Promise<string | undefined>>();
  // index ids are hex and locators h{n}(-[ct]{m}): a space cannot occur in either
  const key = (indexId: string, locator: string) => `${indexId} ${locator}`;
  return {
    reader: (indexId) => (locator) => {
      const k = key(indexId, locator);
      if (!cache.has(k)) {
        cache.set(
          k,
          docRead(tools, { index_id: indexId, locator, max_chars: DOC_READ_MAX_CHARS }, signal).then(
            (chunk) => chunk.content,
            () => undefined,
          ),
        );
      }
      return cache.get(k)!;
    },
    remember: (indexId, locator, content) => {
      if (!cache.has(key(indexId, locator))) cache.set(key(indexId, locator), Promise.resolve(content));
    },
  };
};

/** A `doc_read` reader of one index that reads each locator once. */
export const chunkReader = (tools: DocToolsClient, indexId: string, signal?: AbortSignal): ChunkReader =>
  chunkCache(tools, signal).reader(indexId);
