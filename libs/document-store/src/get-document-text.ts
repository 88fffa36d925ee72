import { AppError, type GetDocumentTextInput, type GetDocumentTextOutput } from '@lectern/contracts';
import type { z } from 'zod';
import { reassembleChunks } from '@lectern/chunking';
import type { StoreDeps } from './deps.js';
import { VectorStoreDocumentRegistry } from './registry.js';
import { readDocumentChunks } from './read-chunks.js';

/** Spec 000 FR-003: the registry entry, then every chunk in `chunk_index` order, overlaps removed. */
export const getDocumentText = async (
  deps: StoreDeps,
  input: z.input<typeof GetDocumentTextInput>,
): Promise<z.infer<typeof GetDocumentTextOutput>> => {
  const project = input.project ?? deps.defaultProject;
  const entry = await new VectorStoreDocumentRegistry(deps.store, project).get(input.document_id);
  if (!entry) throw new AppError('document_not_found', `Document not found: ${input.document_id}`, { httpStatus: 404 });
  const chunks = await readDocumentChunks(deps, project, input.document_id);
  if (chunks.length === 0) throw new AppError('no_chunks', `No chunks stored for document: ${input.document_id}`);
  return {
    status: 'success' as const,
    document_id: input.document_id,
    file_path: entry.file_path,
    document_type: entry.document_type,
    chunk_count: chunks.length,
    text: reassembleChunks(chunks),
  };
};
