// SPDX-License-Identifier: AGPL-3.0-or-later
import { RestErrorSchema } from '@lectern/contracts';
import type { ConversionEngine } from '@lectern/conversion';
import { listenOnFreePort, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { postFile } from './converter.testkit.js';
import { composeConverter, type ComposedConverter } from './compose.js';

const doc = (n: number) => ({
  bytes: new TextEncoder().encode(`# Admission ${n}\n\nDocument ${n}.\n`),
  filename: `admission-${n}.md`,
});

/** Issue 12, defect 4: `/convert` ran every request's conversion at once, however many arrived. */
describe('POST /convert admission (CONVERTER_CONCURRENCY=1, CONVERT_MAX_WAITING=1)', () => {
  let app: FastifyInstance;
  let services: ComposedConverter;
  let dataDir: string;
  let baseUrl: string;
  let started = 0;
  let inFlight = 0;
  let peak = 0;
  let open: () => void = () => {};
  let gate = Promise.resolve();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'lectern-admission-'));
    const config = loadConfig({ DATA_DIR: dataDir, CONVERTER_CONCURRENCY: '1', CONVERT_MAX_WAITING: '1' });
    // The real conversion, held at a gate so the test decides when the running one finishes.
    const instrument = (engine: ConversionEngine): ConversionEngine => ({
      ...engine,
      convert: async (input, opts) => {
        started += 1;
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        try {
          await gate;
          return await engine.convert(input, opts);
        } finally {
          inFlight -= 1;
        }
      },
    });
    services = composeConverter(config, silentLogger(), { instrument });
    app = buildApp({ config, logger: silentLogger(), conversion: services.conversion });
    baseUrl = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
    for (const step of services.platform.shutdownSteps()) await step.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const track = (promise: Promise<Response>) => {
    const tracked: { promise: Promise<Response>; response?: Response } = { promise };
    void promise.then((r) => (tracked.response = r));
    return tracked;
  };

  const until = async (condition: () => boolean) => {
    for (let i = 0; i < 500 && !condition(); i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(condition()).toBe(true);
  };

  it('runs one conversion, queues one request, answers the rest 503 with Retry-After, then serves again', async () => {
    gate = new Promise<void>((resolve) => (open = resolve));
    const first = postFile(baseUrl, '/convert', doc(1));
    await until(() => started === 1);

    // Three more at once: exactly one gets the waiting place, whichever it is; two are refused at once.
    const rest = [2, 3, 4].map((n) => track(postFile(baseUrl, '/convert', doc(n))));
    await until(() => rest.filter((t) => t.response).length === 2);
    await new Promise((r) => setTimeout(r, 300));
    const refused = rest.flatMap((t) => (t.response ? [t.response] : []));
    expect(refused).toHaveLength(2); // the third is still waiting
    for (const response of refused) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(RestErrorSchema.parse(await response.json()).error.code).toBe('overloaded');
    }
    expect(started).toBe(1);

    open();
    const answers = await Promise.all([first, ...rest.map((t) => t.promise)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 503, 503]);
    expect(peak).toBe(1);
    expect(started).toBe(2);

    const again = await postFile(baseUrl, '/convert', doc(5));
    expect(again.status).toBe(200);
  });

  it('frees the waiting place of a client that hung up', async () => {
    gate = new Promise<void>((resolve) => (open = resolve));
    const before = started;
    const running = postFile(baseUrl, '/convert', doc(6));
    await until(() => started === before + 1);
    const quitter = new AbortController();
    const form = new FormData();
    form.append('file', new Blob([doc(7).bytes]), doc(7).filename);
    const waiting = fetch(`${baseUrl}/convert`, { method: 'POST', body: form, signal: quitter.signal }).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 200));
    quitter.abort();
    await waiting;
    await new Promise((r) => setTimeout(r, 100));
    const next = postFile(baseUrl, '/convert', doc(8)); // takes the freed waiting place instead of a 503
    const raced = await Promise.race([next.then((r) => r.status), new Promise((r) => setTimeout(r, 500, 'waiting'))]);
    expect(raced).toBe('waiting');
    open();
    expect((await running).status).toBe(200);
    expect((await next).status).toBe(200);
  });
});
