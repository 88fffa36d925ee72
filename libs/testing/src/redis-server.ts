// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });

/**
 * Start a real `redis-server` (Debian package; `.ci/run` installs it) on a free loopback port with no
 * persistence, in its own temporary directory. Each test file gets its own server: no shared state.
 * `port` starts it on a given port: a test that stopped its server starts it again where clients reconnect;
 * `persistDir` turns persistence on (AOF, fsync always) in that directory, which outlives `stop()`.
 */
export const startRedis = async (options: { port?: number; persistDir?: string } = {}): Promise<TestRedis> => {
  const which = spawnSync('sh', ['-c', 'command -v redis-server']);
  if (which.status !== 0)
    throw new Error('redis-server not found: install it (apt-get install -y redis-server; .ci/run does)');
  const port = options.port ?? (await freePort());
  const dir = options.persistDir ?? mkdtempSync(join(tmpdir(), 'lectern-redis-'));
  // persistDir: an append-only file fsynced on every write, kept on stop (start again with the same port and dir)
  const persistence = options.persistDir ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolveReady, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolveReady();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${out}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.persistDir) rmSync(dir, { recursive: true, force: true });
    },
  };
};
