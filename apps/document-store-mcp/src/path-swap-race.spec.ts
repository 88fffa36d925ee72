// SPDX-License-Identifier: AGPL-3.0-or-later
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handmadePdf, testModelEnv } from '@lectern/testing';
import { startDocumentStore, type RunningDocumentStore } from './document-store.testkit.js';

/**
 * A swapper process flips `target` as fast as it can between a hard link to `regular` and each of `others`
 * (symlinks or device nodes made aside and renamed over it: every flip is atomic), until killed.
 */
const SWAPPER = `
const fs = require('fs');
const [target, regular, ...others] = process.argv.slice(1);
let i = 0;
for (;;) {
  const tmp = target + '.swap';
  fs.rmSync(tmp, { force: true });
  fs.linkSync(regular, tmp);
  fs.renameSync(tmp, target);
  const other = others[i++ % others.length];
  fs.rmSync(tmp, { force: true });
  if (other.startsWith('dev:')) fs.linkSync(other.slice(4), tmp); else fs.symlinkSync(other, tmp);
  fs.renameSync(tmp, target);
}`;

const startSwapper = (args: string[]): ChildProcess =>
  spawn(process.execPath, ['-e', SWAPPER, ...args], { stdio: 'ignore' });

const INSIDE_TEXT = 'Inside the roots: a drainage statement for the swap race.';
const SECRET = 'OUTSIDE-SECRET-7f3a';

/**
 * Issue 12 #2: a file swapped between the roots check and the read. The ingest reads one descriptor (no final
 * symlink followed, a regular file, its real path inside a root), so whatever the swapper does, the text
 * outside DOCUMENT_ROOTS is never ingested, and a swap to an endless device never hashes forever.
 */
describe('ingest_document racing a path swapper', () => {
  let ds: RunningDocumentStore;
  let root: string;
  let outside: string;
  let swapper: ChildProcess | undefined;

  beforeAll(async () => {
    ds = await startDocumentStore({ ...testModelEnv(), INGEST_TIMEOUT_S: '60' });
    // the testkit's roots are its DATA_DIR and the corpora: a folder in DATA_DIR is inside, a new temp dir is not
    root = join(ds.dataDir, 'incoming');
    mkdirSync(root);
    outside = mkdtempSync(join(tmpdir(), 'lectern-outside-'));
    writeFileSync(join(root, 'regular.pdf'), handmadePdf({ text: INSIDE_TEXT }));
    writeFileSync(join(outside, 'secret.pdf'), handmadePdf({ text: `${SECRET} must never be ingested` }));
  }, 60_000);
  afterEach(() => {
    swapper?.kill('SIGKILL');
    swapper = undefined;
  });
  afterAll(async () => {
    await ds.stop();
    rmSync(outside, { recursive: true, force: true });
  });

  const ingestRacing = async (target: string, runs: number, prefix: string) => {
    const outcomes: Array<{ ok: true; id: string } | { ok: false; type: string }> = [];
    for (let i = 0; i < runs; i++) {
      const { isError, body } = await ds.call('ingest_document', {
        file_path: target,
        application_ref: `${prefix}/${i}`,
      });
      const b = body as { document_id?: string; error_type?: string; status: string };
      outcomes.push(isError ? { ok: false, type: String(b.error_type) } : { ok: true, id: String(b.document_id) });
    }
    return outcomes;
  };

  it('never ingests the text of a symlinked file outside the roots', async () => {
    const target = join(root, 'plan.pdf');
    writeFileSync(target, handmadePdf({ text: INSIDE_TEXT }));
    swapper = startSwapper([target, join(root, 'regular.pdf'), join(outside, 'secret.pdf')]);
    const outcomes = await ingestRacing(target, 40, 'RACE');
    swapper.kill('SIGKILL');

    const refused = outcomes.filter((o) => !o.ok);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expect(['forbidden_path', 'file_not_found']).toContain(o.ok ? '' : o.type);
    for (const o of outcomes) {
      if (!o.ok) continue;
      const { body } = await ds.call('get_document_text', { document_id: o.id });
      expect((body as { text: string }).text).toContain('drainage statement');
      expect(JSON.stringify(body)).not.toContain(SECRET);
    }
    const { body: hits } = await ds.call('search_application_docs', { query: SECRET, max_results: 20 });
    const found = (hits as { results: Array<{ text: string }> }).results.map((r) => r.text).join('\n');
    expect(found).not.toContain(SECRET);
  }, 180_000);

  it('refuses a swap to /dev/zero (a symlink or the device itself) and stays responsive', async () => {
    const target = join(root, 'zero.pdf');
    writeFileSync(target, handmadePdf({ text: INSIDE_TEXT }));
    const others = ['/dev/zero'];
    // a device node inside the roots (root may make one; elsewhere the symlink case still runs)
    const device = join(root, 'zero-device');
    if (spawnSync('mknod', [device, 'c', '1', '5']).status === 0) others.push(`dev:${device}`);
    swapper = startSwapper([target, join(root, 'regular.pdf'), ...others]);
    const started = Date.now();
    const outcomes = await ingestRacing(target, 30, 'ZERO');
    swapper.kill('SIGKILL');
    // every call ended promptly, in a success or a typed refusal: nothing read the endless device
    expect(Date.now() - started).toBeLessThan(60_000);
    for (const o of outcomes)
      if (!o.ok) expect(['forbidden_path', 'unsupported_file_type', 'file_not_found']).toContain(o.type);
    expect(outcomes.some((o) => !o.ok)).toBe(true);

    // nothing keeps hashing in the background: an idle second costs little CPU, and the service answers
    const cpu = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 1000));
    const used = process.cpuUsage(cpu);
    expect((used.user + used.system) / 1000).toBeLessThan(500);
    const t0 = Date.now();
    const listed = await ds.call('list_ingested_documents', { application_ref: 'ZERO/0' });
    expect(listed.isError).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2000);
  }, 180_000);
});
