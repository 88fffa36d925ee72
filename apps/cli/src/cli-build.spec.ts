// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { barsImage, makeNumberedPdf, makePdf, repoRoot } from '@lectern/testing';
import { runCli } from './cli.js';
import { COMMAND_MODULES, modulesFor } from './command-modules.cjs';
import { lectern } from './lectern-binary.testkit.js';

// The compiled command line (apps/cli/bin/cli-build.mjs, run by lectern.cjs): one program per command, rebuilt
// when a source changes, run with V8's code cache; the TypeScript sources through tsx when it cannot be had.
const bundleDir = join(repoRoot(), 'apps', 'cli', '.bundle');
type Pointer = { dir: string; builtMs: number; inputs: string[] };
const pointer = (program: string): Pointer =>
  JSON.parse(readFileSync(join(bundleDir, `${program}.json`), 'utf8')) as Pointer;
const programFile = (program: string): string => join(bundleDir, pointer(program).dir, 'main.cjs');
const env = { LOG_LEVEL: 'silent' };

describe('the compiled lectern command line', () => {
  let dir: string;
  let pdf: string;
  let inProcess: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lectern-cli-build-'));
    pdf = join(dir, 'minutes.pdf');
    await writeFile(pdf, makeNumberedPdf(3));
    let out = '';
    expect(await runCli(['convert', pdf], { env, stdout: (s) => (out += s), stderr: () => undefined })).toBe(0);
    inProcess = out;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("converts through the convert program, which holds none of the other commands' packages", async () => {
    const run = await lectern(['convert', pdf], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(inProcess);
    const program = readFileSync(programFile('convert'), 'utf8');
    expect(program).toContain('convert a document (PDF, DOCX, HTML, images, text) to Markdown');
    // other commands' descriptions, other services' schemas (a barrel imported past a dynamic import brought every
    // contract in once), and packages only other commands use
    const others = [
      'spec 004 projects: one collection',
      'serve an MCP server over stdio',
      'embedding models: list, download',
      'Only these policy sources.',
    ];
    for (const other of [
      ...others,
      '"pino"',
      '"better-sqlite3"',
      '"bullmq"',
      '"onnxruntime-node"',
      '"fastify"',
      '"@modelcontextprotocol/sdk',
    ]) {
      expect(program).not.toContain(other);
    }
    // the run wrote the code cache the next runs start from
    expect(existsSync(`${programFile('convert')}.v8cache`)).toBe(true);
  });

  it('starts a one-shot conversion without the ES module loader, child processes or worker threads', async () => {
    // Node's own record of the modules it loaded, written at exit by a module required before the bin
    const record = join(dir, 'loaded.txt');
    const preload = join(dir, 'record-modules.cjs');
    await writeFile(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, process.moduleLoadList.join('\\n')));`,
    );
    for (let i = 0; i < 2; i++) {
      const run = await lectern(['convert', pdf], { ...env, NODE_OPTIONS: `--require ${preload}` });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(inProcess);
    }
    const loaded = readFileSync(record, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule vm'); // the record is Node's list
    // node:crypto neither where the native addon is built: the fingerprint is mupdf's SHA-256
    const nativeBuilt = existsSync(
      join(repoRoot(), 'libs', 'conversion', 'native', 'build', 'Release', 'lectern_mupdf.node'),
    );
    for (const absent of [
      'internal/modules/esm/module_job',
      'internal/modules/esm/translators',
      'child_process',
      'worker_threads',
      'zlib',
      ...(nativeBuilt ? ['crypto'] : []),
    ]) {
      expect(loaded).not.toContain(`NativeModule ${absent}`);
    }
  });

  it('rebuilds a program older than one of its sources', async () => {
    await lectern(['convert', pdf], env);
    const before = pointer('convert');
    expect(before.inputs).toContain(join(repoRoot(), 'libs', 'conversion', 'src', 'pdf', 'page-layout.ts'));
    // as if page-layout.ts had been saved after the build
    writeFileSync(join(bundleDir, 'convert.json'), JSON.stringify({ ...before, builtMs: 0 }));
    const run = await lectern(['convert', pdf], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(inProcess);
    const after = pointer('convert');
    expect(after.dir).not.toBe(before.dir);
    expect(after.builtMs).toBeGreaterThan(before.builtMs);
  });

  it('runs on when its code cache is damaged, and writes it again', async () => {
    await lectern(['convert', pdf], env);
    const cache = `${programFile('convert')}.v8cache`;
    writeFileSync(cache, 'not a code cache');
    const run = await lectern(['convert', pdf], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(inProcess);
    expect(readFileSync(cache).length).toBeGreaterThan(1000);
  });

  it('answers --version from the program without commands, and help lists every command', async () => {
    const version = await lectern(['--version'], env);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(readFileSync(programFile('base'), 'utf8')).not.toContain('convert a document (PDF');
    // the bin's former path (MCP client configurations name it) runs the same command line
    const shim = await lectern(['--version'], env, 'lectern.mjs');
    expect(shim.code).toBe(0);
    expect(shim.stdout).toBe(version.stdout);
    const help = await lectern(['--help'], env);
    expect(help.code).toBe(0);
    for (const command of Object.keys(COMMAND_MODULES))
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('loads the module of the command a command line names, none for --version, every one otherwise', async () => {
    expect(modulesFor(['convert', 'x.pdf', '--json'])).toEqual(['convert']);
    expect(modulesFor(['search', 'flood risk', '--project', 'p'])).toEqual(['project']);
    expect(modulesFor(['--version'])).toEqual([]);
    expect(modulesFor(['help'])).toEqual(modulesFor([]));
    expect(modulesFor(['nonsense'])).toHaveLength(new Set(Object.values(COMMAND_MODULES)).size);
    // a project-module command runs the project program
    const search = await lectern(['search', '--help'], env);
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('Usage: lectern search');
    expect(existsSync(programFile('project'))).toBe(true);
  });

  it("loads mupdf's WASM build and tesseract.js when a conversion needs them, from the code cache too", async () => {
    // twice: the second run starts from the code cache, where Node 20 has no dynamic import (importEsm)
    for (let i = 0; i < 2; i++) {
      const wasm = await lectern(['convert', pdf], { ...env, PDF_ENGINE: 'wasm' });
      expect(wasm.stderr).toBe('');
      expect(wasm.stdout).toBe(inProcess);
    }
    const scan = join(dir, 'scan.pdf');
    const text = 'BT /F1 11 Tf 72 700 Td (The committee met on Tuesday to consider the new library building.) Tj ET';
    await writeFile(
      scan,
      makePdf([{ content: text }, { content: 'q 400 0 0 120 100 500 cm /Im1 Do Q', image: barsImage() }]),
    );
    for (let i = 0; i < 2; i++) {
      // tesseract.js, not the tesseract program that OCR_ENGINE=auto picks when it is on PATH
      const run = await lectern(['convert', '--json', scan], { ...env, OCR_ENGINE: 'wasm' });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout) as { pages: { method: string }[] };
      expect(result.pages.map((p) => p.method)).toEqual(['text_layer', 'ocr']);
    }
  }, 120_000);

  it('runs the sources through tsx with LECTERN_CLI_BUNDLE=0', async () => {
    const run = await lectern(['convert', pdf], { ...env, LECTERN_CLI_BUNDLE: '0' });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(inProcess);
  });
});
