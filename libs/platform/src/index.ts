export { createPlatform } from './platform.js';
export type {
  ConversionService,
  ConversionServiceOptions,
  EmbedderOptions,
  Platform,
  PlatformOptions,
  PolicyRegistryOptions,
  ShutdownStep,
  VectorStoreOptions,
} from './platform.js';
export { documentStoreDeps, documentStoreReader } from './document-store.js';
export type { DocumentStoreSettings } from './document-store.js';
