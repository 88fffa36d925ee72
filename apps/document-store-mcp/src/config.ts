import { commonEnvShape, envEnum, envPort, mcpOriginEnvShape, parseEnv } from '@lectern/runtime';
import { documentStoreEnvShape } from '@lectern/platform';
import { z } from 'zod';

/** Environment of document-store-mcp: the document store's variables (shared with `lectern mcp documents`) and HTTP's. */
export const DocumentStoreEnvSchema = z.object({
  ...commonEnvShape,
  DOCUMENT_STORE_PORT: envPort(3002),
  MCP_HTTP_SESSIONS: envEnum(['stateless', 'stateful'] as const, 'stateless'),
  ...mcpOriginEnvShape,
  ...documentStoreEnvShape,
});

export type DocumentStoreConfig = z.infer<typeof DocumentStoreEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): DocumentStoreConfig =>
  parseEnv(DocumentStoreEnvSchema, env);
