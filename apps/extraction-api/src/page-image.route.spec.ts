// SPDX-License-Identifier: AGPL-3.0-or-later
import { extractionTaskQueueOf } from '@lectern/extraction';
import { createPlatform } from '@lectern/platform';
import { listenOnFreePort, makeTextPdf, silentLogger } from '@lectern/testing';
import type { FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

/** `GET /tasks/{id}/pages/{page}.png` and `GET /tasks/{id}/evidence/{n}/page.png` over real HTTP, real PDFs. */
describe('extraction-api page images', () => {
  let dataDir: string;
  let app: FastifyInstance;
  let baseUrl: string;
  let platform: ReturnType<typeof createPlatform>;
  const ids = {
    done: '01JKABC123DEFGHJKMNPQRSTV0',
    running: '01JKABC123DEFGHJKMNPQRSTV1',
    docx: '01JKABC123DEFGHJKMNPQRSTV2',
  };
  const quad = [72, 118, 160, 118, 72, 133, 160, 133];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'extraction-pages-'));
    platform = createPlatform({ dataDir, log: silentLogger() });
    const config = loadConfig({
      DATA_DIR: dataDir,
      EXTRACTION_API_KEY: 'k',
      MCP_TOOLS_URL: 'http://127.0.0.1:9/mcp',
      AGENT_MAX_RETRIES: '0',
    });
    const store = platform.taskStore();
    const upload = (id: string, name: string, bytes: Uint8Array) => {
      mkdirSync(join(dataDir, 'uploads', id), { recursive: true });
      const path = join(dataDir, 'uploads', id, name);
      writeFileSync(path, bytes);
      return path;
    };
    const pdf = makeTextPdf([
      ['# One', 'Rated torque 0.64 N.m'],
      ['# Two', 'Mass 0.104 kg'],
    ]);
    for (const [id, name, bytes] of [
      [ids.done, 'original.pdf', pdf],
      [ids.running, 'original.pdf', pdf],
      [ids.docx, 'original.docx', Buffer.from('PK not a pdf')],
    ] as const) {
      store.create({
        task_id: id,
        original_filename: name,
        upload_path: upload(id, name, bytes),
        schema: { a: '' },
        extractor: 'local',
      });
      store.claim(id, { stage: 'extracting' });
    }
    store.succeed(ids.done, {
      task_id: ids.done,
      data: { torque: '0.64 N.m', mass: null },
      evidence: {
        torque: {
          locator: 'h1-c1',
          snippet: 'Rated torque 0.64 N.m',
          grounded: true,
          page: 1,
          quads: [quad],
          page_width: 612,
          page_height: 792,
        },
        mass: { locator: null, snippet: null, warning: 'Not found in document' },
      },
      warnings: [],
      timing: { total_seconds: 1, index_seconds: 0, extraction_seconds: 1 },
      extractor: 'local',
    });
    app = buildApp({ config, logger: silentLogger(), store, taskQueue: extractionTaskQueueOf(platform, config) });
    baseUrl = await listenOnFreePort(app);
  });
  afterAll(async () => {
    await app.close();
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (path: string, auth = true) =>
    fetch(`${baseUrl}${path}`, auth ? { headers: { authorization: 'Bearer k' } } : {});
  const code = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

  it('renders a page of the task document at the asked dpi (bounded), typed errors otherwise', async () => {
    const page = await get(`/tasks/${ids.done}/pages/2.png?dpi=72`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('image/png');
    const body = Buffer.from(await page.arrayBuffer());
    expect(body.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(pngSize(body)).toEqual([612, 792]);
    const fine = Buffer.from(await (await get(`/tasks/${ids.done}/pages/2.png?dpi=144`)).arrayBuffer());
    expect(pngSize(fine)).toEqual([1224, 1584]);
    expect(pngSize(Buffer.from(await (await get(`/tasks/${ids.done}/pages/1.png`)).arrayBuffer()))).toEqual([
      935, 1210,
    ]);
    const cases: [string, number, string][] = [
      [`/tasks/${ids.done}/pages/3.png`, 404, 'page_not_found'],
      [`/tasks/${ids.done}/pages/0.png`, 404, 'page_not_found'],
      [`/tasks/${ids.done}/pages/1.png?dpi=900`, 400, 'invalid_arguments'],
      [`/tasks/${ids.done}/pages/1.png?dpi=abc`, 400, 'invalid_arguments'],
      [`/tasks/${ids.docx}/pages/1.png`, 415, 'not_a_pdf'],
      [`/tasks/01JKABC123DEFGHJKMNPQRSTVW/pages/1.png`, 404, 'task_not_found'],
    ];
    for (const [path, status, errorCode] of cases) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, status]);
      expect(await code(response)).toBe(errorCode);
    }
    expect((await get(`/tasks/${ids.done}/pages/1.png`, false)).status).toBe(401);
  });

  it("renders an evidence entry's page with its quads highlighted, addressed by index or by path", async () => {
    const plain = Buffer.from(await (await get(`/tasks/${ids.done}/pages/1.png?dpi=72`)).arrayBuffer());
    const byIndex = await get(`/tasks/${ids.done}/evidence/0/page.png?dpi=72`);
    expect(byIndex.status).toBe(200);
    const lit = Buffer.from(await byIndex.arrayBuffer());
    expect(pngSize(lit)).toEqual([612, 792]);
    expect(lit.equals(plain)).toBe(false);
    const byPath = Buffer.from(await (await get(`/tasks/${ids.done}/evidence/torque/page.png?dpi=72`)).arrayBuffer());
    expect(byPath.equals(lit)).toBe(true);
    const cases: [string, number, string][] = [
      [`/tasks/${ids.done}/evidence/1/page.png`, 404, 'evidence_not_located'],
      [`/tasks/${ids.done}/evidence/mass/page.png`, 404, 'evidence_not_located'],
      [`/tasks/${ids.done}/evidence/7/page.png`, 404, 'evidence_not_found'],
      [`/tasks/${ids.running}/evidence/0/page.png`, 404, 'evidence_not_found'],
      [`/tasks/${ids.done}/evidence/0/page.png?dpi=10`, 400, 'invalid_arguments'],
    ];
    for (const [path, status, errorCode] of cases) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, status]);
      expect(await code(response)).toBe(errorCode);
    }
    expect((await get(`/tasks/${ids.done}/evidence/0/page.png`, false)).status).toBe(401);
  });

  it('describes both routes in the OpenAPI document', async () => {
    const doc = (await (await get('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const paths = Object.keys(doc.paths);
    expect(paths.some((p) => /^\/tasks\/\{id\}\/pages\/\{page\}/.test(p))).toBe(true);
    expect(doc.paths['/tasks/{id}/evidence/{n}/page.png']).toHaveProperty('get');
  });
});
