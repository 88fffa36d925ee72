// SPDX-License-Identifier: AGPL-3.0-or-later
// The PDF operations of one mupdf engine (open, per-page structured text laid out into blocks and tables,
// image-area ratio, renders, orientation, vector drawing counts), behind one `handle(request)`. Run in a worker
// thread by `pdf-page.worker.ts` (the services' case: a timeout can terminate the thread), or on the calling
// thread by the pool's inline worker (a one-shot process such as `lectern convert`, which saves the ~30 ms a
// worker thread takes to start). Two engines: native (Debian's libmupdf through the addon in
// `libs/conversion/native`, `pdf-native.ts`) for PDF `info`, `extract` and `drawings` when it is built, and
// mupdf's WASM build (npm `mupdf`, text in `pdf-wasm-text.ts`) for everything else and as the fallback.
// `engine` ('auto' | 'native' | 'wasm') chooses; the WASM module is loaded only when an operation needs it.
// The messages are typed in `pdf-page.protocol.ts`.
import type * as Mupdf from 'mupdf';
import { importEsm } from '../util/import-esm.js';
import { layoutPage } from './page-layout.js';
import { loadNativeEngine, type NativeEngine } from './pdf-native.js';
import { extractPage } from './pdf-wasm-text.js';
import type {
  DocInfo,
  ExtractedPage,
  PageOrientation,
  PageDrawings,
  PdfEngine,
  PdfOp,
  PdfOpName,
  PdfOpResults,
  PdfReply,
  PdfRequest,
  PdfStartMessage,
  RawPage,
  RenderedPage,
} from './pdf-page.protocol.js';
import { textOrientation, textSkew } from './text-orientation.js';

/** The WebAssembly global (not in the ES library this repository compiles against): only its trap error is used. */
declare const WebAssembly: { RuntimeError: abstract new () => Error };

type Request<K extends PdfOpName> = PdfRequest<Extract<PdfOp, { op: K }>>;

/** The WASM module, once an operation needed it (one per thread: an import is cached). */
let mupdf: typeof Mupdf | null = null;
/** Where mupdf's warnings (broken xref, repaired objects...) go: the log of the engine whose request is running. */
let logSink: string[] = [];

let wasmLoading: Promise<void> | null = null;
function loadWasm(): Promise<void> {
  wasmLoading ??= importEsm<typeof Mupdf>('mupdf').then((m) => {
    m.setLog((message) => {
      if (logSink.length < 20 && !logSink.includes(message)) logSink.push(message);
    });
    mupdf = m;
  });
  return wasmLoading;
}

/** The WASM module; every operation that uses it awaited `loadWasm()` first (see `run`). */
function wasm(): typeof Mupdf {
  if (!mupdf) throw new Error('mupdf WASM module not loaded');
  return mupdf;
}

/** `e.message`, else `e` itself, as text. */
const errorText = (e: unknown): string => String((e as { message?: unknown } | null | undefined)?.message || e);

const META = [
  'info:Title',
  'info:Author',
  'info:Subject',
  'info:Keywords',
  'info:Creator',
  'info:Producer',
  'info:CreationDate',
  'info:ModDate',
  'format',
  'encryption',
];

/**
 * Most pixels a page is rendered with (for OCR): an A3 page at 300 DPI is 17 MP. OCR costs about 10 bytes a
 * pixel in tesseract, and mupdf's WASM memory never shrinks, so a page declaring huge dimensions (a PDF's
 * MediaBox can be 200 inches square; an image up to MAX_IMAGE_PIXELS) is rendered at a lower resolution instead.
 */
const MAX_RENDER_PIXELS = 16_000_000;

/** The scale of a render at `dpi`, lowered so the page has at most MAX_RENDER_PIXELS pixels. */
function boundedScale(page: Mupdf.Page, dpi: number): number {
  const [x0, y0, x1, y1] = page.getBounds();
  const area = Math.max(1, Math.abs((x1 - x0) * (y1 - y0)));
  const scale = dpi / 72;
  return area * scale * scale > MAX_RENDER_PIXELS ? Math.sqrt(MAX_RENDER_PIXELS / area) : scale;
}

