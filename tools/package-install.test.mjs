// SPDX-License-Identifier: AGPL-3.0-or-later
// The packed tarball, installed as a user installs it (issue 27): `npm pack` (its `prepack` builds dist/ and the
// shrinkwrap), `npm install -g <tarball> --prefix <tmp>` run in an empty directory, then the installed `lectern`
// with no repository beside it: `lectern mcp documents` over stdio answers `tools/list` to the MCP SDK's client,
// `lectern convert <pdf>` writes Markdown, `lectern start` brings every service to a healthy /health.
//
// Slow, so in neither jest tier: `npm run test:package` (node's test runner). The install resolves from the npm cache
// where it can (`--prefer-offline`, with the package's shrinkwrap pinning the repository's dependency tree).
// better-sqlite3's install downloads a prebuilt binary from outside the npm registry, which these machines cannot
// reach, and else compiles SQLite for minutes: the test serves it the binary this checkout already has, from a
// loopback server (prebuild-install's `npm_config_better_sqlite3_binary_host`), as a mirror would. The native mupdf
// addon is not built (LECTERN_SKIP_NATIVE_BUILD=1): conversion uses mupdf's WASM build.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/* global fetch, AbortSignal */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);
/**
 * Where the install goes: a RAM file system when there is one with room (/dev/shm with 2 GiB free), else the temp
 * directory. Writing the ~650 MiB install and removing it again took 71 s and 51 s on this machine's disk (load ~22):
 * the removal alone was a third of the test's time. LECTERN_PACKAGE_TMP chooses another directory.
 */
const scratch = () => {
  if (process.env.LECTERN_PACKAGE_TMP) return process.env.LECTERN_PACKAGE_TMP;
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize >= 2 * 1024 ** 3) return '/dev/shm';
  } catch {
    // no /dev/shm
  }
  return tmpdir();
};
const work = mkdtempSync(join(scratch(), 'lectern-package-'));
const prefix = join(work, 'prefix');
const empty = join(work, 'empty');
const lectern = join(prefix, 'bin', 'lectern');
const env = {
  ...process.env,
  ONNXRUNTIME_NODE_INSTALL: 'skip',
  LECTERN_SKIP_NATIVE_BUILD: '1',
  DATA_DIR: join(work, 'data'),
  LOG_LEVEL: 'warn',
  MCP_API_KEY: '',
};

/** A one-page PDF with a line of text (Helvetica), its cross-reference table computed. */
const onePagePdf = (text) => {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return pdf;
};

const freePort = () =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

/**
 * A loopback mirror of better-sqlite3's prebuilt binaries holding this machine's (`{host}/v{version}/<name>.tar.gz`,
 * prebuild-install's layout), so the install does not compile it. Answers its URL and a close function.
 */
