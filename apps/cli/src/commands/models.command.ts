// SPDX-License-Identifier: AGPL-3.0-or-later
import { MODEL_REGISTRY, modelAvailable, pullModel, type PullProgress } from '@lectern/embedding';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { CliContext } from '../cli.js';

/** A progress bar on an interactive stderr, plain lines otherwise. */
const progressReporter = (ctx: CliContext) => {
  let bar: SingleBar | undefined;
  let current = '';
  return {
    update: (p: PullProgress) => {
      if (p.file !== current) {
        bar?.stop();
        current = p.file;
        if (ctx.io.stderrIsTTY) {
          bar = new SingleBar({ format: `${p.file} [{bar}] {percentage}% {value}/{total} bytes`, hideCursor: true });
          bar.start(p.total ?? 0, p.received);
        } else ctx.io.stderr(`downloading ${p.file}\n`);
      }
      bar?.update(p.received);
    },
    stop: () => bar?.stop(),
  };
};

export const registerModelsCommand = (program: Command, context: () => CliContext): void => {
  const models = program.command('models').description('embedding models: list, download');

  models
    .command('list')
    .description('list the known embedding models and whether each is available here')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { config, io, modelCacheDir } = context();
      const dirs = {
        modelDir: config.EMBEDDING_MODEL_DIR,
        cacheDir: modelCacheDir,
        quantized: config.EMBEDDING_QUANTIZED,
      };
      const rows = [];
      for (const m of MODEL_REGISTRY) {
        const available = await modelAvailable(m.id, dirs);
        rows.push({
          id: m.id,
          dimension: m.dimension,
          max_tokens: m.maxTokens,
          source: m.source,
          available,
          description: m.description,
        });
      }
      if (opts.json) io.stdout(`${JSON.stringify(rows)}\n`);
      else
        for (const r of rows)
          io.stdout(`${r.id}\t${r.dimension}-d\t${r.available ? 'available' : 'not downloaded'}\t${r.description}\n`);
    });

  models
    .command('pull')
    .description('download a model into DATA_DIR/models, verifying the pinned sha256 values (resumable)')
    .argument('<model>', 'model id, e.g. potion-base-2M or all-MiniLM-L6-v2')
    .option('--quantized', 'the int8 ONNX weights instead of fp32 (default: EMBEDDING_QUANTIZED)')
    .option('--base-url <url>', 'download from this URL instead of the Hugging Face hub (default: MODEL_DOWNLOAD_URL)')
    .option('--from <dir>', 'import the files from a local directory instead of downloading (same verification)')
    .action(async (model: string, opts: { quantized?: boolean; baseUrl?: string; from?: string }) => {
      const ctx = context();
      const progress = progressReporter(ctx);
      try {
        const result = await pullModel({
          model,
          cacheDir: ctx.modelCacheDir,
          quantized: opts.quantized ?? ctx.config.EMBEDDING_QUANTIZED,
          baseUrl: opts.baseUrl ?? ctx.config.MODEL_DOWNLOAD_URL,
          from: opts.from,
          onProgress: progress.update,
          log: ctx.log,
        });
        progress.stop();
        if (result.files.length === 0) ctx.io.stdout(`${result.model} ships with Lectern: nothing to download\n`);
        for (const f of result.files)
          ctx.io.stdout(`${f.cached ? 'present ' : 'verified'} ${f.path} sha256:${f.sha256}\n`);
        if (result.files.length > 0) ctx.io.stdout(`${result.model} ready in ${result.dir}\n`);
      } finally {
        progress.stop();
      }
    });
};
