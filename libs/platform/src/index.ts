export { createPlatform } from './platform.js';
export type {
  ConversionService,
  ConversionServiceOptions,
  EmbedderOptions,
  Platform,
  PlatformOptions,
  PolicyIngestOptions,
  PolicyIngestService,
  PolicyRegistryOptions,
  ShutdownStep,
  TaskStoreOptions,
  VectorStoreOptions,
} from './platform.js';
export { documentStoreDeps, documentStoreReader } from './document-store.js';
export type { DocumentStoreSettings } from './document-store.js';
export { describeDocumentStore, documentStoreEnvShape, documentStoreSettings } from './document-store.env.js';
export type { DocumentStoreEnv } from './document-store.env.js';
export { policyIngestService, policyKbDeps, policyKbReader } from './policy-kb.js';
export { policyKbEnvShape, policyKbSettings } from './policy-kb.env.js';
export type { PolicyKbEnv } from './policy-kb.env.js';
export type { PolicyKbSettings } from './policy-kb.js';
export {
  documentStoreMcpService,
  extractionMcpService,
  mcpTimeouts,
  policyKbMcpService,
  policyKbToolRegistrations,
  sciragMcpService,
} from './mcp-services.js';
export { docToolsDeps } from './doc-tools.js';
export type { DocToolsSettings } from './doc-tools.js';
export { DocToolsEnvSchema, docToolsEnvShape, docToolsSettings } from './doc-tools.env.js';
export type { DocToolsEnv } from './doc-tools.env.js';
export type { McpService, McpTimeouts } from './mcp-services.js';
