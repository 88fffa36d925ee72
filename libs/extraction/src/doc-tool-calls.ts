import { AppError } from '@lectern/contracts';
import { z } from 'zod';
import type { DocToolName, DocToolsClient } from './doc-tools-client.js';

const IndexSchema = z.object({ index_id: z.string(), chunk_count: z.number().optional(), toc: z.array(z.object({ locator: z.string(), title: z.string() }).loose()).optional() }).loose();
const HitSchema = z.object({ locator: z.string(), kind: z.string(), snippet: z.string(), score: z.number() }).loose();
const ReadSchema = z.object({ locator: z.string(), kind: z.string(), content: z.string(), meta: z.record(z.string(), z.unknown()).optional() }).loose();
const ValidateSchema = z.object({ ok: z.boolean(), errors: z.array(z.unknown()), warnings: z.array(z.string()), normalized: z.record(z.string(), z.unknown()) }).loose();

export type IndexInfo = z.infer<typeof IndexSchema>;
export type SearchHit = z.infer<typeof HitSchema>;
export type ReadChunk = z.infer<typeof ReadSchema>;
export type Validation = z.infer<typeof ValidateSchema>;

/** A tool's error, as the tool reported it (`error_type`, `message`). */
export class DocToolError extends AppError {}

const callParsed = async <T>(tools: DocToolsClient, name: DocToolName, args: Record<string, unknown>, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> => {
  const answer = await tools.call(name, args, signal);
  if (answer.isError) {
    const error = (answer.json ?? {}) as { error_type?: string; message?: string };
    throw new DocToolError(error.error_type ?? 'doc_tool_error', `${name}: ${error.message ?? answer.text}`, { httpStatus: 422 });
  }
  const parsed = schema.safeParse(answer.json);
  if (!parsed.success) throw new DocToolError('doc_tool_bad_answer', `${name} answered with an unexpected shape.`, { httpStatus: 502 });
  return parsed.data;
};

/** `doc_search` answers a list (spec 003); accept it bare or wrapped in `{results: [...]}`. */
const hitsOf = z.preprocess((v) => (Array.isArray(v) ? v : (v as { results?: unknown } | null)?.results), z.array(HitSchema));

export const docIndexBuild = (tools: DocToolsClient, filePath: string, signal?: AbortSignal) => callParsed(tools, 'doc_index_build', { file_path: filePath }, IndexSchema, signal);

export const docSearch = (tools: DocToolsClient, args: { index_id: string; query: string; top_k?: number; scope?: 'text' | 'tables' | 'all' }, signal?: AbortSignal) =>
  callParsed(tools, 'doc_search', args, hitsOf, signal);

export const docRead = (tools: DocToolsClient, args: { index_id: string; locator: string; max_chars?: number }, signal?: AbortSignal) => callParsed(tools, 'doc_read', args, ReadSchema, signal);

export const docValidate = (tools: DocToolsClient, data: Record<string, unknown>, schema: Record<string, unknown>, signal?: AbortSignal) =>
  callParsed(tools, 'json_validate_and_normalize', { data, schema }, ValidateSchema, signal);

/** Hits of a `doc_search` answer's JSON (for the agent's search-before-read guard). */
export const hitLocators = (json: unknown): string[] => {
  const parsed = hitsOf.safeParse(json);
  return parsed.success ? parsed.data.map((h) => h.locator) : [];
};
