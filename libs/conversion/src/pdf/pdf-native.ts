// SPDX-License-Identifier: AGPL-3.0-or-later
// The native PDF engine of a mupdf worker thread: Debian's libmupdf through the addon built from
// `libs/conversion/native` (see its README). Same results as the WASM path of `pdf-page.worker.ts` for `info`
// and `extract`, without printing the structured text to JSON and HTML and parsing it back.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { DocInfo, PageDrawings, RawLine, RawPage } from './pdf-page.protocol.js';

const ADDON = fileURLToPath(new URL('../../native/build/Release/lectern_mupdf.node', import.meta.url));

/** The addon's engine handle (an fz_context and its open document), opaque to JavaScript. */
type EngineHandle = { readonly __brand: 'lectern_mupdf engine' };

/** Pages as the addon packs them (layout in native/src/stext_page.c). */
export interface PackedPages {
  nums: Float64Array;
  text: string;
}

/** The functions `lectern_mupdf.node` exports (native/src/lectern_mupdf.c). */
interface MupdfAddon {
  mupdfVersion: string;
  createEngine(abort?: Int32Array): EngineHandle;
  open(engine: EngineHandle, bytes: Uint8Array, mime: string): void;
  info(engine: EngineHandle): DocInfo;
  extract(engine: EngineHandle, pages: number[]): PackedPages;
  drawings(engine: EngineHandle, page: number): PageDrawings;
  close(engine: EngineHandle): void;
  memory(engine: EngineHandle): { allocated: number; peak: number };
  sha256(bytes: Uint8Array): string;
}

/** What a native call needs to know of the request: the document's key and type, and the pages to extract. */
interface NativeDocRequest {
  key: string;
  mime?: string;
}

export interface NativeEngine {
  version: string;
  info(msg: NativeDocRequest, bytes: Uint8Array | null): DocInfo;
  extract(msg: NativeDocRequest & { pages: number[] }, bytes: Uint8Array | null): RawPage[];
  /** Vector drawing counts of pages (native/src/drawings.c). */
  drawings(msg: NativeDocRequest & { pages: number[] }, bytes: Uint8Array | null): PageDrawings[];
  /** Closes the open document (only `key`'s, when given). */
  close(key?: string): void;
  /** Bytes mupdf holds in this engine (fonts, caches, open document). */
  memory(): { allocated: number; peak: number };
}

/**
 * RawPage objects from the addon's packed pages (layout in native/src/stext_page.c): numbers in a Float64Array,
 * line texts in one string. Object literals here are much cheaper than building the objects in C through N-API.
 */
export function unpack({ nums, text }: PackedPages): RawPage[] {
  // every read below is inside the packed layout the addon wrote (`i` never passes nums.length)
  const n = (k: number): number => nums[k] as number;
  const pages: RawPage[] = [];
  let i = 0;
  let t = 0;
  while (i < nums.length) {
    const pageNumber = n(i);
    const width = n(i + 1);
    const height = n(i + 2);
    const imageRatio = n(i + 3);
    const blocks: RawPage['blocks'] = new Array(n(i + 4));
    i += 5;
    for (let b = 0; b < blocks.length; b++) {
      const x0 = n(i);
      const y0 = n(i + 1);
      const x1 = n(i + 2);
      const y1 = n(i + 3);
      const lines: RawLine[] = new Array(n(i + 4));
      i += 5;
      for (let l = 0; l < lines.length; l++) {
        const end = t + n(i + 7);
        const style = n(i + 6);
        lines[l] = {
          text: text.slice(t, end),
          x0: n(i),
          y0: n(i + 1),
          x1: n(i + 2),
          y1: n(i + 3),
          size: n(i + 4),
          leadSize: n(i + 5),
          bold: (style & 1) === 1,
          mono: (style & 2) === 2,
        };
        t = end;
        i += 8;
      }
      blocks[b] = { x0, y0, x1, y1, lines };
    }
    pages.push({ pageNumber, width, height, blocks, imageRatio });
  }
  return pages;
}

/** The addon; throws with the reason when it is not built (no libmupdf-dev when `npm ci` ran) or does not load. */
function requireAddon(): MupdfAddon {
  if (!existsSync(ADDON))
    throw new Error(`native mupdf addon not built (${ADDON}; see libs/conversion/native/README.md)`);
  return createRequire(import.meta.url)(ADDON) as MupdfAddon;
}

let addonSha256: ((bytes: Uint8Array) => string) | null | undefined;

/** mupdf's SHA-256 (hex) through the addon; null when the addon is not built or does not load. */
export function nativeSha256(): ((bytes: Uint8Array) => string) | null {
  if (addonSha256 === undefined) {
    try {
      const addon = requireAddon();
      addonSha256 = (bytes) => addon.sha256(bytes);
    } catch {
      addonSha256 = null;
    }
  }
  return addonSha256;
}

/**
 * Loads the addon and creates this thread's engine (one fz_context, never shared between threads).
 * `abort` (an Int32Array over a SharedArrayBuffer of 8+ elements): another thread stores 1 at index 0 to stop
 * the page in progress and the rest of the batch. Throws with the reason when the addon is not built (no
 * libmupdf-dev when `npm ci` ran) or does not load.
 */
export function loadNativeEngine(abort?: Int32Array): NativeEngine {
  const addon = requireAddon();
  const engine = abort ? addon.createEngine(abort) : addon.createEngine();
  let openKey: string | null = null;

  /** Opens `msg.key` unless it is the open document; `bytes` are the document's (kept alive by the caller). */
  function open(msg: NativeDocRequest, bytes: Uint8Array | null): void {
    if (openKey === msg.key) return;
    if (!bytes) throw new Error('document not open in this worker');
    openKey = null;
    addon.open(engine, bytes, msg.mime ?? 'application/pdf');
    openKey = msg.key;
  }

  return {
    version: addon.mupdfVersion,
    info(msg, bytes) {
      open(msg, bytes);
      return addon.info(engine);
    },
    extract(msg, bytes) {
      open(msg, bytes);
      return unpack(addon.extract(engine, msg.pages));
    },
    drawings(msg, bytes) {
      open(msg, bytes);
      return msg.pages.map((p) => addon.drawings(engine, p));
    },
    close(key) {
      if (key !== undefined && key !== openKey) return;
      addon.close(engine);
      openKey = null;
    },
    memory() {
      return addon.memory(engine);
    },
  };
}
