// SPDX-License-Identifier: AGPL-3.0-or-later
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@lectern/testing';
import { runCli } from './cli.js';

const run = async (argv: string[], env: Record<string, string | undefined>) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { env, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
};

describe('lectern command line', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('`npx lectern --help` works from the repository root (workspace bin)', async () => {
    const { stdout } = await promisify(execFile)(join(repoRoot(), 'node_modules', '.bin', 'lectern'), ['--help'], {
      cwd: repoRoot(),
    });
    expect(stdout).toContain('Usage: lectern');
    expect(stdout).toMatch(/embed \[options\] <text>/);
    expect(stdout).toContain('models');
  });

  it('`lectern embed --json` prints the vector, its dimension and the fingerprint; says which model once', async () => {
    const { code, stdout, stderr } = await run(['embed', 'This is an example sentence', '--json'], {
      DATA_DIR: dataDir,
    });
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as {
      model: string;
      dimension: number;
      vector: number[];
      fingerprint: Record<string, unknown>;
    };
    expect(out.model).toBe('universal-sentence-encoder-lite');
    expect(out.dimension).toBe(512);
    expect(out.vector).toHaveLength(512);
    expect(out.fingerprint).toMatchObject({
      model_id: 'universal-sentence-encoder-lite',
      dimension: 512,
      normalized: true,
    });
    expect(stderr.match(/embedding model:/g)).toHaveLength(1);
    expect(stderr).toContain('lectern models pull all-MiniLM-L6-v2');
  });

  it('errors go to stderr with a non-zero exit code and no stack trace', async () => {
    const blank = await run(['embed', '   '], { DATA_DIR: dataDir });
    expect(blank.code).toBe(1);
    expect(blank.stdout).toBe('');
    expect(blank.stderr).toContain('error: embed: text to embed must be a non-empty');
    expect(blank.stderr).not.toMatch(/\n\s+at /);

    const missing = await run(['embed', 'hello', '--model', 'all-MiniLM-L6-v2'], { DATA_DIR: dataDir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /error: embedding model all-MiniLM-L6-v2 is not available: .*lectern models pull all-MiniLM-L6-v2/,
    );
    expect(missing.stderr).not.toMatch(/\n\s+at /);

    const badEnv = await run(['embed', 'hello'], { DATA_DIR: dataDir, EMBEDDING_QUANTIZED: 'perhaps' });
    expect(badEnv.code).toBe(1);
    expect(badEnv.stderr).toContain('EMBEDDING_QUANTIZED');
  });

  it('`lectern models list` shows both models and what is available', async () => {
    const { code, stdout } = await run(['models', 'list', '--json'], { DATA_DIR: dataDir });
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as { id: string; available: boolean }[];
    expect(rows).toEqual([
      expect.objectContaining({ id: 'all-MiniLM-L6-v2', available: false }),
      expect.objectContaining({ id: 'potion-base-2M', available: false }),
      expect.objectContaining({ id: 'universal-sentence-encoder-lite', available: true }),
    ]);
  });

  it('`lectern models pull` reports an unreachable source as an error, not a crash', async () => {
    const { code, stderr } = await run(
      ['models', 'pull', 'all-MiniLM-L6-v2', '--base-url', 'http://127.0.0.1:9/none'],
      { DATA_DIR: dataDir },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/error: cannot reach http:\/\/127\.0\.0\.1:9\/none\/config\.json/);
  });
});
