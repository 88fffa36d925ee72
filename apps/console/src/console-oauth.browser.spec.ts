// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ALL_LECTERN_SCOPES,
  listenOnFreePort,
  silentLogger,
  spawnService,
  startOidcIdp,
  type SpawnedService,
  type TestIdp,
} from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { axeViolations, CHROMIUM, visibleText, waitForText } from './console-stack.testkit.js';
import { buildUi } from './ui-build.js';

type StorageLike = { sessionStorage: { getItem(k: string): string | null }; location: { href: string } };

/**
 * The console's OAuth sign-in (issue 29 with issue 30's AUTH_MODE=oauth) in real headless chromium: a real OpenID
 * provider (oidc-provider) on loopback, the converter in its own process as an OAuth resource server, the console
 * in front. The person clicks "Sign in", the provider signs them in (its interaction finishes at once for `alice`),
 * the browser comes back with a code, the console exchanges it (PKCE) and the token opens the System page's queue
 * API (lectern:admin) through the proxy.
 */
describe('console OAuth sign-in in a browser', () => {
  let idp: TestIdp;
  let converter: SpawnedService;
  let app: FastifyInstance;
  let browser: Browser;
  let url = '';
  let dataDir = '';
  const resource = 'http://lectern.test/';
  const problems: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-console-oauth-'));
    // the provider's clients are read at its first request: the console's redirect URI is known by then
    idp = await startOidcIdp({
      clients: () => [{ client_id: 'lectern-console', scope: ALL_LECTERN_SCOPES, redirect_uris: [`${url}/`] }],
    });
    const [spawned] = await Promise.all([
      spawnService('apps/converter/src/main.ts', 'CONVERTER_PORT', {
        DATA_DIR: dataDir,
        AUTH_MODE: 'oauth',
        OAUTH_ISSUER: idp.issuer,
        OAUTH_RESOURCE: resource,
        ENABLE_OCR: 'false',
      }),
      buildUi(join(dataDir, 'ui')),
    ]);
    converter = spawned;
    // the other three services are not started: a closed port (the page says they are down)
    const closed = 'http://127.0.0.1:9';
    app = buildApp({
      config: loadConfig({
        CONSOLE_CONVERTER_URL: converter.baseUrl,
        CONSOLE_DOCUMENT_STORE_URL: closed,
        CONSOLE_POLICY_KB_URL: closed,
        CONSOLE_EXTRACTION_API_URL: closed,
        CONSOLE_OAUTH_ISSUER: idp.issuer,
        CONSOLE_OAUTH_CLIENT_ID: 'lectern-console',
        CONSOLE_OAUTH_RESOURCE: resource,
      }),
      logger: silentLogger(),
      uiDir: join(dataDir, 'ui'),
    });
    url = await listenOnFreePort(app);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1280,900'],
      defaultViewport: { width: 1280, height: 900 },
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await app?.close();
    await converter?.stop();
    await idp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const newPage = async (): Promise<Page> => {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    return page;
  };

  it('signs in with authorization code + PKCE and sends the token as the bearer: the queues answer', async () => {
    const page = await newPage();
    await page.goto(`${url}/#/system`, { waitUntil: 'load' });
    const signIn = await page.waitForSelector("xpath/.//button[contains(., 'Sign in')]");
    expect(await axeViolations(page)).toEqual([]);
    // without a token the services refuse the console's proxy
    expect(await page.evaluate(async () => (await fetch('/svc/converter/admin/queues')).status)).toBe(401);
    await Promise.all([page.waitForNavigation(), signIn!.click()]);
    // to the provider and back: the code is exchanged, the address bar cleaned, the page the person was on kept
    await page.waitForSelector('header nav', { timeout: 60_000 }).catch(async (error: unknown) => {
      throw new Error(`not signed in at ${page.url()}: ${(await visibleText(page)).slice(0, 500)} (${String(error)})`);
    });
    await waitForText(page, 'Queues of converter (embedded)');
    expect(await visibleText(page)).toMatch(/conversion\s+0\s+0\s+0/);
    const { token, href } = await page.evaluate(() => {
      const g = globalThis as unknown as StorageLike;
      return { token: g.sessionStorage.getItem('lectern.console.key'), href: g.location.href };
    });
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(href).toBe(`${url}/#/system`);
    // the token is for the services' resource, with the scopes asked for
    const claims = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: idp.issuer, aud: resource, sub: 'alice' });
    expect(String(claims['scope'])).toContain('lectern:admin');
    expect(await axeViolations(page)).toEqual([]);
    // signing out forgets the token
    const out = await page.waitForSelector("xpath/.//button[contains(., 'Sign out')]");
    await out!.click();
    await page.waitForSelector("xpath/.//button[contains(., 'Sign in')]");
    expect(problems).toEqual([]);
  }, 120_000);

  it('refuses a redirect back it did not start (state), in plain words, and a forged token exchange', async () => {
    const page = await newPage();
    await page.goto(`${url}/?code=stolen-code&state=forged`, { waitUntil: 'load' });
    await waitForText(page, 'This sign-in was not started here');
    expect(await page.evaluate(() => (globalThis as unknown as StorageLike).location.href)).toBe(`${url}/`);
    const forged = await fetch(`${url}/console/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        code: 'stolen-code',
        code_verifier: 'v'.repeat(43),
        redirect_uri: `${url}/`,
        client_id: 'lectern-console',
      }),
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({
      error: { code: 'invalid_grant', message: 'The sign-in server refused the sign-in; sign in again.' },
    });
    const otherClient = await fetch(`${url}/console/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'someone-else' }),
    });
    expect([otherClient.status, ((await otherClient.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'invalid_arguments',
    ]);
    expect(problems).toEqual([]);
  }, 60_000);
});
