// SPDX-License-Identifier: AGPL-3.0-or-later
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, resolve } from 'node:path';
import { createConversionEngine, type ConversionProgress } from '@lectern/conversion';
import type * as CliProgress from 'cli-progress';
import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { CliContext } from '../cli.js';

/**
 * A page progress bar on an interactive stderr (drawn through `io.stderr`); nothing otherwise. cli-progress is
 * loaded only for a terminal (~11 ms of a one-shot conversion's start-up otherwise), by a require: the compiled
 * command line runs where Node 20 has no dynamic import (apps/cli/bin/lectern.cjs).
 */
const pageProgress = (ctx: CliContext, label: string) => {
  if (!ctx.io.stderrIsTTY) return { update: () => undefined, stop: () => undefined };
  const { SingleBar: Bar } = createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
  const stream = {
    isTTY: true,
    columns: 100,
    write: (s: string) => (ctx.io.stderr(s), true),
  } as unknown as NodeJS.WritableStream;
  let bar: SingleBar | undefined;
  return {
    update: (p: ConversionProgress) => {
      if (!p.pages || p.pages < 2) return; // a one-page or non-paged document needs no bar
      if (!bar) {
        bar = new Bar({ format: `${label} [{bar}] {value}/{total} pages`, hideCursor: true, stream, fps: 10 });
        bar.start(p.pages, 0);
      }
      bar.update(p.page ?? 0);
    },
    stop: () => bar?.stop(),
  };
};

/**
 * `lectern convert <file> [-o out.md] [--json]`: any supported document to Markdown (or the whole
 * ConversionResult as JSON) with the same engine the converter service runs. A one-shot conversion has no
 * queue, state or data directory, so it takes the engine alone rather than the platform's conversion service
 * (which brings the queue, its worker and the stores' adapters with it), and the engine's inline PDF engine: a
 * short PDF is converted on this thread, a long one with worker threads too (issue 18's start-up target:
 * `docs/benchmarks/conversion.md`, "Start-up"). Bad input exits 1 with the typed error's message.
 */
export const registerConvertCommand = (program: Command, context: () => CliContext): void => {
  program
    .command('convert')
    .description('convert a document (PDF, DOCX, HTML, images, text) to Markdown')
    .argument('<file>', 'the document to convert')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--json', 'the whole ConversionResult (pages, headings, page map, tables) as JSON')
    .option('--no-ocr', 'do not OCR pages without a text layer')
    .action(async (file: string, opts: { output?: string; json?: boolean; ocr: boolean }) => {
      const ctx = context();
      const engine = createConversionEngine({
        inlinePdf: true,
        pdfEngine: ctx.config.PDF_ENGINE,
        ocrEngine: ctx.config.OCR_ENGINE,
      });
      const progress = pageProgress(ctx, basename(file));
      try {
        const result = await engine.convert(
          { path: resolve(file) },
          { enableOcr: opts.ocr, onProgress: (p) => progress.update(p) },
        );
        progress.stop();
        const text = opts.json
          ? `${JSON.stringify(result, null, 2)}\n`
          : result.markdown.endsWith('\n')
            ? result.markdown
            : `${result.markdown}\n`;
        if (opts.output) {
          await writeFile(opts.output, text);
          ctx.io.stderr(`${file}: ${result.page_count} pages (${result.method}) -> ${opts.output}\n`);
        } else ctx.io.stdout(text);
      } finally {
        progress.stop();
        await engine.close();
      }
    });
};
