// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  anthropicScript,
  fixturesDir,
  listenOnFreePort,
  silentLogger,
  spawnService,
  startFakeLlm,
  wellBehavedScript,
  type FakeLlmServer,
  type ScriptedField,
  type SpawnedService,
} from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { buildUi } from './ui-build.js';

/** Debian's chromium (installed by .ci/run); no browser is downloaded. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export interface ConsoleStack {
  /** The console's URL (in-process), in front of the four services (each its own process, as `npm start` runs them). */
  url: string;
  key: string;
  dataDir: string;
  browser: Browser;
  /** A fresh tab with the key entered; CSP violations and page errors are collected in `problems`. */
  open(path?: string): Promise<Page>;
  problems: string[];
  close(): Promise<void>;
}

/**
 * Everything the console's browser tests (and the screenshot script) need: the four services spawned on one data
 * directory with a bearer key (extraction-api answered by a loopback fake LLM reading `fields` the well-behaved
 * way), the console built and listening in-process in front of them, and headless chromium.
 */
export const startConsoleStack = async (options: {
  fields: ScriptedField[];
  documentRoots?: string[];
}): Promise<ConsoleStack> => {
  const key = 'console-e2e-key-0123';
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-console-'));
  const uiDir = join(dataDir, 'ui');
  const replies = anthropicScript(() => wellBehavedScript(options.fields));
  const llm: FakeLlmServer = await startFakeLlm((body) => replies(body));
  const env = {
    DATA_DIR: dataDir,
    DOCUMENT_ROOTS: [fixturesDir(), ...(options.documentRoots ?? [])].join(','),
    MCP_API_KEY: key,
    // a scanned page is skipped as image_based (spec 000 as written), so the console has a skip reason to show
    SCANNED_PDF_POLICY: 'skip',
    // no OCR: the scan is skipped without reading it, and no test here needs OCR
    ENABLE_OCR: 'false',
  };
  const services: SpawnedService[] = [];
  let app: FastifyInstance | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    await app?.close();
    await Promise.all(services.map((s) => s.stop()));
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const [converter, documents, policies, extraction] = await Promise.all([
      spawnService('apps/converter/src/main.ts', 'CONVERTER_PORT', env),
      spawnService('apps/document-store-mcp/src/main.ts', 'DOCUMENT_STORE_PORT', env),
      spawnService('apps/policy-kb-mcp/src/main.ts', 'POLICY_KB_PORT', env),
      spawnService('apps/extraction-api/src/main.ts', 'EXTRACTION_API_PORT', {
        ...env,
        ANTHROPIC_API_KEY: 'fake-key',
        ANTHROPIC_BASE_URL: llm.url,
        EXTRACTOR: 'anthropic',
        LLM_MAX_RETRIES: '0',
      }),
      buildUi(uiDir),
    ]);
    services.push(...([converter, documents, policies, extraction] as SpawnedService[]));
    const config = loadConfig({
      CONSOLE_CONVERTER_URL: (converter as SpawnedService).baseUrl,
      CONSOLE_DOCUMENT_STORE_URL: (documents as SpawnedService).baseUrl,
      CONSOLE_POLICY_KB_URL: (policies as SpawnedService).baseUrl,
      CONSOLE_EXTRACTION_API_URL: (extraction as SpawnedService).baseUrl,
    });
    app = buildApp({ config, logger: silentLogger(), uiDir });
    const url = await listenOnFreePort(app);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1280,900'],
      defaultViewport: { width: 1280, height: 900 },
    });
    const problems: string[] = [];
    const open = async (path = '/') => {
      const page = await browser!.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(String(e)));
      page.on('dialog', (d) => void d.accept());
      await page.goto(`${url}/`, { waitUntil: 'load' });
      await page.waitForSelector('input[type=password]');
      await page.type('input[type=password]', key);
      await page.click('button[type=submit]');
      await page.waitForSelector('header nav');
      if (path !== '/') await page.goto(`${url}/${path}`, { waitUntil: 'load' });
      return page;
    };
    return { url, key, dataDir, browser, open, problems, close };
  } catch (error) {
    await close();
    throw error;
  }
};

/** Type `value` into the input or textarea whose label contains `label`, replacing what it held. */
export const fill = async (page: Page, label: string, value: string): Promise<void> => {
  const handle = await page.waitForSelector(
    `xpath/.//label[contains(., ${JSON.stringify(label)})]//input | .//label[contains(., ${JSON.stringify(label)})]//textarea`,
  );
  // focused and selected through the element itself, not a mouse triple-click at coordinates measured before a
  // late answer moves the form (the typed text then went to whatever the press landed on)
  await handle!.evaluate((el) => {
    const input = el as unknown as { focus(): void; select?: () => void };
    input.focus();
    input.select?.();
  });
  await handle!.type(value);
};

/**
 * Click the button whose text contains `text` once it is enabled: a form enables its submit button on the render
 * after an input changes (a file chosen, a field filled), and a click on the still-disabled button is lost — the
 * test then waits for an outcome that never comes. The click is the element's own (`HTMLElement.click()`, which
 * submits its form as a person's click does), not a mouse event at its coordinates: a listing that arrives and is
 * drawn above the form between measuring the button and pressing the mouse moves the button away, and the press
 * lands on nothing (seen in CI: the Documents page's listing answering after the file was chosen).
 */
export const clickButton = async (page: Page, text: string): Promise<void> => {
  const button = await page.waitForSelector(`xpath/.//button[contains(., ${JSON.stringify(text)}) and not(@disabled)]`);
  await button!.evaluate((b) => (b as unknown as { click(): void }).click());
};

/** Choose `file` in the file input whose label contains `label` (the input's change event fires). */
export const upload = async (page: Page, label: string, file: string): Promise<void> => {
  const input = await page.waitForSelector(
    `xpath/.//label[contains(., ${JSON.stringify(label)})]//input[@type='file']`,
  );
  await (input as unknown as { uploadFile(f: string): Promise<void> }).uploadFile(file);
};

/** Text of the page as a person reads it. */
export const visibleText = (page: Page): Promise<string> =>
  page.evaluate(() => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText);

/** Wait until the page shows `text` (a string or pattern), or fail naming what it showed instead. */
export const waitForText = async (page: Page, text: string | RegExp, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const shown = await visibleText(page);
    if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return;
    if (Date.now() > deadline)
      throw new Error(`the page never showed ${String(text)}; it shows:\n${shown.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
};

/** axe-core's serious and critical violations on the page as it stands (axe's source evaluated over CDP, not via a script tag the CSP would refuse). */
export const axeViolations = async (page: Page): Promise<string[]> => {
  const { source } = (await import('axe-core')).default as unknown as { source: string };
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; help: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: (v.nodes as { target: string[] }[]).map((n) => n.target.join(' ')).join(', '),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes})`);
};
