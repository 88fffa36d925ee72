import type { ConversionJobOptions, ConversionOptions } from '@lectern/contracts';

/** The operator's limits (from the converter's environment) that a job's options may lower, never raise. */
export type ConversionLimits = Pick<ConversionOptions, 'maxPages' | 'timeoutMs' | 'enableOcr'>;

/**
 * What in `options` asks for more than `limits` allow, one sentence per option naming the operator's
 * variable; empty when the options only lower limits (or leave them alone).
 */
export const conversionLimitViolations = (options: ConversionJobOptions, limits: Partial<ConversionLimits>): string[] => {
  const found: string[] = [];
  if (options.maxPages !== undefined && limits.maxPages !== undefined && options.maxPages > limits.maxPages) {
    found.push(`maxPages ${options.maxPages} is above this server's limit of ${limits.maxPages} pages (MAX_PAGES)`);
  }
  if (options.timeoutMs !== undefined && limits.timeoutMs !== undefined && options.timeoutMs > limits.timeoutMs) {
    found.push(`timeoutMs ${options.timeoutMs} is above this server's limit of ${limits.timeoutMs} ms (CONVERSION_TIMEOUT_MS)`);
  }
  if (options.enableOcr === true && limits.enableOcr === false) found.push('enableOcr: OCR is disabled on this server (ENABLE_OCR=false)');
  return found;
};

/**
 * The options a conversion runs with: the worker's defaults, overridden by the job's options, with the limits
 * clamped to the defaults (a job from any producer, or an older one, cannot raise them either).
 */
export const applyJobOptions = <D extends Partial<ConversionOptions>>(defaults: D, options: ConversionJobOptions): D & ConversionJobOptions => {
  const merged: D & ConversionJobOptions = { ...defaults, ...options };
  const lower = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));
  const maxPages = lower(defaults.maxPages, options.maxPages);
  const timeoutMs = lower(defaults.timeoutMs, options.timeoutMs);
  if (maxPages !== undefined) merged.maxPages = maxPages;
  if (timeoutMs !== undefined) merged.timeoutMs = timeoutMs;
  if (defaults.enableOcr === false) merged.enableOcr = false;
  return merged;
};