const binaryMirror = async () => {
  const pkgDir = join(root, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const tarball = join(work, name);
  await run('tar', ['czf', tarball, '-C', pkgDir, 'build/Release/better_sqlite3.node']);
  const server = createHttpServer((request, response) => {
    if (request.url !== `/v${version}/${name}`) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(tarball));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
};

/** Wall time of each phase of the setup (ms), reported by the first test: where the test's time goes. */
const phases = {};
const timed = async (name, work) => {
  const started = Date.now();
  try {
    return await work();
  } finally {
    phases[name] = Date.now() - started;
  }
};

before(async () => {
  mkdirSync(prefix, { recursive: true });
  mkdirSync(empty, { recursive: true });
  const mirror = await binaryMirror();
  await timed('pack', () => run('npm', ['pack', '--pack-destination', work], { cwd: root, env, maxBuffer: 64 << 20 }));
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack wrote no tarball');
  await timed('install', () =>
    run(
      'npm',
      ['install', '-g', join(work, tarball), '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: empty, env: { ...env, npm_config_better_sqlite3_binary_host: mirror.url }, maxBuffer: 64 << 20 },
    ),
  ).finally(() => mirror.close());
});

after(() => {
  const started = Date.now();
  rmSync(work, { recursive: true, force: true });
  process.stderr.write(`package test: cleanup of ${work} ${Date.now() - started} ms\n`);
});

test('the installed package holds the build, not the sources', async (t) => {
  const installed = join(prefix, 'lib', 'node_modules', 'lectern');
  assert.ok(existsSync(join(installed, 'dist', 'apps', 'converter', 'src', 'main.cjs')));
  assert.ok(existsSync(join(installed, 'dist', 'apps', 'cli', 'programs', 'mcp.cjs')));
  assert.equal(existsSync(join(installed, 'libs', 'runtime')), false);
  assert.equal(existsSync(join(installed, 'tsconfig.json')), false);
  // ... and the source of that build, which the services serve at GET /source (AGPL-3.0 §13)
  const { stdout: listed } = await run('tar', ['-tzf', join(installed, 'dist', 'source.tar.gz')], {
    maxBuffer: 64 << 20,
  });
  assert.match(listed, /^lectern-[^/]+\/libs\/transport\/src\/source\.route\.ts$/m);
  // development dependencies stay out (typescript does not: @qdrant/js-client-rest declares it a peer dependency)
  for (const dev of ['jest', 'eslint', 'prettier', 'puppeteer-core'])
    assert.equal(
      existsSync(join(installed, 'node_modules', dev)),
      false,
      `${dev}, a development dependency, was installed`,
    );
  t.diagnostic(`setup: npm pack ${phases.pack} ms, npm install -g ${phases.install} ms`);
  // the production dependency tree's size, for docs/benchmarks/startup.md ("Image contents")
  const duStarted = Date.now();
  const du = async (path) => (await run('du', ['-sm', path])).stdout.split('\t')[0];
  const ort = join(installed, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6');
  t.diagnostic(
    `installed: ${await du(installed)} MiB; node_modules ${await du(join(installed, 'node_modules'))} MiB, of which onnxruntime-node binaries ${await du(ort)} MiB (linux/x64 ${await du(join(ort, 'linux', 'x64'))} MiB); dist ${await du(join(installed, 'dist'))} MiB`,
  );
  t.diagnostic(`sizes measured in ${Date.now() - duStarted} ms`);
});

test("lectern --version answers the one version, package.json's", async () => {
  const { stdout } = await run(lectern, ['--version'], { cwd: empty, env });
  assert.equal(stdout.trim(), JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
});

test('lectern convert <pdf> writes its Markdown', async () => {
  writeFileSync(join(empty, 'hello.pdf'), onePagePdf('Installed from the tarball'));
  await run(lectern, ['convert', 'hello.pdf', '-o', 'hello.md'], { cwd: empty, env });
  assert.match(readFileSync(join(empty, 'hello.md'), 'utf8'), /Installed from the tarball/);
});

test('lectern mcp documents answers tools/list over stdio', async () => {
  const client = new Client({ name: 'package-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: lectern, args: ['mcp', 'documents'], cwd: empty, env, stderr: 'ignore' }),
  );
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('ingest_document'), `tools: ${names.join(', ')}`);
    assert.ok(names.includes('search_application_docs'), `tools: ${names.join(', ')}`);
  } finally {
    await client.close();
  }
});

test('lectern start brings every service up, healthy, and stops them on SIGTERM', async () => {
  const ports = {
    CONVERTER_PORT: await freePort(),
    DOCUMENT_STORE_PORT: await freePort(),
    POLICY_KB_PORT: await freePort(),
    EXTRACTION_API_PORT: await freePort(),
  };
  const child = spawn(lectern, ['start'], {
    cwd: empty,
    env: { ...env, HOST: '127.0.0.1', ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) },
    stdio: 'ignore',
  });
  const exited = new Promise((done) => child.once('exit', (code) => done(code)));
  const healthy = async (port) => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) })).ok;
    } catch {
      return false;
    }
  };
  try {
    const deadline = Date.now() + 120_000;
    let up = false;
    while (!up && Date.now() < deadline) {
      up = (await Promise.all(Object.values(ports).map(healthy))).every(Boolean);
      if (!up) await sleep(250);
    }
    assert.ok(up, 'the services were not all healthy within 120 s');
    // AGPL-3.0 §13: an installed service offers its source (the build's dist/source.tar.gz), linked from every answer
    const source = await fetch(`http://127.0.0.1:${ports.CONVERTER_PORT}/source`);
    assert.equal(source.status, 200);
    assert.equal(source.headers.get('content-type'), 'application/gzip');
    assert.equal(source.headers.get('link'), '</source>; rel="source"');
    assert.ok((await source.arrayBuffer()).byteLength > 100_000);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exited, 0);
  for (const port of Object.values(ports)) assert.equal(await healthy(port), false);
});
