// SPDX-License-Identifier: AGPL-3.0-or-later
// Child of first-parts.ts (see there): one fresh process, CPU ms of each step on stdout as one JSON line.
const ms = (u: NodeJS.CpuUsage): number => Math.round((u.user + u.system) / 100) / 10;
const c0 = process.cpuUsage();
const { createConversionEngine } = await import('@lectern/conversion');
const tImport = ms(process.cpuUsage(c0));
const engine = createConversionEngine({ pdfEngine: 'native', ocrEngine: 'native' });
const path = process.argv[2] ?? '';
let c = process.cpuUsage();
if (process.env['FIRST_PARTS_NO_WARM'] !== '1') await engine.warm({ ocr: false });
const tWarm = ms(process.cpuUsage(c));
const out: Record<string, number> = { import: tImport, start_worker: tWarm };
for (let i = 1; i <= 4; i++) {
  c = process.cpuUsage();
  await engine.convert({ path });
  out[`conversion_${i}`] = ms(process.cpuUsage(c));
}
out['process'] = ms(process.cpuUsage());
await engine.close();
process.stdout.write(`${JSON.stringify(out)}\n`);
