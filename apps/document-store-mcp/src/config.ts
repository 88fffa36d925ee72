// SPDX-License-Identifier: AGPL-3.0-or-later
import { documentStoreEnvShape } from '@lectern/document-store';
import { commonEnvShape, envEnum, envPort, mcpOriginEnvShape, parseEnv } from '@lectern/runtime';
import { z } from 'zod';

/** Environment of document-store-mcp: the document store's variables (shared with `lectern mcp documents`) and HTTP's. */
export const DocumentStoreEnvSchema = z.object({
  ...commonEnvShape,
  DOCUMENT_STORE_PORT: envPort(3002),
  /**
   * Spec 002's clients expect its three tools at `http://host:8001/sse`: set (8001 there), a second listener serves
   * only those tools, over SSE and Streamable HTTP, with the same auth and guards. Unset (default): no listener.
   */
  SCIRAG_PORT: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(0).max(65_535).optional(),
  ),
  MCP_HTTP_SESSIONS: envEnum(['stateless', 'stateful'] as const, 'stateless'),
  ...mcpOriginEnvShape,
  ...documentStoreEnvShape,
});

export type DocumentStoreConfig = z.infer<typeof DocumentStoreEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): DocumentStoreConfig =>
  parseEnv(DocumentStoreEnvSchema, env);
