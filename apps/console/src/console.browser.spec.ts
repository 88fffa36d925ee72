// SPDX-License-Identifier: AGPL-3.0-or-later
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@lectern/testing';
import type { Page } from 'puppeteer-core';
import {
  axeViolations,
  clickButton,
  fill,
  startConsoleStack,
  upload,
  visibleText,
  waitForText,
  type ConsoleStack,
} from './console-stack.testkit.js';
import {
  DAMAGED,
  DATASHEET,
  DATASHEET_FIELDS,
  POLICY_2020,
  POLICY_2023,
  REF,
  STATEMENT,
  TRANSPORT,
  scannedLetter,
} from './console-fixtures.testkit.js';

// Shapes of the page's elements the callbacks below touch (the tests compile without the DOM's types).
type InputLike = { value: string; dispatchEvent(event: Event): boolean };
type ImageLike = { naturalWidth: number; naturalHeight: number };
type TextLike = { innerText: string };

/** One call to document-store-mcp's MCP endpoint through the console's own proxy, as an agent would make it. */
const callDocumentsTool = async (stack: { url: string; key: string }, request: Parameters<Client['callTool']>[0]) => {
  const client = new Client({ name: 'console-e2e', version: '0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.url}/svc/documents/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${stack.key}` } },
    }),
  );
  try {
    return await client.callTool(request);
  } finally {
    await client.close();
  }
};

/**
 * Records every text the ingest form's progress element shows, from now on: a MutationObserver sees each DOM change
 * (each render of a new stage), so the list does not depend on when the test looks. `stop` returns the texts.
 */
type ProgressLog = { texts: string[]; observer: { disconnect(): void } };
const recordProgress = async (page: Page) => {
  await page.evaluate(() => {
    const g = globalThis as unknown as {
      document: { body: unknown; querySelector(s: string): { textContent: string | null } | null };
      MutationObserver: new (cb: () => void) => { observe(n: unknown, o: object): void; disconnect(): void };
      __progress?: ProgressLog;
    };
    g.__progress?.observer.disconnect();
    const texts: string[] = [];
    const observer = new g.MutationObserver(() => {
      const text = g.document.querySelector('form[aria-label="Ingest a document"] .progress span')?.textContent;
      if (text && texts[texts.length - 1] !== text) texts.push(text);
    });
    observer.observe(g.document.body, { childList: true, subtree: true, characterData: true });
    g.__progress = { texts, observer };
  });
  return {
    stop: () =>
      page.evaluate(() => {
        const log = (globalThis as unknown as { __progress: ProgressLog }).__progress;
        log.observer.disconnect();
        return log.texts;
      }),
  };
};
/** The index of the first text matching each pattern, in order (-1 where one is missing or out of order). */
const inOrder = (texts: readonly string[], patterns: readonly RegExp[]): number[] => {
  let from = 0;
  return patterns.map((p) => {
    const i = texts.findIndex((t, k) => k >= from && p.test(t));
    if (i >= 0) from = i + 1;
    return i;
  });
};
/**
 * Records every page image the page frame shows, as its label (alt) with its image (src) and whether highlight boxes
 * were drawn with it, after each DOM change from now on. `stop` returns the list.
 */
type FrameLog = { seen: string[]; observer: { disconnect(): void } };
const recordFrames = async (page: Page) => {
  await page.evaluate(() => {
    const g = globalThis as unknown as {
      document: {
        body: unknown;
        querySelector(s: string): { getAttribute(a: string): string | null } | null;
        querySelectorAll(s: string): { length: number };
      };
      MutationObserver: new (cb: () => void) => { observe(n: unknown, o: object): void; disconnect(): void };
      __frames?: FrameLog;
    };
    g.__frames?.observer.disconnect();
    const seen: string[] = [];
    const record = () => {
      const img = g.document.querySelector('.page-frame img');
      if (!img) return;
      const boxes = g.document.querySelectorAll('.page-frame .highlight').length;
      const entry = `${img.getAttribute('alt') ?? ''}|${img.getAttribute('src') ?? ''}|${boxes > 0 ? 'boxes' : ''}`;
      if (seen[seen.length - 1] !== entry) seen.push(entry);
    };
    record(); // what is shown now
    const observer = new g.MutationObserver(record);
    observer.observe(g.document.body, { childList: true, subtree: true, attributes: true });
    g.__frames = { seen, observer };
  });
  return {
    stop: () =>
      page.evaluate(() => {
        const log = (globalThis as unknown as { __frames: FrameLog }).__frames;
        log.observer.disconnect();
        return log.seen.map((e) => {
          const [label = '', src = '', boxes = ''] = e.split('|');
          return { label, src, boxes: boxes === 'boxes' };
        });
      }),
  };
};
const highlightBoxes = (page: Page) =>
  page.$$eval('.page-frame .highlight', (boxes) =>
    boxes.map((b) => {
      const r = b.getBoundingClientRect();
      return { width: r.width, height: r.height };
    }),
  );

