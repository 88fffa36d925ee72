// SPDX-License-Identifier: AGPL-3.0-or-later
import { runCrossSite } from '@lectern/testing';
import { startConverter, type TestConverter } from './converter.testkit.js';

const KEY = 'converter-cross-site-key-0123';

/** Issue 30: the converter's REST refuses another site's requests, with and without a key. */
describe.each([
  ['without a key', undefined],
  ['with a key', KEY],
] as const)('converter REST from another site, %s', (_label, key) => {
  let converter: TestConverter;
  beforeAll(async () => {
    converter = await startConverter(key ? { MCP_API_KEY: key } : {});
  });
  afterAll(async () => converter?.close());

  it('refuses a multipart conversion and a JSON task (403) and converts nothing', async () => {
    const results = await runCrossSite(converter.baseUrl, {
      multipartPath: '/convert',
      jsonPath: '/tasks',
      json: { source: 'http://evil.example/a.pdf' },
      token: key,
    });
    expect(results).toHaveLength(4);
    for (const r of results)
      expect({ case: r.case, status: r.status, body: r.body }).toEqual({
        case: r.case,
        status: 403,
        body: { error: { code: 'forbidden', message: expect.stringMatching(/^Forbidden: (Origin|Host) header/) } },
      });
    expect(converter.conversions()).toBe(0);
  });
});
