// SPDX-License-Identifier: AGPL-3.0-or-later
import { resolveEmbedder } from '@lectern/embedding';
import type { Command } from 'commander';
import type { CliContext } from '../cli.js';

/** `lectern embed "<text>" [--model M] [--json]`: the vector, its dimension and the model fingerprint. */
export const registerEmbedCommand = (program: Command, context: () => CliContext): void => {
  program
    .command('embed')
    .description('embed one text and print the vector, its dimension and the model fingerprint')
    .argument('<text>', 'the text to embed')
    .option('-m, --model <id>', 'model id or "auto" (default: EMBEDDING_MODEL)')
    .option('--json', 'print one JSON object')
    .action(async (text: string, opts: { model?: string; json?: boolean }) => {
      const { config, io, log, modelCacheDir } = context();
      const embedder = await resolveEmbedder({
        model: opts.model ?? config.EMBEDDING_MODEL,
        modelDir: config.EMBEDDING_MODEL_DIR,
        cacheDir: modelCacheDir,
        quantized: config.EMBEDDING_QUANTIZED,
        threads: config.EMBEDDING_THREADS || undefined,
        log,
      });
      try {
        const vector = Array.from(await embedder.embed(text));
        const result = { model: embedder.modelId, dimension: vector.length, fingerprint: embedder.fingerprint, vector };
        if (opts.json) io.stdout(`${JSON.stringify(result)}\n`);
        else {
          io.stdout(
            `model:       ${result.model}\nfingerprint: ${JSON.stringify(result.fingerprint)}\ndimension:   ${result.dimension}\n`,
          );
          io.stdout(`vector:      [${vector.map((x) => x.toFixed(6)).join(', ')}]\n`);
        }
      } finally {
        await embedder.close();
      }
    });
};
