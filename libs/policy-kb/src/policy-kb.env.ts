// SPDX-License-Identifier: AGPL-3.0-or-later
import { ProjectIdSchema } from '@lectern/contracts';
import { serviceIngestSettings } from '@lectern/document-store';
import { documentInputEnvShape, mcpServiceEnvShape, storeEnvShape } from '@lectern/platform';
import { commonEnvShape, envInt } from '@lectern/runtime';
import { z } from 'zod';
import type { PolicyKbSettings } from './policy-kb.module.js';

/**
 * The policy KB's variables (spec 001's names and defaults, plus the platform's), shared by policy-kb-mcp and
 * the CLI (`lectern mcp policies`, `lectern policy ...`); the embedding and store variables are the document
 * store's, so both services read one store with one model.
 */
export const policyKbEnvShape = {
  POLICY_KB_PROJECT: z.preprocess((v) => (v === '' ? undefined : v), ProjectIdSchema.default('policy_docs')),
  /** DOCUMENT_ROOTS: the allowed roots of `ingest_policy_revision`'s file paths; default: the data directory. */
  ...documentInputEnvShape,
  INGEST_TIMEOUT_S: envInt(1800, 1, 86_400),
  ...mcpServiceEnvShape,
  /** REDIS_URL: Redis policy registry (spec 001 key schema) and BullMQ queues when set; SQLite and in-process otherwise. */
  ...storeEnvShape,
};

export const PolicyKbEnvSchema = z.object({
  ...policyKbEnvShape,
  PDF_ENGINE: commonEnvShape.PDF_ENGINE,
  OCR_ENGINE: commonEnvShape.OCR_ENGINE,
});
export type PolicyKbEnv = z.infer<typeof PolicyKbEnvSchema>;

/** The policy KB's settings from those variables. */
export const policyKbSettings = (env: PolicyKbEnv): PolicyKbSettings => ({
  ...serviceIngestSettings(env),
  project: env.POLICY_KB_PROJECT,
});
