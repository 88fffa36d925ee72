// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { corpusFile } from '@lectern/testing';
import { createConversionEngine } from '../index.js';
import { loadNativeEngine } from './pdf-native.js';

// JPEG 2000 images under the native engine's text pass (native/src/page_device.c, `put_jpx_stand_ins`): mupdf
// 1.21 decodes them when it loads them, so the text pass gives the interpreter a 1x1 stand-in from the resource
// store instead. The Kenilworth Road control plan (2 pages, one JPEG 2000 image each: 864x861 and 1221x1735)
// took 30-70x its text-only time before.
const ADDON = fileURLToPath(new URL('../../native/build/Release/lectern_mupdf.node', import.meta.url));
const PLAN = corpusFile(
  'uk-planning-policy',
  'dataset',
  'Coventry',
  '2. Supplementary Planning Documents (SPD)',
  'Historic Control Plans',
  'Kenilworth Road control plan',
  'Kenilworth_Road_control_plan.pdf',
);
/** The smaller decoded image: 864 x 861 RGB. */
const DECODED_BYTES = 864 * 861 * 3;

describe('JPEG 2000 images in the native text pass', () => {
  it('are not decoded, and the pages keep their image areas (the same as the WASM engine, which decodes them)', async () => {
    if (!existsSync(ADDON)) return expect(existsSync(ADDON)).toBe(false); // no native engine here: nothing to compare
    const bytes = new Uint8Array(readFileSync(PLAN));
    const engine = loadNativeEngine();
    try {
      for (let round = 0; round < 2; round++) {
        const pages = engine.extract({ key: 'plan', pages: [1, 2] }, bytes);
        expect(pages.map((p) => p.imageRatio)).toEqual([expect.closeTo(0.341, 3), expect.closeTo(0.999, 3)]);
        // what mupdf allocated at its peak stays below one decoded image
        expect(engine.memory().peak).toBeLessThan(DECODED_BYTES);
      }
    } finally {
      engine.close();
    }
    const ratios = async (pdfEngine: 'native' | 'wasm'): Promise<number[]> => {
      const conversion = createConversionEngine({ pdfEngine });
      try {
        return (await conversion.convert({ path: PLAN }, { enableOcr: false })).pages.map((p) => p.image_ratio);
      } finally {
        await conversion.close();
      }
    };
    expect(await ratios('native')).toEqual(await ratios('wasm'));
  });
});
