// SPDX-License-Identifier: AGPL-3.0-or-later
// Where the CPU of a first and of a warm conversion goes, by thread and kind of work, from V8's sampling profiles
// (`--cpu-prof`: the main thread and the PDF worker each write one). The compiled convert-one (as the bench runs
// ours) in a fresh process, twice per document: once converting only once (*first*: modules loaded, worker started,
// the conversion), once converting ten times (*warm* = (ten − first) / 9). V8's sample intervals are wall time (on a
// loaded machine they include time the thread waited for a core) and sampling has its own overhead: these say where
// the time goes, not how much; the process.cpuUsage figures of warm-parts.ts, first-parts.ts and the bench do.
//   npx tsx bench/conversion/profile-parts.ts FILE...   (LECTERN_PDF_ENGINE=native|wasm; PROFILE_INTERVAL_US=500)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledConvertOne } from './compiled.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const here = dirname(fileURLToPath(import.meta.url));
const program = await compiledConvertOne(join(here, 'convert-one.ts'));
const interval = process.env['PROFILE_INTERVAL_US'] ?? '500';

/** The kind of work a sample was in (its innermost frame). */
function kind(worker: boolean, fn: string, url: string): string | null {
  if (fn === '(idle)') return null;
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(program)') return 'V8 itself (compiling, runtime)';
  if (fn === 'postMessage' || fn === 'dispatch') return 'messages (structured clone)';
  if (worker && url.includes('worker.bundle') && ['extract', 'info', 'close', 'unpack'].includes(fn))
    return 'mupdf (addon calls)';
  if (url.startsWith('wasm://')) return 'mupdf (WASM)';
  if (url.startsWith('node:') || url === '') return 'Node (module loader, worker start, fs, natives)';
  if (url.includes('node_modules/zod')) return 'zod (options, result)';
  if (url.includes('node_modules/')) return 'other npm code';
  return worker ? 'layout (JS, worker)' : 'Markdown build, page texts, index (JS, main)';
}

/** ms of CPU per `thread:kind` in the profiles written to `dir`. */
function categories(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) {
    const p = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile;
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const worker = p.nodes.some((n) => n.callFrame.url.includes('pdf-page.worker'));
    for (let i = 0; i < p.samples.length; i++) {
      const cf = byId.get(p.samples[i] ?? -1)?.callFrame;
      const k = cf ? kind(worker, cf.functionName, cf.url) : null;
      if (!k) continue;
      const key = `${worker ? 'worker' : 'main'}: ${k}`;
      out.set(key, (out.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
    }
  }
  return out;
}

function profiled(file: string, firstOnly: boolean): { parts: Map<string, number>; run: Record<string, number> } {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-prof-'));
  try {
    const r = spawnSync(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${interval}`, program, 'text', file],
      { encoding: 'utf8', env: { ...process.env, CONVERT_ONE_FIRST_ONLY: firstOnly ? '1' : '0' } },
    );
    if (r.status !== 0) throw new Error(r.stderr);
    return { parts: categories(dir), run: JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const file of process.argv.slice(2)) {
  const first = profiled(file, true);
  const all = profiled(file, false);
  const keys = [...new Set([...first.parts.keys(), ...all.parts.keys()])].sort();
  const rows = Object.fromEntries(
    keys.map((k) => {
      const f = first.parts.get(k) ?? 0;
      const warm = ((all.parts.get(k) ?? 0) - f) / 9;
      return [k, { first: Math.round(f * 10) / 10, warm: Math.round(warm * 10) / 10 }];
    }),
  );
  process.stdout.write(
    `${JSON.stringify({ file: basename(file), first_cpu_ms: (first.run['cold_cpu_seconds'] ?? 0) * 1000, import_cpu_ms: ((first.run['cold_import_cpu_seconds'] ?? 0) - (first.run['cold_cpu_seconds'] ?? 0)) * 1000, warm_cpu_ms: (all.run['warm_cpu_seconds'] ?? 0) * 1000, parts: rows })}\n`,
  );
}
