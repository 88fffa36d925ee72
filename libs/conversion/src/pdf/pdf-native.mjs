// The native PDF engine of a mupdf worker thread: Debian's libmupdf through the addon built from
// `libs/conversion/native` (see its README). Same results as the WASM path of `pdf-page.worker.mjs` for `info`
// and `extract`, without printing the structured text to JSON and HTML and parsing it back.
// Plain JavaScript for the same reason as the worker (loaded directly by worker threads).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ADDON = fileURLToPath(new URL('../../native/build/Release/lectern_mupdf.node', import.meta.url));

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
      return addon.extract(engine, msg.pages);
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
