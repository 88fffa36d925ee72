// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkConsistency } from '@lectern/document-store';
import { connectMcp, corporaDir, corpusFile, repoRoot, serviceArgs, silentLogger, toolText } from '@lectern/testing';
import { ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { composeDocumentStore } from './compose.js';
import { loadConfig } from './config.js';

// 12 pages, 54 chunks: two embedding batches, so the kill lands between conversion and the registry write.
const REPORT = corpusFile(
  'uk-planning-policy',
  'dataset',
  'Coventry',
  '4. Adopted City Centre Area Action Plan (2011 to 2031)',
  'Coventry_AAP_Final_Report.pdf',
);

const startService = (env: Record<string, string>): Promise<{ child: ChildProcess; baseUrl: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, serviceArgs('apps/document-store-mcp/src/main.ts'), {
      cwd: repoRoot(),
      env: { ...process.env, ...env, DOCUMENT_STORE_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m?.[1]) resolve({ child, baseUrl: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`service exited early (${code})`)));
  });

/**
 * A document-store-mcp process SIGKILLed in the middle of ingesting a council report, then restarted: the registry
 * never believes in a partial document, and the retry ingests cleanly, leaving zero orphans.
 */
describe('ingest_document after a process killed mid-ingest', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-crash-'));
  });
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no registered partial document, and the retry ingests cleanly', async () => {
    const env = { DATA_DIR: dataDir, DOCUMENT_ROOTS: corporaDir() };
    const first = await startService(env);
    children.push(first.child);
    const client = await connectMcp(first.baseUrl, 'streamable-http');
    const killed = new Promise<void>((resolve) => {
      client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
        // Kill during embedding/storing: after conversion finished, before the registry entry.
        if (/embedded|storing/.test(n.params.message ?? '') && first.child.exitCode === null) {
          first.child.kill('SIGKILL');
          resolve();
        }
      });
    });
    const call = client
      .callTool({ name: 'ingest_document', arguments: { file_path: REPORT, application_ref: 'CRASH/1' } }, undefined, {
        onprogress: () => {},
        timeout: 300_000,
      })
      .catch((error: unknown) => error);
    await killed;
    // The dropped connection does not fail the pending request by itself; closing the client does.
    await client.close().catch(() => undefined);
    expect(await call).toHaveProperty('message');

    // Restarted: nothing registered for the interrupted document.
    const second = await startService(env);
    children.push(second.child);
    const client2 = await connectMcp(second.baseUrl, 'streamable-http');
    const listed = toolText(
      await client2.callTool({ name: 'list_ingested_documents', arguments: { application_ref: 'CRASH/1' } }),
    );
    expect(listed).toMatchObject({ document_count: 0 });

    // The retry ingests cleanly (same deterministic ids overwrite anything the killed run stored).
    const retry = await client2.callTool(
      { name: 'ingest_document', arguments: { file_path: REPORT, application_ref: 'CRASH/1' } },
      undefined,
      { timeout: 300_000 },
    );
    expect(retry.structuredContent).toMatchObject({ status: 'success' });
    await client2.close();
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));

    const {
      documentStore: { deps },
      platform,
    } = composeDocumentStore(loadConfig(env), silentLogger());
    const report = await checkConsistency(deps, {});
    await platform.close();
    expect(report).toMatchObject({ documents: 1, orphan_chunks: 0, count_mismatches: [] });
    expect(report.chunks).toBe((retry.structuredContent as { chunks_created: number }).chunks_created);
  }, 600_000);
});