function render(doc: Mupdf.Document, msg: Request<'render'>): RenderedPage {
  const m = wasm();
  const page = doc.loadPage(msg.page - 1);
  try {
    const scale = boundedScale(page, msg.dpi);
    const matrix = m.Matrix.concat(m.Matrix.scale(scale, scale), m.Matrix.rotate(msg.rotate ?? 0));
    const pix = page.toPixmap(matrix, m.ColorSpace.DeviceGray, false, true);
    try {
      // PAM (uncompressed) rather than PNG: encoding a 300-DPI page as PNG costs ~0.2 s, PAM ~10 ms, and
      // tesseract's leptonica reads either
      const image = pix.asPAM();
      return { image: new Uint8Array(image), width: pix.getWidth(), height: pix.getHeight() };
    } finally {
      pix.destroy();
    }
  } finally {
    page.destroy();
  }
}

/**
 * Which way up a scanned page is and how far its lines tilt (see `text-orientation.ts`), from 100-DPI grey
 * renders: enough pixels per text line to see ascenders and descenders, ~20-40 ms a page.
 */
function orientation(doc: Mupdf.Document, msg: Request<'orientation'>): PageOrientation {
  const m = wasm();
  const page = doc.loadPage(msg.page - 1);
  const grey = <T>(rotate: number, fn: (px: Uint8ClampedArray, w: number, h: number, stride: number) => T): T => {
    const scale = boundedScale(page, 100);
    const matrix = m.Matrix.concat(m.Matrix.scale(scale, scale), m.Matrix.rotate(rotate));
    const pix = page.toPixmap(matrix, m.ColorSpace.DeviceGray, false, true);
    try {
      return fn(pix.getPixels(), pix.getWidth(), pix.getHeight(), pix.getStride());
    } finally {
      pix.destroy();
    }
  };
  try {
    // skew is measured on horizontal lines, from the same render when they run that way; rotations add up, so
    // a quarter-turned page is measured turned 90 degrees and the angle holds for 270 as well
    const o = grey(0, (px, w, h, stride) => {
      const found = textOrientation(px, w, h, stride);
      return { ...found, skew: found.axis === 'horizontal' ? textSkew(px, w, h, stride) : 0 };
    });
    return o.axis === 'vertical' ? { ...o, skew: grey(90, textSkew) } : o;
  } finally {
    page.destroy();
  }
}

/**
 * Vector drawing counts of pages with the WASM build, as native/src/drawings.c counts them: filled and
 * stroked paths, their line and curve segments, and the page share their boxes cover (stroke width left out).
 */
function drawings(doc: Mupdf.Document, pages: number[]): PageDrawings[] {
  const m = wasm();
  return pages.map((n) => {
    const page = doc.loadPage(n - 1);
    try {
      const [px0, py0, px1, py1] = page.getBounds();
      const counts = { fills: 0, strokes: 0, segments: 0, area: 0 };
      const add = (path: Mupdf.Path, ctm: Mupdf.Matrix): void => {
        let x0 = Infinity;
        let y0 = Infinity;
        let x1 = -Infinity;
        let y1 = -Infinity;
        const point = (x: number, y: number): void => {
          const [a, b, c, d, e, f] = ctm;
          const tx = a * x + c * y + e;
          const ty = b * x + d * y + f;
          x0 = Math.min(x0, tx);
          y0 = Math.min(y0, ty);
          x1 = Math.max(x1, tx);
          y1 = Math.max(y1, ty);
        };
        path.walk({
          moveTo: point,
          lineTo: (x, y) => {
            counts.segments += 1;
            point(x, y);
          },
          curveTo: (ax, ay, bx, by, x, y) => {
            counts.segments += 1;
            point(ax, ay);
            point(bx, by);
            point(x, y);
          },
        });
        const w = Math.min(x1, px1) - Math.max(x0, px0);
        const h = Math.min(y1, py1) - Math.max(y0, py0);
        if (w > 0 && h > 0) counts.area += w * h;
      };
      const device = new m.Device({
        fillPath: (path, _evenOdd, ctm) => {
          counts.fills += 1;
          add(path, ctm);
        },
        strokePath: (path, _stroke, ctm) => {
          counts.strokes += 1;
          add(path, ctm);
        },
      });
      try {
        page.run(device, m.Matrix.identity);
        device.close();
      } finally {
        device.destroy();
      }
      const pageArea = Math.max(0, px1 - px0) * Math.max(0, py1 - py0);
      return {
        fills: counts.fills,
        strokes: counts.strokes,
        segments: counts.segments,
        areaRatio: pageArea > 0 ? counts.area / pageArea : 0,
      };
    } finally {
      page.destroy();
    }
  });
}

