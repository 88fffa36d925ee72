// SPDX-License-Identifier: AGPL-3.0-or-later
export { BLOB_DEFAULTS, createPlatform } from './platform.js';
export type {
  BlobSettings,
  ConversionService,
  ConversionServiceOptions,
  EmbedderOptions,
  Platform,
  PlatformOptions,
  PolicyRegistryOptions,
  QueueWorkerOptions,
  ShutdownStep,
  Stage,
  TaskStoreOptions,
  VectorStoreOptions,
} from './platform.js';
export {
  blobEnvShape,
  blobSettings,
  documentInputEnvShape,
  embeddingSettings,
  mcpServiceEnvShape,
  platformOptions,
  storeAndEmbeddingSettings,
  storeEnvShape,
} from './platform.env.js';
export { serviceConversion } from './service-conversion.js';
export type { ServiceConversionSettings } from './service-conversion.js';
export {
  INGEST_DEADLINE_GRACE_MS,
  mcpTimeouts,
  serviceToolDeadlineMs,
  toolDeadlines,
  unboundTools,
} from './mcp-services.js';
export type { McpService, McpTimeouts } from './mcp-services.js';
