// SPDX-License-Identifier: AGPL-3.0-or-later
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedModelDir } from '@lectern/testing';
import { runCli } from './cli.js';

// Corpus tier: these import the real potion-base-2M from ../shared/models (it cannot be generated or committed).

const run = async (argv: string[], env: Record<string, string | undefined>) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { env, stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
};

describe('lectern models pull --from (a real model copy)', () => {
  it('`lectern models pull potion-base-2M --from DIR` imports a verified copy that `embed` then uses', async () => {
    const data = await mkdtemp(join(tmpdir(), 'lectern-cli-potion-'));
    try {
      const pulled = await run(['models', 'pull', 'potion-base-2M', '--from', sharedModelDir('potion-base-2M')], {
        DATA_DIR: data,
      });
      expect(pulled.code).toBe(0);
      expect(pulled.stdout).toMatch(/verified model\.safetensors sha256:35520560833b76c8/);
      expect(pulled.stdout).toContain(`potion-base-2M ready in ${join(data, 'models', 'potion-base-2M')}`);
      const list = JSON.parse((await run(['models', 'list', '--json'], { DATA_DIR: data })).stdout) as {
        id: string;
        available: boolean;
      }[];
      expect(list.find((r) => r.id === 'potion-base-2M')?.available).toBe(true);
      const embedded = await run(['embed', 'This is an example sentence', '--json'], { DATA_DIR: data });
      expect(JSON.parse(embedded.stdout)).toMatchObject({ model: 'potion-base-2M', dimension: 64 });
      expect(embedded.stderr).toContain('lectern models pull all-MiniLM-L6-v2');
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });

  it('`lectern models pull --from` refuses a copy that fails verification, with exit code 1', async () => {
    const data = await mkdtemp(join(tmpdir(), 'lectern-cli-potion-'));
    try {
      const from = join(data, 'copy');
      await mkdir(from);
      for (const f of ['tokenizer.json', 'config.json'])
        await copyFile(join(sharedModelDir('potion-base-2M'), f), join(from, f));
      await writeFile(join(from, 'model.safetensors'), Buffer.alloc(1024));
      const { code, stderr } = await run(['models', 'pull', 'potion-base-2M', '--from', from], { DATA_DIR: data });
      expect(code).toBe(1);
      expect(stderr).toMatch(/error: .*model\.safetensors has sha256 [0-9a-f]{64}, expected .*the file was discarded/);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });
});
