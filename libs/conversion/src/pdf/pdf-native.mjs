// The native PDF engine of a mupdf worker thread: Debian's libmupdf through the addon built from
// `libs/conversion/native` (see its README). Same results as the WASM path of `pdf-page.worker.mjs` for `info`
// and `extract`, without printing the structured text to JSON and HTML and parsing it back.
// Plain JavaScript for the same reason as the worker (loaded directly by worker threads).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ADDON = fileURLToPath(new URL('../../native/build/Release/lectern_mupdf.node', import.meta.url));

/**
 * RawPage objects from the addon's packed pages (layout in native/src/stext_page.c): numbers in a Float64Array,
 * line texts in one string. Object literals here are much cheaper than building the objects in C through N-API.
 * @param {{ nums: Float64Array, text: string }} packed
 */
export function unpack({ nums, text }) {
  const pages = [];
  let i = 0;
  let t = 0;
  while (i < nums.length) {
    const pageNumber = nums[i];
    const width = nums[i + 1];
    const height = nums[i + 2];
    const imageRatio = nums[i + 3];
    const blocks = new Array(nums[i + 4]);
    i += 5;
    for (let b = 0; b < blocks.length; b++) {
      const x0 = nums[i];
      const y0 = nums[i + 1];
      const x1 = nums[i + 2];
      const y1 = nums[i + 3];
      const lines = new Array(nums[i + 4]);
      i += 5;
      for (let l = 0; l < lines.length; l++) {
        const end = t + nums[i + 7];
        lines[l] = {
          text: text.slice(t, end),
          x0: nums[i],
          y0: nums[i + 1],
          x1: nums[i + 2],
          y1: nums[i + 3],
          size: nums[i + 4],
          leadSize: nums[i + 5],
          bold: nums[i + 6] === 1,
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

/**
 * Loads the addon and creates this thread's engine (one fz_context, never shared between threads).
 * `abort` (an Int32Array over a SharedArrayBuffer of 8+ elements): another thread stores 1 at index 0 to stop
 * the page in progress and the rest of the batch. Throws with the reason when the addon is not built (no
 * libmupdf-dev when `npm ci` ran) or does not load.
 */
export function loadNativeEngine(abort) {
  if (!existsSync(ADDON)) throw new Error(`native mupdf addon not built (${ADDON}; see libs/conversion/native/README.md)`);
  const addon = createRequire(import.meta.url)(ADDON);
  const engine = abort ? addon.createEngine(abort) : addon.createEngine();
  /** @type {string | null} */
  let openKey = null;

  /** Opens `msg.key` unless it is the open document; `bytes` are the document's (kept alive by the caller). */
  function open(msg, bytes) {
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
    close(key) {
      if (key !== undefined && key !== openKey) return;
      addon.close(engine);
      openKey = null;
    },
    /** Bytes mupdf holds in this engine (fonts, caches, open document). */
    memory() {
      return addon.memory(engine);
    },
  };
}
