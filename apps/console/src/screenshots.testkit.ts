// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * Regenerates the console's screenshots in docs/console/ (shown in the README):
 *
 *   node --import tsx apps/console/src/screenshots.testkit.ts [page...]
 *
 * (pages: documents, document-view, search, policies, extraction, system; default all — `system` alone skips the
 * ingests and the extraction, which only the other pages show).
 * The same stack as the browser tests (the four services, the console, headless chromium), filled with the same
 * generated documents through the public APIs, then each page visited as a person would and photographed.
 * (A `.testkit.ts` because it builds on the test helpers; it is not a test.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@lectern/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'puppeteer-core';
import {
  DAMAGED,
  DATASHEET,
  DATASHEET_FIELDS,
  POLICY_2020,
  POLICY_2023,
  REF,
  STATEMENT,
  TRANSPORT,
} from './console-fixtures.testkit.js';
import { startConsoleStack, waitForText } from './console-stack.testkit.js';

const OUT = join(repoRoot(), 'docs', 'console');

const form = (fields: Record<string, string>, file: string, name: string) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append('file', new Blob([readFileSync(file)]), name);
  return body;
};

const until = async <T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> => {
  for (let i = 0; i < 600; i += 1) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('never settled');
};

const ONLY = new Set(process.argv.slice(2));
const wanted = (name: string) => ONLY.size === 0 || ONLY.has(name);

const main = async () => {
  const stack = await startConsoleStack({ fields: DATASHEET_FIELDS });
  try {
    const auth = { authorization: `Bearer ${stack.key}` };
    const svc = (path: string, init: RequestInit = {}) =>
      fetch(`${stack.url}/svc${path}`, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } });
    // a damaged upload: its conversion job fails, so the System page has a failed job (with Retry) to show
    await svc('/documents/api/documents', {
      method: 'POST',
      body: form({ application_ref: '25/00099/FUL' }, DAMAGED, 'damaged-statement.pdf'),
    });
    const page = await stack.open();
    const shot = async (p: Page, name: string) => {
      await new Promise((r) => setTimeout(r, 300));
      await p.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
      process.stdout.write(`docs/console/${name}.png\n`);
    };
    if (wanted('system')) {
      await page.goto(`${stack.url}/#/system`);
      await waitForText(page, 'Extraction queue:');
      await waitForText(page, /\(extraction_failed\)/);
      await page.waitForFunction(
        () =>
          (
            globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
          ).document.querySelectorAll('.card .ok').length === 4,
      );
      await shot(page, 'system');
    }
    if (!['documents', 'document-view', 'search', 'policies', 'extraction'].some(wanted)) return;
    // documents: one by path (its pages can be drawn), one uploaded
    const client = new Client({ name: 'console-screenshots', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.url}/svc/documents/mcp`), { requestInit: { headers: auth } }),
    );
    await client.callTool({ name: 'ingest_document', arguments: { file_path: TRANSPORT, application_ref: REF } });
    await svc('/documents/api/documents', {
      method: 'POST',
      body: form({ application_ref: REF }, STATEMENT, 'planning-statement.pdf'),
    });
    const listed = await client.callTool({ name: 'list_ingested_documents', arguments: { application_ref: REF } });
    const transportId = (
      listed.structuredContent as { documents: { document_id: string; file_path: string }[] }
    ).documents.find((d) => d.file_path.endsWith('transport-assessment.pdf'))!.document_id;
    await client.close();
    // a policy with two revisions
    await svc('/policies/api/policies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'CYCLE_PLAN', title: 'Cycle plan', category: 'local_plan' }),
    });
    for (const [file, label, from] of [
      [POLICY_2020, 'Cycling 2020', '2020-01-01'],
      [POLICY_2023, 'Walking 2023', '2023-06-01'],
    ] as const) {
      const res = await svc('/policies/api/policies/CYCLE_PLAN/revisions', {
        method: 'POST',
        body: form({ version_label: label, effective_from: from }, file, 'policy.pdf'),
      });
      const { revision } = (await res.json()) as { revision: { revision_id: string } };
      await until(
        async () =>
          (await (await svc(`/policies/api/policies/CYCLE_PLAN/revisions/${revision.revision_id}`)).json()) as {
            status: string;
          },
        (r) => r.status !== 'processing',
      );
    }
    // an extraction task
    const created = await svc('/extraction/tasks', {
      method: 'POST',
      body: form(
        { schema: JSON.stringify({ rated_current: '', protection_class: '', max_torque: '' }) },
        DATASHEET,
        'widget-datasheet.pdf',
      ),
    });
    const { task_id } = (await created.json()) as { task_id: string };
    await until(
      async () => ((await (await svc(`/extraction/tasks/${task_id}`)).json()) as { status: string }).status,
      (s) => s === 'succeeded' || s === 'failed',
    );

    await page.goto(`${stack.url}/#/documents?ref=${encodeURIComponent(REF)}`);
    await waitForText(page, '2 document(s)');
    await shot(page, 'documents');
    await page.goto(
      `${stack.url}/#/document?id=${transportId}&page=2&highlight=${encodeURIComponent('Junction capacity at the Mill Lane roundabout remains below eighty five percent.')}`,
    );
    await page.waitForSelector('.page-frame .highlight');
    await shot(page, 'document-view');
    await page.goto(`${stack.url}/#/search`);
    const query = await page.waitForSelector('input[type=search]');
    await query!.type('Mill Lane roundabout junction capacity');
    await (await page.waitForSelector('button[type=submit]'))!.click();
    await waitForText(page, /\d+ result\(s\)/);
    await shot(page, 'search');
    await page.goto(`${stack.url}/#/policies?source=CYCLE_PLAN`);
    await waitForText(page, 'Walking 2023');
    await shot(page, 'policies');
    await page.goto(`${stack.url}/#/extraction?task=${task_id}`);
    await waitForText(page, /protection_class\s+IP65/);
    const value = await page.waitForSelector(
      "xpath/.//div[contains(@class,'value')][contains(., 'protection_class')]//button",
    );
    await value!.click();
    await page.waitForSelector('.page-frame .highlight');
    await shot(page, 'extraction');
  } finally {
    await stack.close();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
