#!/usr/bin/env node
// SPDX-License-Identifier: AGPL-3.0-or-later
// Issue 27: CPU-seconds `npm start` spends until the four services answer /health, before (services run through
// `node --import tsx`, TypeScript compiled at start) and after (the production build, dist/), side by side in one run.
//   node bench/startup/startup.bench.mjs [--runs 3] [--before <launcher.mjs>]
// `--before` is the launcher of the tree before the change (e.g. `git show <commit>:tools/start-all.mjs > /tmp/old.mjs`);
// it runs with this checkout as its working directory, so it starts these same apps' sources through tsx. The "after"
// launcher is tools/start-all.mjs on a built tree (the build's own cost is measured once, apart). CPU time is the
// sum of user + system time (/proc/<pid>/stat) of the launcher and every process under it, read the moment all four
// answer; wall time from spawn to then. Runs alternate before/after; the first pair is a warm-up, not reported.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout } from 'node:timers';
import { parseArgs } from 'node:util';
/* global fetch, AbortSignal */

const root = resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, before: { type: 'string' } } });
const runs = Number(values.runs);
const TICK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
// the console (a fifth app since issue 29) is started by the launcher too: its port is set and polled as well
const PORTS = {
  CONVERTER_PORT: 18002,
  DOCUMENT_STORE_PORT: 13002,
  POLICY_KB_PORT: 13003,
  EXTRACTION_API_PORT: 18000,
  ...(process.env.STARTUP_BENCH_NO_CONSOLE ? {} : { CONSOLE_PORT: 13000 }),
};
const SERVICES = Object.keys(PORTS).length;

const cpuOf = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICK; // utime, stime
  } catch {
    return 0;
  }
};
const childrenOf = (pid) => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
};
const treeCpu = (pid) => cpuOf(pid) + childrenOf(pid).reduce((sum, child) => sum + treeCpu(child), 0);
const healthy = async (port) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
};

const measure = async (launcher) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-startup-'));
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [launcher], {
    cwd: root,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(PORTS).map(([k, v]) => [k, String(v)])),
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      MCP_API_KEY: '',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 300_000;
  let up = false;
  while (!up && Date.now() < deadline) {
    up = (await Promise.all(Object.values(PORTS).map(healthy))).every(Boolean);
    if (!up) await new Promise((r) => setTimeout(r, 50));
  }
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = treeCpu(child.pid);
  // each service's own CPU (its process tree), by the app in its command line; the launcher's is the rest
  const perService = {};
  for (const pid of childrenOf(child.pid)) {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const app = /apps\/([a-z-]+)\/src\/main/.exec(cmd)?.[1] ?? `pid ${pid}`;
    perService[app] = treeCpu(pid);
  }
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
  if (!up) throw new Error(`${launcher}: not healthy within 300 s`);
  return { cpu, wall, perService };
};

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const after = join(root, 'tools', 'start-all.mjs');
const launchers = { ...(values.before ? { before: resolve(values.before) } : {}), after };
const results = Object.fromEntries(Object.keys(launchers).map((k) => [k, []]));
const loads = [];
for (let i = 0; i <= runs; i += 1)
  for (const [name, launcher] of Object.entries(launchers)) {
    loads.push(loadavg());
    const r = await measure(launcher);
    process.stderr.write(
      `${i === 0 ? 'warm-up ' : ''}${name}: ${r.cpu.toFixed(2)} CPU-s, ${r.wall.toFixed(2)} s wall (load ${loads.at(-1)})\n`,
    );
    if (i > 0) results[name].push(r);
  }
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
process.stdout.write(
  `| launcher | runs | CPU-s to ${SERVICES} healthy (median) | per service | wall s (median) | CPU-s each run |\n|---|---|---|---|---|---|\n`,
);
for (const [name, rs] of Object.entries(results)) {
  const cpu = median(rs.map((r) => r.cpu));
  process.stdout.write(
    `| ${name} | ${rs.length} | ${cpu.toFixed(2)} | ${(cpu / SERVICES).toFixed(2)} | ${median(rs.map((r) => r.wall)).toFixed(2)} | ${rs.map((r) => r.cpu.toFixed(2)).join(', ')} |\n`,
  );
}
const apps = [...new Set(Object.values(results).flatMap((rs) => rs.flatMap((r) => Object.keys(r.perService))))].sort();
process.stdout.write(`\nEach service's own CPU-s to healthy (median over the runs; launcher not included):\n\n`);
process.stdout.write(`| launcher | ${apps.join(' | ')} |\n|---|${apps.map(() => '---:').join('|')}|\n`);
for (const [name, rs] of Object.entries(results))
  process.stdout.write(
    `| ${name} | ${apps.map((a) => median(rs.map((r) => r.perService[a] ?? 0)).toFixed(2)).join(' | ')} |\n`,
  );
process.stdout.write(`\nload (1/5/15 min) before each run: ${loads.join('; ')}\n`);
