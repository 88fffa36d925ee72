export { createPlatform } from './platform.js';
export type {
  ConversionService,
  ConversionServiceOptions,
  EmbedderOptions,
  Platform,
  PlatformOptions,
  PolicyRegistryOptions,
  ShutdownStep,
  TaskStoreOptions,
  VectorStoreOptions,
} from './platform.js';
export { documentStoreDeps, documentStoreReader } from './document-store.js';
export type { DocumentStoreSettings } from './document-store.js';
export { describeDocumentStore, documentStoreEnvShape, documentStoreSettings } from './document-store.env.js';
export type { DocumentStoreEnv } from './document-store.env.js';
export { documentStoreMcpService, policyKbMcpService, policyKbToolRegistrations } from './mcp-services.js';
export type { McpService } from './mcp-services.js';
