// SPDX-License-Identifier: AGPL-3.0-or-later
import type { SpawnedService } from './spawn-service.js';

/**
 * `kill -9` a spawned service the moment its output shows `pattern` (a log line proving where it is, e.g. an ingest
 * mid-way), and resolve with that line once the process is gone. Nothing runs on the way down: no shutdown step, no
 * `finally`, as after a crash or an OOM kill. Rejects when the process exits first or after `timeoutMs`.
 */
export const killAtLine = (service: SpawnedService, pattern: RegExp, timeoutMs = 60_000): Promise<string> =>
  new Promise((resolve, reject) => {
    const { child } = service;
    let seen = '';
    const timer = setTimeout(
      () => finish(new Error(`no output line matched ${pattern} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onExit = (): void => finish(new Error(`the service exited before a line matched ${pattern}`));
    const onData = (d: Buffer): void => {
      seen += d.toString();
      const lines = seen.split('\n');
      seen = lines.pop() ?? '';
      const line = lines.find((l) => pattern.test(l));
      if (line === undefined) return;
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      clearTimeout(timer);
      child.once('exit', () => resolve(line));
      child.kill('SIGKILL');
    };
    const finish = (error: Error): void => {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      reject(error);
    };
    child.once('exit', onExit);
    child.stdout?.on('data', onData);
  });
