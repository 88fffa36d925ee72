// SPDX-License-Identifier: AGPL-3.0-or-later
// The Markdown of whole conversions, hashed: one JSON line per PDF with its SHA-256 (native engine, OCR off), to
// compare two trees' outputs byte for byte (run it in each tree, then diff the two outputs); `result_sha256`: the whole
// result (page texts, headings, page map, tables, warnings...) but its duration, as JSON.
//   npx tsx bench/conversion/markdown-identity.ts [--max-mb 20] DIR_OR_FILE...
import { createHash } from 'node:crypto';
import { createConversionEngine } from '@lectern/conversion';
import { pdfFiles } from './bench-args.js';

const args = process.argv.slice(2);
const mbAt = args.indexOf('--max-mb');
const maxBytes = (mbAt >= 0 ? Number(args.splice(mbAt, 2)[1]) : 20) * 1024 * 1024;
const files = args.flatMap((p) => pdfFiles(p, maxBytes));
const engine = createConversionEngine({ pdfEngine: 'native', defaults: { enableOcr: false } });
for (const file of files) {
  try {
    const r = await engine.convert({ path: file }, { enableOcr: false, timeoutMs: 600_000 });
    const sha256 = createHash('sha256').update(r.markdown).digest('hex');
    const { duration_ms: _, ...rest } = r;
    const result_sha256 = createHash('sha256').update(JSON.stringify(rest)).digest('hex');
    process.stdout.write(
      `${JSON.stringify({ file, pages: r.page_count, chars: r.markdown.length, sha256, result_sha256 })}\n`,
    );
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ file, error: (e as Error).message })}\n`);
  }
}
await engine.close();
