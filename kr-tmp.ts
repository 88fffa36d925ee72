import { readFileSync } from 'node:fs';
import { loadNativeEngine } from './libs/conversion/src/pdf/pdf-native.js';
const bytes = new Uint8Array(readFileSync(process.argv[2]!));
for (let r = 0; r < 3; r++) {
  const e = loadNativeEngine();
  e.info({ key: 'k' }, bytes);
  const t3 = performance.now();
  const pages = e.extract({ key: 'k', pages: [1, 2] }, bytes);
  const t4 = performance.now();
  console.log('extract', (t4 - t3).toFixed(1), pages.map((p) => (p as any).imageRatio));
  e.close();
}
