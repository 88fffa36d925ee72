// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ConversionJobOptions, ConversionOptions } from '@lectern/contracts';

/** The operator's limits (from the converter's environment) that a job's options may lower, never raise. */
export type JobOptionLimits = Pick<ConversionOptions, 'maxPages' | 'timeoutMs' | 'enableOcr'>;

/**
 * What in `options` asks for more than `limits` allow, one sentence per option naming the operator's
 * variable; empty when the options only lower limits (or leave them alone). The route refuses such options;
 * the engine clamps whatever reaches it anyway (`effectiveOptions` in `@lectern/conversion`).
 */
export const conversionLimitViolations = (
  options: ConversionJobOptions,
  limits: Partial<JobOptionLimits>,
): string[] => {
  const found: string[] = [];
  if (options.maxPages !== undefined && limits.maxPages !== undefined && options.maxPages > limits.maxPages) {
    found.push(`maxPages ${options.maxPages} is above this server's limit of ${limits.maxPages} pages (MAX_PAGES)`);
  }
  if (options.timeoutMs !== undefined && limits.timeoutMs !== undefined && options.timeoutMs > limits.timeoutMs) {
    found.push(
      `timeoutMs ${options.timeoutMs} is above this server's limit of ${limits.timeoutMs} ms (CONVERSION_TIMEOUT_MS)`,
    );
  }
  if (options.enableOcr === true && limits.enableOcr === false)
    found.push('enableOcr: OCR is disabled on this server (ENABLE_OCR=false)');
  return found;
};
