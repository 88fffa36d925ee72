// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { connectMcp, listenOnFreePort } from '@lectern/testing';
import { createHttpApp } from './http-app.js';
import { mountMcp } from './mcp-app.js';
import { buildSourceArchive, listSourceFiles } from './source.route.js';

/** The names in a .tar.gz, as GNU tar reads them (a real reader, not this module's writer). */
const tarList = (archive: Buffer): string[] => {
  const dir = mkdtempSync(join(tmpdir(), 'source-archive-'));
  try {
    const file = join(dir, 'a.tar.gz');
    writeFileSync(file, archive);
    const listed = spawnSync('tar', ['-tzf', file], { encoding: 'utf8' });
    if (listed.status !== 0) throw new Error(`tar refused the archive: ${listed.stderr}`);
    return listed.stdout.split('\n').filter(Boolean).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
const tarRead = (archive: Buffer, member: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'source-archive-'));
  try {
    const file = join(dir, 'a.tar.gz');
    writeFileSync(file, archive);
    return spawnSync('tar', ['-xzOf', file, member], { encoding: 'utf8' }).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('the source archive (AGPL-3.0 §13)', () => {
  let root: string;
  const write = (path: string, text = `// ${path}\n`) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const longName = `${'very-long-directory-name-'.repeat(8)}/${'a-file-with-a-long-name-'.repeat(5)}.ts`;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'source-root-'));
    write('package.json', '{"name":"lectern","version":"9.9.9"}');
    write('LICENSE', 'AGPL');
    write('.ci/run', '#!/bin/sh');
    write('apps/x/src/main.ts');
    write(`libs/y/src/${longName}`, 'long path content\n');
    write('libs/y/src/.z.worker.bundle.mjs'); // generated
    write('libs/y/native/build/Release/addon.node'); // build output
    write('node_modules/dep/index.js');
    write('dist/apps/x/src/main.cjs');
    write('apps/console/.ui/index.js'); // built UI
    write('.env', 'MCP_API_KEY=secret');
    write('apps/x/.env.local', 'SECRET=1');
    write('.env.example', 'MCP_API_KEY=');
    write('data/documents.db', 'user data'); // not a source entry of the root
    write('libs/y/src/data-dir/user.db', 'user data'); // the service's DATA_DIR, wherever it is
    write('notes-of-the-operator.txt', 'private');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('holds the source files only: no dependencies, build output, secrets or DATA_DIR', async () => {
    const files = (await listSourceFiles(root, [join(root, 'libs/y/src/data-dir')])).map((f) => f.path);
    expect(files).toEqual(
      ['.ci/run', '.env.example', 'LICENSE', 'apps/x/src/main.ts', `libs/y/src/${longName}`, 'package.json'].sort(),
    );
  });

  it('is a gzipped tar that tar reads, long paths included, each file under <name>-<version>/', async () => {
    const archive = await buildSourceArchive(root, 'lectern-9.9.9', [join(root, 'libs/y/src/data-dir')]);
    expect(tarList(archive)).toEqual(
      ['.ci/run', '.env.example', 'LICENSE', 'apps/x/src/main.ts', `libs/y/src/${longName}`, 'package.json']
        .map((p) => `lectern-9.9.9/${p}`)
        .sort(),
    );
    expect(tarRead(archive, `lectern-9.9.9/libs/y/src/${longName}`)).toBe('long path content\n');
  });
});

describe('GET /source on a service', () => {
  const saved = process.env['LECTERN_SOURCE_URL'];
  afterEach(() => {
    if (saved === undefined) delete process.env['LECTERN_SOURCE_URL'];
    else process.env['LECTERN_SOURCE_URL'] = saved;
  });

  it('serves this checkout’s source without a token and links every answer to it when no URL is set', async () => {
    delete process.env['LECTERN_SOURCE_URL'];
    const app = createHttpApp({ service: 'source-route-test', logger: pino({ level: 'silent' }), apiKey: 'k-123' });
    const base = await listenOnFreePort(app);
    try {
      const refused = await fetch(`${base}/metrics`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('link')).toBe('</source>; rel="source"');
      const [first, second] = await Promise.all([fetch(`${base}/source`), fetch(`${base}/source`)]);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('application/gzip');
      expect(first.headers.get('content-disposition')).toMatch(
        /^attachment; filename="lectern-[\d.]+-source\.tar\.gz"$/,
      );
      const archive = Buffer.from(await first.arrayBuffer());
      // made once per process: the second request got the same bytes
      expect(Buffer.from(await second.arrayBuffer()).equals(archive)).toBe(true);
      const names = tarList(archive);
      const top = names[0]!.split('/')[0]!;
      expect(names).toEqual(
        expect.arrayContaining([
          `${top}/LICENSE`,
          `${top}/package.json`,
          `${top}/libs/transport/src/source.route.ts`,
          `${top}/apps/document-store-mcp/src/main.ts`,
        ]),
      );
      expect(names.filter((n) => /\/(node_modules|dist)\/|\/\.env$/.test(n))).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);

  it.each([
    [
      'unset',
      undefined,
      '</source>; rel="source"',
      /\n\nSource code \(AGPL-3\.0-or-later\): GET \/source on this server/,
    ],
    [
      'set',
      'https://git.example.org/acme/lectern-fork',
      '<https://git.example.org/acme/lectern-fork>; rel="source"',
      /\n\nSource code \(AGPL-3\.0-or-later\): https:\/\/git\.example\.org\/acme\/lectern-fork$/,
    ],
  ])(
    'with LECTERN_SOURCE_URL %s: the Link header and the MCP server’s instructions say where',
    async (_, url, link, note) => {
      if (url) process.env['LECTERN_SOURCE_URL'] = url;
      else delete process.env['LECTERN_SOURCE_URL'];
      const app = createHttpApp({ service: 'source-route-test', logger: pino({ level: 'silent' }), apiKey: 'k-123' });
      mountMcp(app, { name: 'source-mcp', version: '1.0.0', instructions: 'Searches things.', tools: [] });
      const base = await listenOnFreePort(app);
      try {
        expect((await fetch(`${base}/health`)).headers.get('link')).toBe(link);
        const client = await connectMcp(base, 'streamable-http', { token: 'k-123' });
        try {
          expect(client.getInstructions()).toMatch(/^Searches things\./);
          expect(client.getInstructions()).toMatch(note);
        } finally {
          await client.close();
        }
      } finally {
        await app.close();
      }
    },
  );
});
