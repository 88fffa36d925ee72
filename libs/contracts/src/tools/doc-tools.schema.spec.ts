// SPDX-License-Identifier: AGPL-3.0-or-later
import { DocIndexBuildInput } from './doc-index-build.schema.js';
import { DocReadInput } from './doc-read.schema.js';
import { DocSearchInput } from './doc-search.schema.js';
import { JsonBounds } from './doc-common.schema.js';
import { JsonValidateAndNormalizeInput } from './json-validate-and-normalize.schema.js';

const indexId = 'a'.repeat(64);

describe('spec 003 doc tool contracts', () => {
  it('has the spec defaults: cache_key null, top_k 5, scope all, max_chars 3000', () => {
    expect(DocIndexBuildInput.parse({ file_path: '/data/x.pdf' })).toEqual({
      file_path: '/data/x.pdf',
      cache_key: null,
    });
    expect(DocSearchInput.parse({ index_id: indexId, query: 'max DC voltage' })).toEqual({
      index_id: indexId,
      query: 'max DC voltage',
      top_k: 5,
      scope: 'all',
    });
    expect(DocReadInput.parse({ index_id: indexId, locator: 'h3-c2' }).max_chars).toBe(3000);
  });

  it.each(['h0', 'h3', 'h3-c2', 'h12-t1'])('accepts the locator %s', (locator) => {
    expect(DocReadInput.safeParse({ index_id: indexId, locator }).success).toBe(true);
  });

  it.each(['', 'h', 'c1', 'h3-x1', 'h3-c', '../h3', 'h3-c2-c3'])('refuses the locator %j', (locator) => {
    expect(DocReadInput.safeParse({ index_id: indexId, locator }).success).toBe(false);
  });

  it('refuses an index_id that is not a SHA-256, a raised max_chars or top_k, an unknown scope', () => {
    expect(DocSearchInput.safeParse({ index_id: '../etc', query: 'q' }).success).toBe(false);
    expect(DocSearchInput.safeParse({ index_id: indexId.toUpperCase(), query: 'q' }).success).toBe(false);
    expect(DocSearchInput.safeParse({ index_id: indexId, query: 'q', top_k: 51 }).success).toBe(false);
    expect(DocSearchInput.safeParse({ index_id: indexId, query: 'q', scope: 'images' }).success).toBe(false);
    expect(DocReadInput.safeParse({ index_id: indexId, locator: 'h1', max_chars: 20_001 }).success).toBe(false);
  });

  it('bounds the JSON it validates: size and depth', () => {
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let i = 0; i < JsonBounds.maxDepth + 2; i++) node = (node['k'] = {}) as Record<string, unknown>;
    expect(JsonValidateAndNormalizeInput.safeParse({ data: deep, schema: {} }).success).toBe(false);
    const big = { v: 'x'.repeat(JsonBounds.maxChars) };
    expect(JsonValidateAndNormalizeInput.safeParse({ data: {}, schema: big }).success).toBe(false);
    expect(JsonValidateAndNormalizeInput.safeParse({ data: { a: 1 }, schema: { a: null } }).success).toBe(true);
  });
});
