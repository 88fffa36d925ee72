// SPDX-License-Identifier: AGPL-3.0-or-later
/*
 * Renders fresh variant 18's documents (fresh-docs-18.html.ts) to PDF with Debian's chromium through puppeteer-core,
 * into libs/testing/fixtures/fresh-18/<name>.pdf (committed: the tests and the bench do not start a browser).
 * JavaScript is disabled and every request but the page itself is refused (no network); A4 or Letter as the
 * document says, printed backgrounds, a running header/footer line where the document has one.
 *
 *   npx tsx libs/testing/src/fresh-docs-18.generate.ts        (CHROMIUM_PATH overrides /usr/bin/chromium)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { FRESH_18_DOCS, fresh18Name, fullHtml, type Fresh18Doc } from './fresh-docs-18.html.js';
import { repoRoot } from './paths.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** A header or footer template: one small line, or nothing (chromium needs markup, not an empty string). */
const band = (text: string | undefined, where: 'top' | 'bottom'): string =>
  text === undefined
    ? '<span></span>'
    : `<div style="font-family:'Liberation Sans',sans-serif;font-size:7pt;color:#555;width:100%;margin:0 15mm;` +
      `border-${where === 'top' ? 'bottom' : 'top'}:0.5pt solid #999;padding:2pt 0">${text
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')}</div>`;

const render = async (browser: puppeteer.Browser, doc: Fresh18Doc): Promise<Buffer> => {
  const page = await browser.newPage();
  try {
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (/^(about|data):/.test(request.url())) void request.continue();
      else void request.abort();
    });
    await page.setContent(fullHtml(doc), { waitUntil: 'load' });
    const pdf = await page.pdf({
      format: doc.format,
      printBackground: true,
      margin: { top: '20mm', bottom: '20mm', left: '18mm', right: '18mm' },
      displayHeaderFooter: doc.header !== undefined || doc.footer !== undefined,
      headerTemplate: band(doc.header, 'top'),
      footerTemplate: band(doc.footer, 'bottom'),
    });
    return Buffer.from(pdf);
  } finally {
    await page.close();
  }
};

const main = async (): Promise<void> => {
  const dir = join(repoRoot(), 'libs', 'testing', 'fixtures', 'fresh-18');
  mkdirSync(dir, { recursive: true });
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    for (const doc of FRESH_18_DOCS) {
      const pdf = await render(browser, doc);
      writeFileSync(join(dir, fresh18Name(doc)), pdf);
      process.stdout.write(`${fresh18Name(doc)} ${pdf.length} bytes\n`);
    }
  } finally {
    await browser.close();
  }
};

await main();
