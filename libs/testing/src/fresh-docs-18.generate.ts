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
import type puppeteer from 'puppeteer-core';
import { FRESH_18_DOCS, fresh18Name, fullHtml, type Fresh18Doc } from './fresh-docs-18.html.js';
import { launchChromium, offlinePage } from './offline-chromium.js';
import { repoRoot } from './paths.js';

/** A header or footer template: one small line, or nothing (chromium needs markup, not an empty string). */
const band = (text: string | undefined, where: 'top' | 'bottom'): string =>
  text === undefined
    ? '<span></span>'
    : `<div style="font-family:'Liberation Sans',sans-serif;font-size:7pt;color:#555;width:100%;margin:0 15mm;` +
      `border-${where === 'top' ? 'bottom' : 'top'}:0.5pt solid #999;padding:2pt 0">${text
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')}</div>`;

const render = async (browser: puppeteer.Browser, doc: Fresh18Doc): Promise<Buffer> => {
  const page = await offlinePage(browser);
  try {
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
  const browser = await launchChromium();
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
