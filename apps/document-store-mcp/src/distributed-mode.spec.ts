import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversionJobId, conversionQueue, policyIngestQueue } from '@lectern/contracts';
import { sha256File } from '@lectern/documents';
import { createPlatform, type Platform } from '@lectern/platform';
import {
  connectMcp,
  fixtureFile,
  fixturesDir,
  makeTextPdf,
  numberedPdfFile,
  silentLogger,
  spawnService,
  startRedis,
  toolText,
  type SpawnedService,
  type TestRedis,
} from '@lectern/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * Distributed mode end to end (issue 17): a real redis-server with persistence on, every app as its own process
 * (`node --import tsx apps/<app>/src/main.ts`, as compose and Kubernetes run them) with two converter workers, real
 * (generated) PDFs ingested through document-store-mcp's MCP endpoint by a real MCP SDK client; then the converter
 * running a job is SIGKILLed and the other converter completes it; then Redis is restarted and nothing queued is
 * lost. One test per stage, in order (each stage starts from the state the previous one left).
 *
 * A policy revision goes through policy-kb-mcp's admin API and the `policy-ingest` queue. Still to add (same file,
 * same processes): an extraction task (`POST /tasks` on extraction-api with ANTHROPIC_BASE_URL pointed at a loopback
 * fake LLM, `libs/testing`'s fake-llm) — extraction-api already runs below.
 */
describe('distributed mode: every app its own process on one Redis', () => {
  const token = 'distributed-e2e-key';
  let redis: TestRedis;
  let redisDir: string;
  let dataDir: string;
  let env: Record<string, string>;
  const services: Record<string, SpawnedService> = {};
  let converters: SpawnedService[] = [];
  let client: Client;
  /** Reads job states the way an operator's `lectern queue` does (no worker here). */
  let observer: Platform;

  const ingest = async (file: string, ref: string) => {
    const result = await client.callTool({ name: 'ingest_document', arguments: { file_path: file, application_ref: ref } }, undefined, {
      timeout: 300_000,
    });
    return { isError: Boolean(result.isError), body: toolText(result) as Record<string, unknown> };
  };
  const startConverter = () => spawnService('apps/converter/src/main.ts', 'CONVERTER_PORT', { ...env, CONVERTER_CONCURRENCY: '1', MAX_PAGES: '5000' });
  // the services run with default conversion settings, so a file's job id is `convert-<sha256>` (no option suffix)
  const jobOf = async (file: string) => observer.queue(conversionQueue).getJob(conversionJobId(await sha256File(file)));

  beforeAll(async () => {
    redisDir = mkdtempSync(join(tmpdir(), 'lectern-e2e-redis-'));
    dataDir = mkdtempSync(join(tmpdir(), 'lectern-e2e-data-'));
    redis = await startRedis({ persistDir: redisDir });
    env = {
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      DOCUMENT_ROOTS: fixturesDir(),
      MCP_API_KEY: token,
      // a killed worker's job is re-queued a second after its last lock renewal; three stalls allowed
      QUEUE_LOCK_MS: '1000',
      QUEUE_STALL_LIMIT: '3',
    };
    const started = await Promise.all([
      startConverter(),
      startConverter(),
      spawnService('apps/document-store-mcp/src/main.ts', 'DOCUMENT_STORE_PORT', { ...env, INGEST_TIMEOUT_S: '300' }),
      spawnService('apps/policy-kb-mcp/src/main.ts', 'POLICY_KB_PORT', env),
      spawnService('apps/extraction-api/src/main.ts', 'EXTRACTION_API_PORT', env),
    ]);
    const [c1, c2, documentStore, policyKb, extraction] = started as [SpawnedService, SpawnedService, SpawnedService, SpawnedService, SpawnedService];
    converters = [c1, c2];
    Object.assign(services, { 'document-store-mcp': documentStore, 'policy-kb-mcp': policyKb, 'extraction-api': extraction });
    client = await connectMcp(services['document-store-mcp']!.baseUrl, 'streamable-http', { token });
    observer = createPlatform({ dataDir, log: silentLogger(), redisUrl: redis.url });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await observer?.close();
    await Promise.all([...converters, ...Object.values(services)].map((s) => s.stop()));
    await redis?.stop();
    rmSync(redisDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every app as its own healthy process, with authentication on', async () => {
    for (const service of [...converters, ...Object.values(services)]) {
      expect((await fetch(`${service.baseUrl}/health`)).status).toBe(200);
      expect((await fetch(`${service.baseUrl}/metrics`)).status).toBe(401);
    }
    expect(new Set(converters.map((c) => c.child.pid)).size).toBe(2);
  });

  it('ingests PDFs through the MCP endpoint; converter workers convert them, the store answers searches', async () => {
    const files = [3, 5, 7].map((pages) => numberedPdfFile(pages, `e2e-${pages}-pages.pdf`));
    const results = await Promise.all(files.map((file, i) => ingest(file, `E2E/${i + 1}`)));
    for (const r of results) expect(r).toMatchObject({ isError: false, body: { status: 'success', extraction_method: 'text_layer' } });
    const pids = new Set(converters.map((c) => String(c.child.pid)));
    for (const file of files) {
      const job = await jobOf(file);
      expect(job).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(pids.has(job?.worker?.split(':').pop() ?? '')).toBe(true);
    }
    const search = await client.callTool({ name: 'search_application_docs', arguments: { query: 'Page 6 line 3 quick brown fox', application_ref: 'E2E/3' } });
    expect((toolText(search) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  }, 300_000);

  it('takes a policy revision uploaded through the admin API through the policy-ingest queue to active', async () => {
    const kb = services['policy-kb-mcp']!.baseUrl;
    const auth = { authorization: `Bearer ${token}` };
    const created = await fetch(`${kb}/api/policies`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'E2E_PLAN', title: 'E2E Local Plan', description: 'distributed test', category: 'local_plan' }),
    });
    expect(created.status).toBe(201);
    const form = new FormData();
    form.append('version_label', 'January 2025');
    form.append('effective_from', '2025-01-01');
    form.append('file', new Blob([makeTextPdf([['# Policy H1', 'Housing density of at least 40 dwellings per hectare near stations.'], ['# Policy T2', 'Cycle parking for every new home.']])]), 'plan.pdf');
    const accepted = await fetch(`${kb}/api/policies/E2E_PLAN/revisions`, { method: 'POST', headers: auth, body: form });
    expect(accepted.status).toBe(202);
    const { revision, job_id: jobId } = (await accepted.json()) as { revision: { revision_id: string; status: string }; job_id: string };
    expect(revision.status).toBe('processing');
    let settled: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i += 1) {
      settled = (await (await fetch(`${kb}/api/policies/E2E_PLAN/revisions/${revision.revision_id}`, { headers: auth })).json()) as Record<string, unknown>;
      if (settled['status'] !== 'processing') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(settled).toMatchObject({ status: 'active', page_count: 2, error: null });
    expect(settled['chunk_count']).toBeGreaterThan(0);
    // the job went through Redis: any policy-kb-mcp replica (or `lectern queue`) sees it
    expect(await observer.queue(policyIngestQueue).getJob(jobId)).toMatchObject({ status: 'succeeded' });
  }, 300_000);

  it('completes a job on the other converter when the one running it is killed mid-job', async () => {
    // 3000 short pages (each over the 10 characters below which a page is OCRd): a few seconds of conversion, long
    // enough to kill its worker mid-job, and little text to embed
    // Every page a different 13-word sentence: text repeated across pages (a line, or a short paragraph) is furniture
    // to the conversion and the chunker and would be removed.
    const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'te', 'vo', 'zu'];
    const word = (n: number): string => (n.toString(8).split('').map((d) => syllables[Number(d)]).join('') || 'a') + 'n';
    const big = fixtureFile(
      'e2e-3000-pages.pdf',
      makeTextPdf(Array.from({ length: 3000 }, (_, p) => [Array.from({ length: 13 }, (_, w) => word(p * 13 + w)).join(' ')])),
    );
    const ingesting = ingest(big, 'E2E/KILL');
    let victim: SpawnedService | undefined;
    for (let i = 0; i < 6000 && !victim; i += 1) {
      const job = await jobOf(big);
      if (job?.status === 'succeeded') throw new Error('the job finished before a converter could be killed: make the document larger');
      const pid = job?.status === 'running' ? job.worker?.split(':').pop() : undefined;
      victim = converters.find((c) => String(c.child.pid) === pid);
      if (!victim) await new Promise((r) => setTimeout(r, 20));
    }
    if (!victim) throw new Error('no converter ever ran the job');
    victim.child.kill('SIGKILL');
    const survivor = converters.find((c) => c !== victim)!;
    converters = [survivor];

    const result = await ingesting;
    if (result.body['status'] !== 'success') throw new Error(`ingest failed: ${JSON.stringify(result.body)}`);
    expect(result.body).toMatchObject({ status: 'success', extraction_method: 'text_layer' });
    expect(result.body['chunks_created']).toBeGreaterThan(0);
    const job = await jobOf(big);
    expect(job).toMatchObject({ status: 'succeeded' });
    expect(job?.attempts).toBeGreaterThanOrEqual(2);
    expect(job?.worker?.split(':').pop()).toBe(String(survivor.child.pid));
  }, 300_000);

  it('loses nothing queued when Redis restarts (persistence on)', async () => {
    // No converter for a while: the ingests' conversion jobs wait in Redis.
    await Promise.all(converters.map((c) => c.stop()));
    converters = [];
    const files = [4, 6].map((pages) => numberedPdfFile(pages, `e2e-restart-${pages}-pages.pdf`));
    const ingesting = files.map((file, i) => ingest(file, `E2E/R${i + 1}`));
    for (const file of files) {
      for (let i = 0; i < 1000 && (await jobOf(file))?.status !== 'queued'; i += 1) await new Promise((r) => setTimeout(r, 20));
      expect(await jobOf(file)).toMatchObject({ status: 'queued' });
    }

    await redis.stop();
    redis = await startRedis({ port: redis.port, persistDir: redisDir });
    for (const file of files) expect(await jobOf(file)).toMatchObject({ status: 'queued' });

    converters = [await startConverter()];
    const results = await Promise.all(ingesting);
    for (const r of results) expect(r).toMatchObject({ isError: false, body: { status: 'success' } });
    for (const file of files) expect(await jobOf(file)).toMatchObject({ status: 'succeeded' });
  }, 300_000);
});
