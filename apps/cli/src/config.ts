// SPDX-License-Identifier: AGPL-3.0-or-later
import { commonEnvShape, envBool, envInt, envString, envUrl, parseEnv } from '@lectern/runtime';
import { ProjectIdSchema } from '@lectern/contracts';
import { z } from 'zod';

/** Environment of the `lectern` command line (the same embedding variables as the servers). */
export const CliEnvSchema = z.object({
  DATA_DIR: commonEnvShape.DATA_DIR,
  LOG_LEVEL: commonEnvShape.LOG_LEVEL,
  /** The PDF engine of `lectern convert` (as the converter's): native when built, else mupdf's WASM build. */
  PDF_ENGINE: commonEnvShape.PDF_ENGINE,
  OCR_ENGINE: commonEnvShape.OCR_ENGINE,
  /** A model id or `auto` (MiniLM when its verified files are present, else potion-base-2M when present, else the bundled model). */
  EMBEDDING_MODEL: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('auto')),
  /** Directory holding a model's files, looked in before `DATA_DIR/models/<model>`. */
  EMBEDDING_MODEL_DIR: envString(),
  EMBEDDING_QUANTIZED: envBool(false),
  /** ONNX intra-op threads; 0 = the machine's cores. */
  EMBEDDING_THREADS: envInt(0, 0, 256),
  /** `auto` with no model present: fetch potion-base-2M at the first embedding (as the servers do). */
  EMBEDDING_AUTO_FETCH: envBool(true),
  /** The model hub's base URL for that fetch (default https://huggingface.co). */
  HF_ENDPOINT: envUrl(),
  /** Where `lectern models pull` downloads from (default: the Hugging Face hub). */
  MODEL_DOWNLOAD_URL: envString(),
  /** The document store the `docstore` commands work on (the same variables as document-store-mcp). */
  DOCUMENT_STORE_PROJECT: z.preprocess((v) => (v === '' ? undefined : v), ProjectIdSchema.default('application_docs')),
  CHROMA_PERSIST_DIR: envString(),
  QDRANT_URL: envUrl(),
  QDRANT_API_KEY: envString(),
  /** extraction-api, for `lectern extract` (`--url` wins). */
  EXTRACTION_API_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().default('http://localhost:8000')),
  EXTRACTION_API_KEY: envString(),
  MCP_API_KEY: envString(),
});
export type CliConfig = z.infer<typeof CliEnvSchema>;

export const loadConfig = (env: Record<string, string | undefined>): CliConfig => parseEnv(CliEnvSchema, env);
