import { docToolsModule, type DocTools } from '@lectern/doc-tools';
import { createPlatform, platformOptions, type Platform } from '@lectern/platform';
import type { Logger } from '@lectern/runtime';
import type { ExtractionConfig } from './config.js';

export interface ComposedDocTools {
  docTools: DocTools;
  /** Owns the conversion path and embedders; `platform.shutdownSteps()` closes them in order. */
  platform: Platform;
}

/**
 * The document tools from this service's configuration, through `@lectern/platform`: Markdown from the converter
 * at MARKITDOWN_URL when set, else the conversion job (on converter workers when REDIS_URL is set, else here).
 */
export const composeDocTools = (config: ExtractionConfig, log: Logger, platform?: Platform): ComposedDocTools => {
  const p = platform ?? createPlatform(platformOptions(config, log));
  return { platform: p, docTools: docToolsModule(p, config).tools };
};
