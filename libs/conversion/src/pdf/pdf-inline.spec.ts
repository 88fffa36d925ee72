// SPDX-License-Identifier: AGPL-3.0-or-later
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isAppError } from '@lectern/contracts';
import { makeNumberedPdf } from '@lectern/testing';
import { createConversionEngine, type PdfEngine } from '../index.js';
import { INLINE_MAX_PAGES, PdfWorkerPool, SINGLE_LANE_MAX_PAGES } from './pdf-worker-pool.js';

// The inline PDF engine (one-shot processes such as `lectern convert`): the engine on the calling thread, worker
// threads only for a document over INLINE_MAX_PAGES pages, and the same results as the worker threads give.
const ADDON = fileURLToPath(new URL('../../native/build/Release/lectern_mupdf.node', import.meta.url));
const ENGINES: PdfEngine[] = existsSync(ADDON) ? ['wasm', 'native'] : ['wasm'];

const short = makeNumberedPdf(3);
const long = makeNumberedPdf(INLINE_MAX_PAGES + 8);

describe('lanes: how many engines a document is spread over', () => {
  it('one worker up to SINGLE_LANE_MAX_PAGES pages, every worker past it; the inline engine alone up to INLINE_MAX_PAGES', async () => {
    const threaded = new PdfWorkerPool(2);
    const inline = new PdfWorkerPool(2, { inline: true });
    try {
      expect(SINGLE_LANE_MAX_PAGES).toBeGreaterThan(INLINE_MAX_PAGES);
      expect([1, SINGLE_LANE_MAX_PAGES, SINGLE_LANE_MAX_PAGES + 1].map((n) => threaded.lanes(n))).toEqual([1, 1, 2]);
      expect([1, INLINE_MAX_PAGES, INLINE_MAX_PAGES + 1].map((n) => inline.lanes(n))).toEqual([1, 1, 2]);
      expect(threaded.threads + inline.threads).toBe(0); // asking starts nothing
    } finally {
      await Promise.all([inline.close(), threaded.close()]);
    }
  });
});

describe.each(ENGINES)('inline PDF engine (%s)', (engine) => {
  it("extracts a short PDF on this thread, starting no worker thread, with the worker threads' result", async () => {
    const inline = new PdfWorkerPool(2, { engine, inline: true });
    const threaded = new PdfWorkerPool(2, { engine });
    try {
      const doc = { key: 'short', mime: 'application/pdf', bytes: short };
      const info = await inline.info(doc);
      expect(info.pageCount).toBe(3);
      expect(inline.lanes(info.pageCount)).toBe(1);
      const pages = await inline.extract(doc, [1, 2, 3]);
      expect(inline.threads).toBe(0);
      expect(pages).toEqual(await threaded.extract(doc, [1, 2, 3]));
      expect(threaded.threads).toBeGreaterThan(0);
      expect((await inline.engineInUse()).engine).toBe(engine);
    } finally {
      await Promise.all([inline.close(), threaded.close()]);
    }
  });

  it('converts a long PDF with worker threads joining in, to the same Markdown', async () => {
    const inline = createConversionEngine({ pdfEngine: engine, inlinePdf: true, pdfWorkers: 2, ocrWorkers: 1 });
    const threaded = createConversionEngine({ pdfEngine: engine, pdfWorkers: 2, ocrWorkers: 1 });
    try {
      const a = await inline.convert({ bytes: long, filename: 'long.pdf' }, { enableOcr: false });
      const b = await threaded.convert({ bytes: long, filename: 'long.pdf' }, { enableOcr: false });
      expect(a.page_count).toBe(INLINE_MAX_PAGES + 8);
      expect(a.markdown).toBe(b.markdown);
      expect(a.pages).toEqual(b.pages);
      expect(a.markdown).toContain(`Page ${INLINE_MAX_PAGES + 8} line 12`);
    } finally {
      await Promise.all([inline.close(), threaded.close()]);
    }
  });

  it('stops at its deadline between batches of pages, then converts the next document', async () => {
    const inline = createConversionEngine({ pdfEngine: engine, inlinePdf: true, pdfWorkers: 1, ocrWorkers: 1 });
    try {
      const big = makeNumberedPdf(400, 30);
      const failed = await inline
        .convert({ bytes: big, filename: 'big.pdf' }, { enableOcr: false, timeoutMs: 20 })
        .catch((e: unknown) => e);
      expect(isAppError(failed) && failed.code).toBe('timeout');
      const next = await inline.convert({ bytes: short, filename: 'short.pdf' }, { enableOcr: false });
      expect(next.page_count).toBe(3);
      expect(next.markdown).toContain('Page 3 line 12');
    } finally {
      await inline.close();
    }
  });
});
