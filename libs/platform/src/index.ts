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
  platformOptions,
  storeAndEmbeddingSettings,
  storeEnvShape,
} from './platform.env.js';
export { serviceConversion } from './service-conversion.js';
export type { ServiceConversionSettings } from './service-conversion.js';
export { unboundTools } from './mcp-services.js';
export type { McpService } from './mcp-services.js';
