// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const freePort = () =>
  new Promise<number>((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

const healthy = async (port: number): Promise<boolean> => {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
};

const until = async (what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 90_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Issue 12, defect 8: one crashed service stopped every other one under `npm start`. */
describe('tools/start-all.mjs (npm start)', () => {
  let launcher: ChildProcess;
  let dataDir: string;
  let output = '';
  const ports = { converter: 0, extraction: 0 };

  const pids = (name: string): number[] =>
    [...output.matchAll(new RegExp(`started ${name} \\(pid (\\d+)\\)`, 'g'))].map((m) => Number(m[1]));

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-launcher-'));
    ports.converter = await freePort();
    ports.extraction = await freePort();
    launcher = spawn(process.execPath, ['tools/start-all.mjs'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        LECTERN_SERVICES: 'converter,extraction-api',
        LECTERN_RESTART_DELAY_MS: '200',
        CONVERTER_PORT: String(ports.converter),
        EXTRACTION_API_PORT: String(ports.extraction),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        MCP_API_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    launcher.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
  afterAll(async () => {
    if (launcher.exitCode === null && launcher.signalCode === null) {
      launcher.kill('SIGKILL');
      for (const pid of [...pids('converter'), ...pids('extraction-api')]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('restarts a service killed with SIGKILL while the others stay up, then stops everything on SIGTERM', async () => {
    await until(
      'both services healthy',
      async () => (await healthy(ports.converter)) && (await healthy(ports.extraction)),
    );
    const [converterPid] = pids('converter');
    const [extractionPid] = pids('extraction-api');
    expect(converterPid).toBeDefined();
    expect(extractionPid).toBeDefined();
    // the compiled build, nothing compiled at run time (issue 27)
    const commandLine = (await readFile(`/proc/${converterPid}/cmdline`, 'utf8')).split('\0');
    // (with the V8 code cache preloaded: tools/compile-cache.cjs)
    expect(commandLine).toEqual([
      process.execPath,
      '--require',
      join(repoRoot, 'tools', 'compile-cache.cjs'),
      join(repoRoot, 'dist', 'apps', 'converter', 'src', 'main.cjs'),
      '',
    ]);

    process.kill(converterPid as number, 'SIGKILL');
    let extractionAnswered = 0;
    let extractionFailed = 0;
    await until('the converter restarted and healthy', async () => {
      if (await healthy(ports.extraction)) extractionAnswered += 1;
      else extractionFailed += 1;
      return pids('converter').length === 2 && (await healthy(ports.converter));
    });
    expect(output).toMatch(/converter exited \(SIGKILL\); restarting in 200 ms \(restart 1\)/);
    expect(pids('converter')[1]).not.toBe(converterPid);
    expect(alive(converterPid as number)).toBe(false);
    // The other service never went down and was never restarted.
    expect(extractionFailed).toBe(0);
    expect(extractionAnswered).toBeGreaterThan(0);
    expect(pids('extraction-api')).toEqual([extractionPid]);

    const exited = new Promise<number | null>((done) => launcher.once('exit', (code) => done(code)));
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of [...pids('converter'), ...pids('extraction-api')]) expect(alive(pid)).toBe(false);
    expect(await healthy(ports.converter)).toBe(false);
    expect(await healthy(ports.extraction)).toBe(false);
    expect(output).not.toMatch(/restarting in .* \(restart 2\)/);
  }, 180_000);
});