/**
 * The console in real headless chromium (Debian's), in front of the four services each in its own process: real
 * generated PDFs go in through the console's forms, and each test reads what a person sees. axe-core checks every
 * page (no serious or critical violation), and no page breaks its strict CSP.
 */
describe('console in a browser', () => {
  let stack: ConsoleStack;
  let page: Page;

  beforeAll(async () => {
    stack = await startConsoleStack({
      fields: DATASHEET_FIELDS,
    });
    page = await stack.open();
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => {
    expect(stack.problems).toEqual([]);
  });

  it('Documents: uploads and ingests with progress, shows the skip reason, lists, deletes, and draws pages with their chunks', async () => {
    await page.goto(`${stack.url}/#/documents`);
    await fill(page, 'Application reference', REF);
    await clickButton(page, 'Show documents');
    await waitForText(page, `Documents of ${REF}`);
    await upload(page, 'File to upload', STATEMENT);
    const uploadProgress = await recordProgress(page);
    await clickButton(page, 'Ingest');
    await waitForText(page, /Ingested \S+: \d+ chunks \(text_layer\)/);
    // an upload reports its bytes, then the service's one answer (the REST upload reports no stages of its own)
    const uploadTexts = await uploadProgress.stop();
    expect({ uploadTexts, order: inOrder(uploadTexts, [/^Uploading/, /^Converting, embedding and storing$/]) }).toEqual(
      {
        uploadTexts,
        order: expect.not.arrayContaining([-1]),
      },
    );
    await upload(page, 'File to upload', await scannedLetter());
    await clickButton(page, 'Ingest');
    await waitForText(page, /Skipped: .*\(reason: image_based\)/);
    // a file already inside the server's document roots, by path (MCP ingest_document with live progress)
    await page.reload();
    await fill(page, 'Application reference', REF);
    await clickButton(page, 'Show documents');
    await fill(page, 'or a file already on the server', TRANSPORT);
    const pathProgress = await recordProgress(page);
    await clickButton(page, 'Ingest');
    await waitForText(page, /Ingested \S+: \d+ chunks/);
    // live stages from ingest_document's MCP progress notifications, in order: conversion (per page), embedding,
    // storing (this 2-page PDF has a text layer, so no OCR stage: ENABLE_OCR is off in this stack)
    const pathTexts = await pathProgress.stop();
    const stages = [
      /^Starting$/,
      /^converting$/,
      /^extract page [12] of 2$/,
      /^embedded \d+ of \d+ chunks$/,
      /^storing chunks$/,
    ];
    expect({ pathTexts, order: inOrder(pathTexts, stages) }).toEqual({
      pathTexts,
      order: expect.not.arrayContaining([-1]),
    });
    await waitForText(page, '2 document(s)');
    const text = await visibleText(page);
    expect(text).toContain('planning-statement.pdf');
    expect(text).toContain('transport-assessment.pdf');
    expect(await axeViolations(page)).toEqual([]);

    // delete the uploaded statement
    const row = await page.waitForSelector("xpath/.//tr[contains(., 'planning-statement.pdf')]//button");
    await row!.click();
    await waitForText(page, /Deleted \S+: \d+ chunks removed/);
    await waitForText(page, '1 document(s)');

    // the transport assessment's page 2, drawn, with its chunk's text beside it
    const link = await page.waitForSelector("xpath/.//tr[contains(., 'transport-assessment.pdf')]//a");
    await link!.click();
    await page.waitForSelector('.page-frame img');
    const next = await page.waitForSelector("xpath/.//a[contains(., 'Next page')]");
    await next!.click();
    await waitForText(page, 'Junction capacity at the Mill Lane roundabout');
    // read in one step with finding it: the image can be drawn anew between a wait and a later read
    const size = (await (
      await page.waitForFunction(() => {
        const img = (
          globalThis as unknown as { document: { querySelector(s: string): ImageLike | null } }
        ).document.querySelector('.page-frame img[alt^="Page 2 of"]');
        return img && img.naturalWidth > 0 ? { w: img.naturalWidth, h: img.naturalHeight } : null;
      })
    ).jsonValue()) as { w: number; h: number };
    expect(size.w).toBeGreaterThan(300);
    expect(size.h).toBeGreaterThan(size.w);
    expect(await axeViolations(page)).toEqual([]);
  }, 240_000);

  it('Search: every result shows its citation and page span, and opens its page with the passage highlighted', async () => {
    await page.goto(`${stack.url}/#/search`);
    await fill(page, 'Search for', 'Mill Lane roundabout junction capacity');
    await fill(page, 'Application reference', REF);
    await clickButton(page, 'Search');
    await waitForText(page, /\d+ result\(s\)/);
    const text = await visibleText(page);
    expect(text).toContain(`transport-assessment.pdf (${REF}`);
    expect(text).toMatch(/p\. 2|pp\. 1–2/);
    expect(await axeViolations(page)).toEqual([]);
    const open = await page.waitForSelector("xpath/.//li[contains(., 'Mill Lane')]//a[contains(., 'Open the page')]");
    await open!.click();
    // the passage runs over pages 1 and 2: its lines on each page are boxed there
    let frames: Awaited<ReturnType<typeof recordFrames>> | undefined;
    for (const n of [1, 2]) {
      if (n === 2) {
        frames = await recordFrames(page);
        await (await page.waitForSelector("xpath/.//a[contains(., 'Next page')]"))!.click();
      }
      await page.waitForSelector(`.page-frame img[alt^="Page ${n} of"]`);
      await page.waitForSelector('.page-frame .highlight', { timeout: 30_000 });
      const boxes = await highlightBoxes(page);
      expect(boxes.length).toBeGreaterThan(0);
      for (const b of boxes) expect(b.width * b.height).toBeGreaterThan(20);
    }
    // moving to page 2 never showed page 1's image (or its boxes) under page 2's label: each image is shown under
    // one label only, and page 2's label appears first with its own image
    const shown = await frames!.stop();
    const labelsOf = new Map<string, Set<string>>();
    for (const f of shown) labelsOf.set(f.src, (labelsOf.get(f.src) ?? new Set()).add(f.label));
    expect([...labelsOf.values()].filter((labels) => labels.size > 1)).toEqual([]);
    expect(shown.some((f) => f.label.startsWith('Page 2 of') && f.boxes)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  }, 120_000);

  it('Policies: the timeline shows each revision with its dates, a new one supersedes, and search follows the date', async () => {
    await page.goto(`${stack.url}/#/policies`);
    await waitForText(page, 'No policies registered');
    await page.$eval('summary', (s) => (s as unknown as { click(): void }).click());
    await fill(page, 'Source (slug)', 'CYCLE_PLAN');
    await fill(page, 'Title', 'Cycle plan');
    await clickButton(page, 'Register policy');
    await waitForText(page, 'Cycle plan: revisions');
    const uploadRevision = async (file: string, label: string, from: string) => {
      await upload(page, 'Revision file', file);
      await fill(page, 'Version label', label);
      await page.$eval('input[type=date]:not([aria-hidden])', () => undefined);
      const date = await page.waitForSelector("xpath/.//label[contains(., 'In force from')]//input");
      await date!.evaluate((el, v) => {
        const input = el as unknown as InputLike;
        input.value = v;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }, from);
      await clickButton(page, 'Upload revision');
      await waitForText(page, `${label} is active`, 120_000);
    };
    await uploadRevision(POLICY_2020, 'Cycling 2020', '2020-01-01');
    await uploadRevision(POLICY_2023, 'Walking 2023', '2023-06-01');
    await waitForText(page, 'Cycling 2020 is now superseded, in force until 2023-05-31');
    const timeline = await page.$$eval('.timeline .revision', (items) =>
      items.map((i) => (i as unknown as TextLike).innerText),
    );
    expect(timeline).toHaveLength(2);
    expect(timeline[0]).toMatch(/Cycling 2020[\s\S]*superseded[\s\S]*2020-01-01 to 2023-05-31/);
    expect(timeline[1]).toMatch(/Walking 2023[\s\S]*active[\s\S]*2023-06-01 to now/);
    expect(await axeViolations(page)).toEqual([]);

    const asOf = await page.waitForSelector("xpath/.//label[contains(., 'As in force on')]//input");
    await asOf!.evaluate((el) => {
      const input = el as unknown as InputLike;
      input.value = '2021-03-01';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await fill(page, 'Search the policy for', 'proposals meet standard');
    await clickButton(page, 'Search as in force');
    await page.waitForSelector('[aria-label="Policy results"] .result');
    const results = await page.$$eval('[aria-label="Policy results"] .result', (items) =>
      items.map((i) => (i as unknown as TextLike).innerText),
    );
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(r).toContain('Cycling 2020');

    await fill(page, 'Section (e.g. Para 11', 'Para 2');
    await clickButton(page, 'Look up');
    await waitForText(page, 'Paragraph 2 of the walking policy');
  }, 300_000);

  it('Extraction: watches the task, shows the result tree, and opens a value on its page with the evidence highlighted', async () => {
    await page.goto(`${stack.url}/#/extraction`);
    await upload(page, 'Document', DATASHEET);
    await page.$eval('textarea', (el) => {
      const t = el as unknown as InputLike;
      t.value = JSON.stringify({ rated_current: '', protection_class: '', max_torque: '' });
      t.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await clickButton(page, 'Extract');
    await waitForText(page, /widget-datasheet\.pdf: succeeded/, 120_000);
    await waitForText(page, /rated_current\s+1\.6 ?A/);
    const text = await visibleText(page);
    expect(text).toMatch(/protection_class\s+IP65/);
    // a value the document does not hold stands out
    expect(
      await page.$$eval('.value.warned, .value.ungrounded', (v) => v.map((e) => (e as unknown as TextLike).innerText)),
    ).toEqual([expect.stringContaining('max_torque')]);
    expect(await axeViolations(page)).toEqual([]);
    const value = await page.waitForSelector(
      "xpath/.//div[contains(@class,'value')][contains(., 'protection_class')]//button",
    );
    await value!.click();
    await page.waitForSelector('.page-frame .highlight', { timeout: 30_000 });
    expect((await highlightBoxes(page)).length).toBeGreaterThan(0);
    expect(await visibleText(page)).toContain('Page 2 of widget-datasheet.pdf');
  }, 240_000);

  it('System: every service healthy, its key figures, the queues and the models', async () => {
    await page.goto(`${stack.url}/#/system`);
    await waitForText(page, 'Extraction queue:');
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
        ).document.querySelectorAll('.card .ok').length === 4,
      { timeout: 30_000 },
    );
    const text = await visibleText(page);
    for (const name of ['converter', 'document-store-mcp', 'policy-kb-mcp', 'extraction-api'])
      expect(text).toContain(name);
    expect(text).toMatch(/requests\s+\d+/);
    expect(text).toMatch(/memory\s+\d+ MB/);
    expect(text).toMatch(/Extraction queue: 0 queued, 0 running, 0 failed/);
    // models in use: document-store-mcp embedded the Documents test's uploads (lectern_embedding_model_info on its
    // /metrics); the converter embeds nothing, so its card names no model
    const card = (title: string) =>
      page.$eval(`article.card[aria-label="${title}"]`, (a) => (a as unknown as TextLike).innerText);
    // (no EMBEDDING_MODEL in this stack: `auto` with no model files resolves to the built-in default)
    expect(await card('document-store-mcp')).toMatch(/embedding models\s+universal-sentence-encoder-lite\b/);
    expect(await card('converter')).not.toContain('embedding models');
    expect(await axeViolations(page)).toEqual([]);
  }, 120_000);

  it('System: a damaged upload fails its conversion job for real; the page lists it with its reason and retries it', async () => {
    await page.goto(`${stack.url}/#/documents`);
    await fill(page, 'Application reference', REF);
    await clickButton(page, 'Show documents');
    await upload(page, 'File to upload', DAMAGED);
    await clickButton(page, 'Ingest');
    await waitForText(page, /extraction_failed/i, 60_000);
    await page.goto(`${stack.url}/#/system`);
    await waitForText(page, 'Queues of document-store-mcp (embedded)');
    // the failed job, with its short reason (code and message) and a Retry button
    await waitForText(
      page,
      /conversion job convert-[0-9a-f]{64}(?:-[0-9a-f]{12})? failed .* after 1 attempt\(s\): .+\(extraction_failed\)/,
    );
    const before = await visibleText(page);
    expect(before).toMatch(/conversion\s+0\s+0\s+[1-9]/);
    expect(await axeViolations(page)).toEqual([]);
    const retry = await page.waitForSelector("xpath/.//ul[@aria-label='Failed jobs of document-store-mcp']//button");
    const label = await retry!.evaluate((b) =>
      (b as unknown as { getAttribute(n: string): string }).getAttribute('aria-label'),
    );
    expect(label).toMatch(/^Retry job convert-[0-9a-f]{64}(?:-[0-9a-f]{12})? of the conversion queue$/);
    // when the job last failed, as the admin API says (what the page shows, to the millisecond)
    const failedAt = async () => {
      const res = await fetch(`${stack.url}/svc/documents/admin/queues/conversion/failed`, {
        headers: { authorization: `Bearer ${stack.key}` },
      });
      return ((await res.json()) as { jobs: { failed_at: string }[] }).jobs[0]?.failed_at ?? 'not failed';
    };
    const firstFailure = await failedAt();
    await retry!.click();
    await waitForText(page, /Job convert-[0-9a-f]{64}(?:-[0-9a-f]{12})? of the conversion queue was sent again\./);
    // it ran again from its first attempt and failed again (a later failure time): the file is still damaged, or
    // (embedded mode) the upload handed to the conversion was removed when its ingest ended: file_not_found
    for (let i = 0; i < 100 && [firstFailure, 'not failed'].includes(await failedAt()); i++)
      await new Promise((r) => setTimeout(r, 200));
    expect(Date.parse(await failedAt())).toBeGreaterThan(Date.parse(firstFailure));
    await clickButton(page, 'Refresh queues');
    await waitForText(
      page,
      /conversion job convert-[0-9a-f]{64}(?:-[0-9a-f]{12})? failed .*\((?:extraction_failed|file_not_found)\)/,
    );
  }, 180_000);

  it("Bad input: markup typed into a field is shown as text, and a refused policy slug in the service's plain words", async () => {
    const markup = '<img src="x" onerror="document.title=\'owned\'"><b>bold</b>';
    // an element made of the typed text: the image, or a <b> holding "bold"
    const injected = () =>
      page.$$eval(
        'img[src="x"], b',
        (els) =>
          els.filter((e) => {
            const el = e as unknown as { tagName: string; innerText: string };
            return el.tagName === 'IMG' || el.innerText === 'bold';
          }).length,
      );
    await page.goto(`${stack.url}/#/documents`);
    await fill(page, 'Application reference', markup);
    await clickButton(page, 'Show documents');
    // the typed reference comes back on the page as the very characters typed, and no element was made of it
    await waitForText(page, `Documents of ${markup}`);
    await waitForText(page, '0 document(s)'); // the service answered: an empty listing, not an error
    expect(await injected()).toBe(0);
    expect(await page.title()).not.toBe('owned');

    await page.goto(`${stack.url}/#/policies`);
    await page.waitForSelector('.policy-list'); // the list has loaded (the page has settled)
    await page.$eval('summary', (s) => (s as unknown as { click(): void }).click());
    await page.waitForSelector('details[open] form[aria-label="Register a policy"]');
    await fill(page, 'Source (slug)', markup);
    await fill(page, 'Title', markup);
    await clickButton(page, 'Register policy');
    const alert = await page.waitForSelector('form[aria-label="Register a policy"] [role=alert]', {
      timeout: 60_000,
    });
    const said = await alert!.evaluate((e) => (e as unknown as TextLike).innerText);
    // what the API answered (400 invalid_arguments, the slug's rule), in its words, not a status code or a stack
    expect(said).toMatch(/source slugs are UPPER_SNAKE_CASE, e\.g\. "NPPF" or "LTN_1_20".*\(invalid_arguments\)/s);
    expect(said).not.toMatch(/ZodError|at \w+ \(|\bstack\b|^400$/);
    expect(await injected()).toBe(0);
    expect(await visibleText(page)).not.toContain(`${markup} (`); // nothing registered under it
    expect(await axeViolations(page)).toEqual([]);
  }, 60_000);

  it('Search over a spec 002 collection: each result shows its citation (title, chunk) and score', async () => {
    // chunks stored the spec 002 way (an agent's store_document_chunks), through the console's own proxy
    const stored = await callDocumentsTool(stack, {
      name: 'store_document_chunks',
      arguments: {
        collection: 'ConsoleNotes',
        chunks: [
          {
            text: 'Otters were seen along the canal towpath near the old mill in spring.',
            source_filename: 'otter-survey.pdf',
            chunk_index: 0,
            metadata: { title: 'Otter survey 2024', page_count: 3 },
          },
          {
            text: 'The car park resurfacing is planned for the autumn.',
            source_filename: 'estates-note.pdf',
            chunk_index: 4,
            metadata: { title: 'Estates note' },
          },
        ],
      },
    });
    expect(stored.isError).toBeFalsy();
    await page.goto(`${stack.url}/#/search`);
    await page.reload(); // a fresh Search page (an earlier test may have left its results on this one)
    await fill(page, 'Search for', 'otters on the canal towpath');
    await page.select('xpath/.//label[contains(., "In")]//select', 'collection');
    await fill(page, 'Collection (empty: all)', 'ConsoleNotes');
    await clickButton(page, 'Search');
    await waitForText(page, 'Otter survey 2024, chunk 0');
    const results = await page.$$eval('.results .result', (items) =>
      items.map((i) => (i as unknown as TextLike).innerText),
    );
    expect(results[0]).toMatch(/^Otter survey 2024, chunk 0\s+of 3 pages · score \d\.\d{3}/);
    expect(results[0]).toContain('Otters were seen along the canal towpath');
    expect(await axeViolations(page)).toEqual([]);
  }, 60_000);

  it("Search in a spec 004 project: citation, section path and page span; System names the project's embedding model", async () => {
    // a project is made by the command line on the same data directory (as an operator would)
    await promisify(execFile)(
      process.execPath,
      [join(repoRoot(), 'apps', 'cli', 'bin', 'lectern.cjs'), 'project', 'create', 'canal-notes'],
      { env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', DATA_DIR: stack.dataDir } },
    );
    const stored = await callDocumentsTool(stack, {
      name: 'store_chunks',
      arguments: {
        project: 'canal-notes',
        chunks: [
          {
            doc_id: 'otters2024',
            text: 'Otters were seen along the canal towpath near the old mill in spring.',
            chunk_index: 0,
            page_start: 2,
            page_end: 3,
            section_path: ['Results', 'Mammals'],
            citation: { citekey: 'otters2024', title: 'Otter survey' },
          },
        ],
      },
    });
    expect(stored.isError).toBeFalsy();
    await page.goto(`${stack.url}/#/search`);
    await page.reload(); // a fresh Search page (an earlier test may have left its results on this one)
    await fill(page, 'Search for', 'otters on the canal towpath');
    await page.select('xpath/.//label[contains(., "In")]//select', 'project');
    await fill(page, 'Project', 'canal-notes');
    await clickButton(page, 'Search');
    await waitForText(page, 'Results › Mammals');
    const results = await page.$$eval('.results .result', (items) =>
      items.map((i) => (i as unknown as TextLike).innerText),
    );
    expect(results[0]).toContain('otters2024');
    expect(results[0]).toMatch(/pp\. 2–3 · Results › Mammals · score \d\.\d{3}/);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${stack.url}/#/system`);
    await waitForText(page, 'Embedding model of each project');
    const models = await page.$$eval('xpath/.//table[caption[contains(., "Embedding model")]]//tbody/tr', (rows) =>
      rows.map((r) => (r as unknown as TextLike).innerText),
    );
    expect(models).toContainEqual(expect.stringMatching(/^canal-notes\s+\S+\s+(yes|no)\s+1$/));
    expect(await axeViolations(page)).toEqual([]);

    // Documents per project: an upload into the project is listed there, not in the default project
    await page.goto(`${stack.url}/#/documents`);
    await page.reload();
    await fill(page, 'Application reference', REF);
    await fill(page, 'Project (optional)', 'canal-notes');
    await clickButton(page, 'Show documents');
    await waitForText(page, `Documents of ${REF} in project canal-notes`);
    await waitForText(page, '0 document(s)');
    await upload(page, 'File to upload', STATEMENT);
    await clickButton(page, 'Ingest');
    await waitForText(page, /Ingested \S+: \d+ chunks/, 120_000);
    await waitForText(page, '1 document(s)');
    expect(await visibleText(page)).toContain('planning-statement.pdf');
    expect(await axeViolations(page)).toEqual([]);
    const link = await page.waitForSelector("xpath/.//tr[contains(., 'planning-statement.pdf')]//a");
    await link!.click();
    await page.waitForSelector('.page-frame img[alt^="Page 1 of"]');
    expect(page.url()).toContain('project=canal-notes');
    await page.goto(`${stack.url}/#/documents`);
    await page.reload();
    await fill(page, 'Application reference', REF);
    await clickButton(page, 'Show documents');
    await waitForText(page, /\d+ document\(s\)/);
    const defaultListing = await visibleText(page);
    expect(defaultListing).not.toContain('in project');
    expect(defaultListing).not.toContain('planning-statement.pdf'); // deleted there by the Documents test
  }, 240_000);
});
