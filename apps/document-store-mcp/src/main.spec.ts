// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, serviceArgs } from '@lectern/testing';

interface LogLine {
  msg: string;
  time: string;
  step?: string;
  reason?: string;
  ok?: boolean;
}

/**
 * Graceful shutdown of the real service process: an open SSE stream must not hold it, steps run in
 * order (HTTP and its streams first, then stores), and the process exits 0 — on SIGTERM and SIGINT.
 */
describe.each(['SIGTERM', 'SIGINT'] as const)('document-store-mcp main on %s', (signal) => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-shutdown-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('closes open streams, then stores, and exits 0', async () => {
    const child = spawn(process.execPath, serviceArgs('apps/document-store-mcp/src/main.ts'), {
      cwd: repoRoot(),
      env: { ...process.env, DOCUMENT_STORE_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: LogLine[] = [];
    let buffered = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const raw = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          try {
            const line = JSON.parse(raw) as LogLine;
            lines.push(line);
            const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line.msg);
            if (match?.[1]) resolve(match[1]);
          } catch {
            /* not a log line */
          }
        }
      });
      child.once('exit', (code) => reject(new Error(`exited early (${code}): ${stderr}`)));
    });
    const baseUrl = await listening;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    // An open legacy SSE stream, as the internal worker keeps one.
    const sse = await fetch(`${baseUrl}/sse`, { headers: { accept: 'text/event-stream' } });
    expect(sse.status).toBe(200);
    const reader = sse.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: endpoint');
    const streamEnded = (async () => {
      for (;;) {
        const { done } = await reader.read().catch(() => ({ done: true }));
        if (done) return true;
      }
    })();

    child.kill(signal);
    expect(await exited).toBe(0);
    expect(await streamEnded).toBe(true);
    // Ordered by each line's own timestamp (stable sort): the pipe may deliver writes out of order.
    lines.sort((a, b) => a.time.localeCompare(b.time));
    const msgs = lines.map((l) => (l.step ? `${l.msg}:${l.step}` : l.msg));
    const start = msgs.indexOf('shutting down');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(lines[start]?.reason).toBe(signal);
    const steps = msgs.slice(start).filter((m) => m.startsWith('shutdown step done:'));
    expect(steps[0]).toBe('shutdown step done:http');
    expect(msgs[msgs.length - 1]).toBe('shutdown complete');
    expect(lines[lines.length - 1]?.ok).toBe(true);
    // One ready line a person can read: URL, transports, auth, store, queue, embedding model; no open-network warning.
    const ready = lines.filter((l) => (l as { event?: string }).event === 'ready').map((l) => l.msg);
    expect(ready).toEqual([
      expect.stringMatching(
        /^document-store-mcp ready at http:\/\/127\.0\.0\.1:\d+ \| MCP \/mcp .*\| auth off \| store sqlite .*\| queue in-process .*\| embedding auto \| source \S/,
      ),
    ]);
    expect(lines.filter((l) => (l as { event?: string }).event === 'open_without_auth')).toEqual([]);
    // SCIRAG_PORT unset (the default): no spec 002 listener beside the main one
    expect(lines.filter((l) => l.msg.startsWith('Server listening at'))).toHaveLength(1);
  });
});
