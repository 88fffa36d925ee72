// SPDX-License-Identifier: AGPL-3.0-or-later
/*
 * Debian's chromium through puppeteer-core for the blind sets' generators (fresh-docs-18/19.generate.ts), run by hand:
 * a page with JavaScript disabled and every request but the page itself refused (no network).
 */
import puppeteer from 'puppeteer-core';

/** `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const launchChromium = (extraArgs: string[] = []): Promise<puppeteer.Browser> =>
  puppeteer.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', ...extraArgs],
  });

/** A new page that runs no script and loads nothing but `about:` and `data:` URLs; the caller closes it. */
export const offlinePage = async (browser: puppeteer.Browser): Promise<puppeteer.Page> => {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (/^(about|data):/.test(request.url())) void request.continue();
    else void request.abort();
  });
  return page;
};
