export { createPlatform } from './platform.js';
export type {
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
