// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, type DocReadInput, type DocReadOutput } from '@lectern/contracts';
import type { z } from 'zod';
import type { IndexCache } from './index-cache.js';

type Input = z.infer<typeof DocReadInput>;
type Output = z.input<typeof DocReadOutput>;

/** At most `max` UTF-16 units, never ending inside a surrogate pair. */
const truncate = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
};

/**
 * Spec 003 tool C: the chunk at `locator` (exact match), truncated to max_chars. `h{n}` reads the heading's
 * section: its heading line and its chunks in document order.
 */
export const readChunk = async (cache: IndexCache, input: Input): Promise<Output> => {
  const index = await cache.get(input.index_id);
  const notFound = () =>
    new AppError(
      'locator_not_found',
      `No chunk ${input.locator} in index ${input.index_id}; use a locator from doc_search or the toc.`,
      { httpStatus: 404 },
    );
  let kind: Output['kind'];
  let content: string;
  let meta: Output['meta'];
  if (/^h\d+$/.test(input.locator)) {
    const heading = index.meta.headings.find((h) => h.locator === input.locator);
    const chunks = index.chunks.filter((c) => c.locator.startsWith(`${input.locator}-`));
    if (!heading && chunks.length === 0) throw notFound();
    kind = 'section';
    content = [
      ...(heading ? [`${'#'.repeat(heading.level)} ${heading.title}`] : []),
      ...chunks.map((c) => c.content),
    ].join('\n\n');
    meta = {
      heading_path: heading ? heading.headings.join(' > ') : '',
      original_heading: heading?.title ?? null,
      chunk_index: 0,
      headings: heading?.headings ?? [],
      heading_level: heading?.level ?? 0,
    };
  } else {
    const chunk = index.chunks.find((c) => c.locator === input.locator);
    if (!chunk) throw notFound();
    ({ kind, content, meta } = chunk);
  }
  return {
    locator: input.locator,
    kind,
    content: truncate(content, input.max_chars),
    truncated: content.length > input.max_chars,
    total_chars: content.length,
    meta,
  };
};
