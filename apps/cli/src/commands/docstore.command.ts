// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError, isAppError } from '@lectern/contracts';
import { checkConsistency, documentStoreReader } from '@lectern/document-store';
import { createPlatform } from '@lectern/platform';
import { pino } from 'pino';
import type { Command } from 'commander';
import type { CliContext } from '../cli.js';

/**
 * `lectern docstore check [--project P] [--repair] [--json]`: registry/store consistency of a project —
 * orphan chunks (a document's chunks without its registry entry, e.g. after a process was killed
 * mid-ingest) and registry entries whose chunk_count differs from what is stored. Exit code 1 when
 * anything is inconsistent (after `--repair`, when anything is left).
 */
export const registerDocstoreCommand = (program: Command, context: () => CliContext): void => {
  const docstore = program.command('docstore').description('maintain the document store (document-store-mcp)');
  docstore
    .command('check')
    .description('report orphan chunks and registry/store count mismatches of a project')
    .option('-p, --project <id>', 'project (default: DOCUMENT_STORE_PROJECT)')
    .option('--repair', 'delete orphan chunks (a retried ingest would overwrite them anyway)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { project?: string; repair?: boolean; json?: boolean }) => {
      const { config, io } = context();
      // The check reads and repairs the store only: no embedder, no conversion.
      const platform = createPlatform({ dataDir: config.DATA_DIR, log: pino({ level: 'silent' }) });
      const deps = documentStoreReader(platform, {
        vectorDir: config.CHROMA_PERSIST_DIR,
        qdrantUrl: config.QDRANT_URL,
        qdrantApiKey: config.QDRANT_API_KEY,
        defaultProject: config.DOCUMENT_STORE_PROJECT,
      });
      try {
        const report = await checkConsistency(deps, { project: opts.project, repair: Boolean(opts.repair) }).catch(
          (err: unknown) => {
            // Name the spec's error type: scripts test for it (`INVALID_PROJECT: Project "x" does not exist`).
            throw isAppError(err) && err.code === 'INVALID_PROJECT'
              ? new AppError(err.code, `${err.code}: ${err.message}`)
              : err;
          },
        );
        if (opts.json) io.stdout(`${JSON.stringify(report)}\n`);
        else {
          const what =
            report.kind === 'collection'
              ? `collection ${report.project} (store_document_chunks, no registry)`
              : `project ${report.project}`;
          io.stdout(
            `${what}: ${report.documents} documents, ${report.chunks} chunks, ` +
              `${report.orphan_chunks} orphan chunks, ${report.count_mismatches.length} count mismatches` +
              `${report.repaired ? ` (${report.removed_chunks} orphan chunks deleted)` : ''}\n`,
          );
          for (const id of report.orphan_document_ids) io.stdout(`  orphan: ${id}\n`);
          for (const m of report.count_mismatches)
            io.stdout(`  mismatch: ${m.document_id} registered ${m.registered}, stored ${m.stored}\n`);
        }
        if (!report.consistent) {
          const hint =
            report.orphan_chunks > 0 && !opts.repair
              ? ' (run with --repair to delete orphan chunks)'
              : ' (count mismatches: re-ingest those documents)';
          throw new AppError('inconsistent', `project ${report.project} is inconsistent${hint}`);
        }
      } finally {
        await platform.close();
      }
    });
};
