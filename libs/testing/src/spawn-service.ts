// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { repoRoot } from './paths.js';
import { serviceArgs } from './service-args.js';

export interface SpawnedService {
  child: ChildProcess;
  baseUrl: string;
  /** The process's peak resident memory so far (VmHWM), in bytes. */
  peakRssBytes(): number;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>;
  /** The last ~32 KiB the process wrote (stdout and stderr, in arrival order): a failing test can show why. */
  recentOutput(): string;
}

const OUTPUT_TAIL_CHARS = 32_768;

/**
 * Start an app's `main.ts` as its own process (its bundle built by the test run's globalSetup, else node + tsx, as
 * `npm start` runs it: `serviceArgs`) on a free loopback port, and
 * resolve once it logs fastify's "Server listening at". `portVariable` names the app's port setting.
 */
export const spawnService = (
  entry: string,
  portVariable: string,
  env: Record<string, string>,
): Promise<SpawnedService> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, serviceArgs(entry), {
      cwd: repoRoot(),
      env: { ...process.env, ...env, [portVariable]: '0', HOST: '127.0.0.1', LOG_LEVEL: env['LOG_LEVEL'] ?? 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let tail = '';
    const keep = (d: Buffer): void => {
      tail = (tail + d.toString()).slice(-OUTPUT_TAIL_CHARS);
    };
    child.stderr!.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
      keep(d);
    });
    const onExit = (code: number | null): void => reject(new Error(`${entry} exited early (${code}): ${err}`));
    child.once('exit', onExit);
    child.stdout!.on('data', (d: Buffer) => {
      keep(d);
      out += d.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!m?.[1]) return;
      child.off('exit', onExit);
      out = '';
      child.stdout!.removeAllListeners('data');
      child.stdout!.on('data', keep);
      const pid = child.pid as number;
      resolve({
        child,
        baseUrl: m[1],
        recentOutput: () => tail,
        peakRssBytes: () => {
          const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
          return hwm ? Number(hwm[1]) * 1024 : 0;
        },
        stop: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return; // exited, or killed by a signal
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
