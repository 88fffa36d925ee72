// SPDX-License-Identifier: AGPL-3.0-or-later
import { request as httpRequest } from 'node:http';

/** Issue 30's cross-site cases: what a page on another site (or a rebound DNS name) can make a browser send. */
export interface CrossSiteResult {
  case: string;
  status: number;
  body: unknown;
}

export const EVIL_ORIGIN = 'http://evil.example';

/** A raw HTTP request (fetch cannot set Host). */
const send = (
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | string,
): Promise<{ status: number; body: unknown }> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl);
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path: `${url.pathname}${url.search}`, headers },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });

const multipart = (fields: Record<string, string>) => {
  const boundary = '----lectern-cross-site';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const file =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\n` +
    `Content-Type: text/plain\r\n\r\nplanted by another site\r\n`;
  return {
    body: Buffer.from(`${parts.join('')}${file}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
};

/**
 * Send a multipart POST and a JSON POST to a service's real routes, each once with a foreign `Origin` (a page on
 * another site) and once with a foreign `Host` (DNS rebinding), with the service's key when it has one (a key does
 * not make another site's request acceptable: a browser may hold it). Every answer must be 403 before any route
 * runs; the caller checks that nothing was stored.
 */
export const runCrossSite = async (
  baseUrl: string,
  options: {
    multipartPath: string;
    multipartFields?: Record<string, string>;
    jsonPath: string;
    json: unknown;
    token?: string | undefined;
  },
): Promise<CrossSiteResult[]> => {
  const port = new URL(baseUrl).port;
  const auth: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const sites: Array<[string, Record<string, string>]> = [
    ['foreign Origin', { host: `127.0.0.1:${port}`, origin: EVIL_ORIGIN }],
    ['foreign Host', { host: `evil.example:${port}` }],
  ];
  const results: CrossSiteResult[] = [];
  for (const [site, headers] of sites) {
    const form = multipart(options.multipartFields ?? {});
    const up = await send(
      baseUrl,
      'POST',
      options.multipartPath,
      { ...headers, ...auth, 'content-type': form.contentType },
      form.body,
    );
    results.push({ case: `multipart POST ${options.multipartPath}, ${site}`, ...up });
    const json = await send(
      baseUrl,
      'POST',
      options.jsonPath,
      { ...headers, ...auth, 'content-type': 'application/json' },
      JSON.stringify(options.json),
    );
    results.push({ case: `JSON POST ${options.jsonPath}, ${site}`, ...json });
  }
  return results;
};
