// SPDX-License-Identifier: AGPL-3.0-or-later
// What loading a module costs a fresh process: `import-cost.ts NAME` imports one module (dynamically, after the
// first CPU reading) and prints the CPU seconds of that import. Run compiled (compiled.ts), as the conversion bench.
const cpu = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e6;
const loaders: Record<string, () => Promise<unknown>> = {
  zod: () => import('zod'),
  pino: () => import('pino'),
  contracts: () => import('@lectern/contracts'),
  runtime: () => import('@lectern/runtime'),
  chunking: () => import('@lectern/chunking'),
  conversion: () => import('@lectern/conversion'),
};
const name = process.argv[2] ?? '';
const load = loaders[name];
if (load === undefined) throw new Error(`unknown module ${name}: one of ${Object.keys(loaders).join(', ')}`);
const c0 = process.cpuUsage();
const t0 = performance.now();
await load();
process.stdout.write(
  `${JSON.stringify({ module: name, cpu_seconds: cpu(process.cpuUsage(c0)), wall_seconds: (performance.now() - t0) / 1000 })}\n`,
);