/** A page laid out on the engine's thread rather than on the main thread (page-layout.ts). */
const laidOut = (raw: RawPage): ExtractedPage => ({ ...layoutPage(raw), imageRatio: raw.imageRatio });

/** A reply to post, the buffers to transfer with it, and whether the engine is unsafe to use again. */
export interface PdfHandled {
  reply: PdfReply;
  transfer: ArrayBuffer[];
  /** A trapped WASM instance: the thread running it must end (the pool starts a fresh one). */
  fatal: boolean;
}

export interface PdfPageEngine {
  /** The start-up message: which engine serves, or why a forced native engine cannot. */
  readonly start: PdfStartMessage;
  /** Runs one request (the caller runs them one at a time, in order). */
  handle(msg: PdfRequest): Promise<PdfHandled>;
}

/**
 * One engine's state: the open document (its bytes stay here so either engine can open it later) and the
 * native engine when it loaded. `abort`: an Int32Array whose element 0 set to 1 stops the native page in progress.
 */
export async function createPdfPageEngine(requested: PdfEngine, abort?: Int32Array): Promise<PdfPageEngine> {
  let native: NativeEngine | null = null;
  /** Why the native engine is not used (null when it is). */
  let nativeReason = requested === 'wasm' ? 'WASM engine requested' : null;
  if (requested !== 'wasm') {
    try {
      native = loadNativeEngine(abort);
    } catch (e) {
      nativeReason = errorText(e);
    }
  }
  let current: { key: string; doc: Mupdf.Document; pixelWidth: number | null } | null = null;
  let held: { key: string | null; bytes: Uint8Array | null } = { key: null, bytes: null };
  let logs: string[] = [];

  /** Remembers the bytes a message brings (the first message about a document carries them). */
  const hold = (msg: PdfRequest): Uint8Array | null => {
    if (msg.bytes) {
      if (held.key !== msg.key && native) native.close();
      held = { key: msg.key, bytes: msg.bytes };
    }
    return held.key === msg.key ? held.bytes : null;
  };

  const openDoc = (msg: PdfRequest): Mupdf.Document => {
    if (current && current.key === msg.key) return current.doc;
    const bytes = hold(msg);
    if (!bytes) throw new Error('document not open in this worker');
    if (current) current.doc.destroy();
    current = null;
    const m = wasm();
    const doc = m.Document.openDocument(bytes, msg.mime ?? 'application/pdf');
    let pixelWidth = null;
    if (msg.mime && msg.mime.startsWith('image/')) {
      // Images open as one-page documents; their pixel width lets the caller render at native resolution.
      const img = new m.Image(bytes);
      pixelWidth = img.getWidth();
      img.destroy();
    }
    current = { key: msg.key, doc, pixelWidth };
    return doc;
  };

  const info = (msg: Request<'info'>): DocInfo => {
    const doc = openDoc(msg);
    const needsPassword = doc.needsPassword();
    if (needsPassword)
      return {
        needsPassword,
        pageCount: 0,
        metadata: {},
        pixelWidth: null,
        firstPageWidth: null,
        repaired: false,
        logs,
      };
    const metadata: Record<string, string> = {};
    for (const k of META) {
      const v = doc.getMetaData(k);
      if (v) metadata[k.replace(/^info:/, '').toLowerCase()] = String(v);
    }
    const pageCount = doc.countPages();
    let firstPageWidth = null;
    if (pageCount > 0) {
      const page = doc.loadPage(0);
      const [x0, , x1] = page.getBounds();
      firstPageWidth = x1 - x0;
      page.destroy();
    }
    const pdf = doc.asPDF();
    const repaired = pdf ? pdf.wasRepaired() : false;
    return {
      needsPassword,
      pageCount,
      metadata,
      pixelWidth: current?.pixelWidth ?? null,
      firstPageWidth,
      repaired,
      logs,
    };
  };

  /** Drops the open document (its bytes and caches, in both engines) once a conversion is done with it. */
  const close = (msg: Request<'close'>): null => {
    if (current && current.key === msg.key) {
      current.doc.destroy();
      current = null;
    }
    if (held.key === msg.key) {
      if (native) native.close();
      held = { key: null, bytes: null };
    }
    return null;
  };

  type Op = () => PdfOpResults[PdfOpName];

  /** The WASM engine's operation for a message (null for an unknown op). */
  const wasmOp = (msg: PdfRequest): Op | null => {
    switch (msg.op) {
      case 'info':
        return () => info(msg);
      case 'extract':
        return () => {
          const doc = openDoc(msg);
          return msg.pages.map((p) => laidOut(extractPage(doc, p - 1)));
        };
      case 'render':
        return () => render(openDoc(msg), msg);
      case 'orientation':
        return () => orientation(openDoc(msg), msg);
      case 'drawings':
        return () => drawings(openDoc(msg), msg.pages);
      case 'close':
        return () => close(msg);
      default:
        return null;
    }
  };

  /** The native engine serves `info`, `extract` and `drawings` of PDFs; images, renders and orientation use WASM. */
  const nativeOp = (msg: PdfRequest): Op | null => {
    const engine = native;
    if (!engine || (msg.mime ?? 'application/pdf') !== 'application/pdf') return null;
    if (msg.op === 'info') return () => engine.info(msg, hold(msg));
    if (msg.op === 'extract') return () => engine.extract(msg, hold(msg)).map(laidOut);
    if (msg.op === 'drawings') return () => engine.drawings(msg, hold(msg));
    return null;
  };

  /** Runs a message's operation: natively when the native engine serves it, else (or when it fails) in WASM. */
  const run = async (msg: PdfRequest): Promise<PdfOpResults[PdfOpName]> => {
    const op = nativeOp(msg);
    if (op) {
      try {
        return op();
      } catch (e) {
        // mupdf 1.21 failed where the newer WASM build may not (a feature or a repair it lacks): try that.
        // An abort is final; a really broken file fails again below with the WASM build's message.
        if ((e as { code?: unknown } | null | undefined)?.code === 'ABORTED') throw e;
      }
    }
    const fallback = wasmOp(msg);
    if (!fallback) throw new Error(`unknown op ${(msg as { op: string }).op}`);
    if (msg.op !== 'close') await loadWasm();
    return fallback();
  };

  // a forced native engine that cannot load fails at start; without the native engine, WASM is loaded now
  let start: PdfStartMessage;
  if (requested === 'native' && !native) {
    start = { id: 0, ready: false, error: `native PDF engine requested but unavailable: ${nativeReason}` };
  } else {
    if (!native) await loadWasm();
    start = {
      id: 0,
      ready: true,
      engine: native ? 'native' : 'wasm',
      version: native ? native.version : null,
      reason: nativeReason,
    };
  }

  return {
    start,
    async handle(msg) {
      logs = [];
      logSink = logs;
      try {
        const result = await run(msg);
        const transfer = result && 'image' in result ? [result.image.buffer as ArrayBuffer] : [];
        return { reply: { id: msg.id, ok: true, result }, transfer, fatal: false };
      } catch (e) {
        const detail = logs.length ? ` (${logs.slice(0, 3).join('; ')})` : '';
        // a trapped or aborted WASM instance is not safe to reuse
        return {
          reply: { id: msg.id, ok: false, error: errorText(e) + detail },
          transfer: [],
          fatal: e instanceof WebAssembly.RuntimeError,
        };
      }
    },
  };
}
