// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { ProjectIdSchema } from './project-id.schema.js';
import { EmbeddingFingerprintSchema } from './tools/inspect-collection.schema.js';

/**
 * How a project's chunks were cut. `heading`: spec 004's heading-aware chunker over the converter's Markdown
 * (token limits counted with the embedder's own tokenizer). `spec000`: spec 000's 800/200-character splitter
 * (ingest_document). `client`: chunks cut by the caller (spec 002's store_document_chunks, spec 004's
 * store_chunks).
 */
export const ChunkingPolicySchema = z.object({
  kind: z.enum(['heading', 'spec000', 'client']),
  /** Most tokens a chunk may have (heading: the embedder's limit or lower). */
  max_tokens: z.number().int().positive().max(8192).optional(),
  /** Tokens repeated from the end of a chunk at the start of the next one inside the same section. */
  overlap_tokens: z.number().int().nonnegative().max(4096).optional(),
  /**
   * Heading context (heading policy): the chunk's section path (`Chapter 5 > Arrays`) is prepended to the text that
   * is embedded — never to the stored or returned text — and counted within `max_tokens`. Absent: off (records and
   * chunks from before this option were embedded without it).
   */
  heading_context: z.boolean().optional(),
});
export type ChunkingPolicy = z.infer<typeof ChunkingPolicySchema>;

/** Physical collection names the store holds for a project: the project id itself, or `<project>__v<N>` after a rebuild. */
export const ProjectCollectionNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/);

/**
 * Spec 004's Project, as its durable record (an internal payload-only collection of the vector store). Every
 * project-scoped call of specs 000, 002 and 004 resolves project -> `collection` through it, so a rebuild can
 * write a new collection and switch.
 */
export const ProjectRecordSchema = z.object({
  project: ProjectIdSchema,
  collection: ProjectCollectionNameSchema,
  fingerprint: EmbeddingFingerprintSchema,
  hybrid: z.boolean(),
  chunking: ChunkingPolicySchema,
  /** The project's CSL-JSON references file (absolute path on the server; never returned by the MCP tools). */
  references_path: z.string().max(4096).nullable(),
  /** Collections this project used before a rebuild, kept until `lectern rebuild --drop-old`. */
  previous_collections: z.array(ProjectCollectionNameSchema).default([]),
  /** `explicit`: `lectern project create`; `implicit`: the first spec 000/002/004 write into an unknown project. */
  origin: z.enum(['explicit', 'implicit']),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProjectRecord = z.infer<typeof ProjectRecordSchema>;
