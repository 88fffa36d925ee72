// SPDX-License-Identifier: AGPL-3.0-or-later
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import { closeHttp } from './close-http.js';
import { createHttpApp } from './http-app.js';

describe('closeHttp', () => {
  it('lets a request in flight finish within the grace period', async () => {
    const app = createHttpApp({ service: 't', logger: silentLogger(), apiKey: undefined });
    let started!: () => void;
    const handlerStarted = new Promise<void>((r) => (started = r));
    app.get('/slow', async () => {
      started();
      await new Promise((r) => setTimeout(r, 100));
      return { done: true };
    });
    const baseUrl = await listenOnFreePort(app);
    const response = fetch(`${baseUrl}/slow`).then((r) => r.json());
    await handlerStarted;
    await closeHttp(app, 2_000);
    expect(await response).toEqual({ done: true });
  });

  it('does not let a connection that never finishes hold shutdown past the grace period', async () => {
    const app = createHttpApp({ service: 't', logger: silentLogger(), apiKey: undefined });
    app.get('/hang', async (_req, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      reply.raw.write('started'); // and never ends
    });
    const baseUrl = await listenOnFreePort(app);
    const response = await fetch(`${baseUrl}/hang`);
    expect(response.status).toBe(200);
    const body = response.text();
    await closeHttp(app, 200);
    await expect(body).rejects.toHaveProperty('message');
  });
});
