// SPDX-License-Identifier: AGPL-3.0-or-later
import { z } from 'zod';
import { documentStoreTools, extractionDocTools, policyKbTools } from '../catalog.js';
import { StoreChunkSchema } from './store-document-chunks.schema.js';
import { InputBounds } from './input-bounds.schema.js';

type Json = Record<string, unknown>;

/** Every string without `maxLength` and every array without `maxItems` in a JSON Schema, by path. */
const unbounded = (schema: unknown, path: string): string[] => {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Json;
  const found: string[] = [];
  if (
    node['type'] === 'string' &&
    node['maxLength'] === undefined &&
    node['enum'] === undefined &&
    node['const'] === undefined
  ) {
    found.push(path);
  }
  if (node['type'] === 'array' && node['maxItems'] === undefined) found.push(path);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value as Json)) found.push(...unbounded(sub, `${path}.${name}`));
    } else if (['items', 'additionalProperties', 'propertyNames'].includes(key)) {
      found.push(...unbounded(value, `${path}[${key}]`));
    } else if (['anyOf', 'oneOf', 'allOf'].includes(key) && Array.isArray(value)) {
      value.forEach((sub) => found.push(...unbounded(sub, path)));
    }
  }
  return found;
};

describe('tool input contracts: every string and array argument is bounded', () => {
  const tools = [...documentStoreTools, ...policyKbTools, ...extractionDocTools];

  it.each(tools.map((t) => [t.name, t] as const))('%s', (name, tool) => {
    const json = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' });
    expect(unbounded(json, name)).toEqual([]);
  });

  it('bounds the chunks store_document_chunks checks itself (text, file name, metadata)', () => {
    const ok = { text: 'x'.repeat(InputBounds.chunkTextChars), source_filename: 'a.pdf', chunk_index: 0 };
    expect(StoreChunkSchema.safeParse(ok).success).toBe(true);
    expect(StoreChunkSchema.safeParse({ ...ok, text: `${ok.text}x` }).success).toBe(false);
    expect(
      StoreChunkSchema.safeParse({ ...ok, metadata: { note: 'y'.repeat(InputBounds.chunkTextChars) } }).success,
    ).toBe(false);
  });

  it('refuses a 5 MB query with a short message naming the field', () => {
    const tool = tools.find((t) => t.name === 'search_application_docs');
    const parsed = tool?.input.safeParse({ query: 'q'.repeat(5 * 1024 * 1024) });
    expect(parsed?.success).toBe(false);
    expect(parsed?.error?.issues.map((i) => i.path.join('.'))).toEqual(['query']);
  });
});
