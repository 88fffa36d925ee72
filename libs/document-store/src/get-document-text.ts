// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type GetDocumentTextInput, type GetDocumentTextOutput } from '@lectern/contracts';
import type { z } from 'zod';
import { reassembleChunks } from '@lectern/chunking';
import type { StoreDeps } from './deps.js';
import { VectorStoreDocumentRegistry } from './registry.js';
import { readDocumentChunks } from './read-chunks.js';

/** Whether a chunk's pages (`page_numbers`, "3,4") meet the asked range; chunks without pages are kept. */
const onPages = (payload: Record<string, unknown>, from: number, to: number): boolean => {
  const pages = String(payload['page_numbers'] ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  return pages.length === 0 || pages.some((p) => p >= from && p <= to);
};

/**
 * Spec 000 FR-003: the registry entry, then every chunk in `chunk_index` order, overlaps removed. Paging for
 * agents: `page_from`/`page_to` keep the chunks on those pages; `offset`/`max_chars` cut a window of the text and
 * the answer says where it is (`offset`, `total_chars`, `remaining_chars`, `next_offset` while text remains).
 * Without any of them the answer is spec 000's, plus the totals.
 */
export const getDocumentText = async (
  deps: StoreDeps,
  input: z.input<typeof GetDocumentTextInput>,
): Promise<z.infer<typeof GetDocumentTextOutput>> => {
  const project = input.project ?? deps.defaultProject;
  const entry = await new VectorStoreDocumentRegistry(deps.store, project).get(input.document_id);
  if (!entry) throw new AppError('document_not_found', `Document not found: ${input.document_id}`, { httpStatus: 404 });
  const all = await readDocumentChunks(deps, project, input.document_id);
  if (all.length === 0) throw new AppError('no_chunks', `No chunks stored for document: ${input.document_id}`);
  const from = input.page_from ?? 1;
  const to = input.page_to ?? Number.MAX_SAFE_INTEGER;
  if (from > to) throw new AppError('invalid_arguments', `page_from (${from}) is after page_to (${to})`);
  const chunks =
    input.page_from === undefined && input.page_to === undefined
      ? all
      : all.filter((c) => onPages(c.payload, from, to));
  const whole = chunks.length === 0 ? '' : reassembleChunks(chunks);
  const offset = Math.min(input.offset ?? 0, whole.length);
  let end = input.max_chars === undefined ? whole.length : Math.min(whole.length, offset + input.max_chars);
  // never split a surrogate pair between two answers
  if (end < whole.length && end - offset > 1 && /[\uD800-\uDBFF]/.test(whole.charAt(end - 1))) end -= 1;
  return {
    status: 'success' as const,
    document_id: input.document_id,
    file_path: entry.file_path,
    document_type: entry.document_type,
    chunk_count: chunks.length,
    text: whole.slice(offset, end),
    total_chars: whole.length,
    offset,
    remaining_chars: whole.length - end,
    ...(end < whole.length ? { next_offset: end } : {}),
  };
};
