// SPDX-License-Identifier: AGPL-3.0-or-later
import { resolve } from 'node:path';
import { AppError } from '@lectern/contracts';
import { policyIngestQueue } from '@lectern/contracts';
import { createPlatform, platformOptions, type Platform } from '@lectern/platform';
import {
  checkPolicyConsistency,
  liveIngestRevisions,
  policyKbDeps,
  policyKbEnvShape,
  policyKbReader,
  policyKbSettings,
  seedPolicies,
} from '@lectern/policy-kb';
import { commonEnvShape, envString, parseEnv } from '@lectern/runtime';
import type { Command } from 'commander';
import { pino } from 'pino';
import { z } from 'zod';
import type { CliContext } from '../cli.js';

/** The policy KB's variables (the same names and defaults as policy-kb-mcp), plus where seed PDFs are looked for. */
const PolicyEnvSchema = z.object({
  ...commonEnvShape,
  ...policyKbEnvShape,
  /** Default of `lectern policy seed --dir`: `DATA_DIR/policies`. */
  POLICY_SEED_DIR: envString(),
});

/**
 * `lectern policy seed [--dir D]`: register spec 001's six seed policies and ingest whichever of their PDFs are in
 * D. `lectern policy check [--repair]`: registry/store consistency (NFR-003) — chunk_count against the store and
 * orphan chunks; exit 1 when inconsistent (after `--repair`, when anything is left).
 */
export const registerPolicyCommand = (program: Command, context: () => CliContext): void => {
  const policy = program.command('policy').description('maintain the policy knowledge base (policy-kb-mcp)');
  /** Runs `work` on a platform built from the policy KB's variables, closed afterwards whatever happens. */
  const withPlatform =
    <O>(
      work: (opts: O, env: z.infer<typeof PolicyEnvSchema>, platform: Platform, io: CliContext['io']) => Promise<void>,
    ) =>
    async (opts: O): Promise<void> => {
      const { io } = context();
      const env = parseEnv(PolicyEnvSchema, io.env);
      const platform = createPlatform(platformOptions(env, pino({ level: 'silent' })));
      try {
        await work(opts, env, platform, io);
      } finally {
        await platform.close();
      }
    };

  policy
    .command('seed')
    .description("register spec 001's six seed policies and ingest whichever of their PDFs are present")
    .option(
      '-d, --dir <dir>',
      'directory searched (4 levels deep) for the seed PDFs (default: POLICY_SEED_DIR or DATA_DIR/policies)',
    )
    .option('--json', 'print one JSON object')
    .action(
      withPlatform(async (opts: { dir?: string; json?: boolean }, env, platform, io) => {
        const dir = resolve(opts.dir ?? env.POLICY_SEED_DIR ?? resolve(env.DATA_DIR, 'policies'));
        const deps = policyKbDeps(platform, policyKbSettings(env));
        const report = await seedPolicies(deps, { dir, onProgress: (line) => io.stderr(`lectern: ${line}\n`) });
        if (opts.json) io.stdout(`${JSON.stringify(report)}\n`);
        else {
          io.stdout(`seed directory ${report.dir}: ${report.policies_created.length} policies registered\n`);
          for (const r of report.revisions) {
            const detail =
              r.outcome === 'ingested' || r.outcome === 'already_ingested'
                ? ` (${r.chunks} chunks)`
                : r.error
                  ? `: ${r.error}`
                  : '';
            io.stdout(`  ${r.source} ${r.revision_id}: ${r.outcome}${detail}\n`);
          }
        }
        const failed = report.revisions.filter((r) => r.outcome === 'failed');
        if (failed.length > 0) throw new AppError('seed_failed', `${failed.length} seed revisions failed to ingest`);
      }),
    );

  policy
    .command('check')
    .description(
      'report revisions whose chunk_count differs from the store, revisions whose chunks were removed, orphan chunks, and revisions stuck in processing',
    )
    .option('--repair', 'delete orphan chunks and set chunk_count to the chunks stored, then check again')
    .option('--json', 'print one JSON object')
    .action(
      withPlatform(async (opts: { repair?: boolean; json?: boolean }, env, platform, io) => {
        const deps = policyKbReader(platform, policyKbSettings(env));
        // Distributed, the policy-ingest jobs are in Redis: a revision a queued or running job owns is not stuck.
        const live = env.REDIS_URL ? await liveIngestRevisions(platform.queue(policyIngestQueue)) : undefined;
        const report = await checkPolicyConsistency(deps, { repair: Boolean(opts.repair), ...(live ? { live } : {}) });
        if (opts.json) io.stdout(`${JSON.stringify(report)}\n`);
        else {
          io.stdout(
            `policy KB ${report.collection}: ${report.policies} policies, ${report.revisions} revisions, ${report.chunks} chunks, ` +
              `${report.orphan_chunks} orphan chunks, ${report.count_mismatches.length} count mismatches, ` +
              `${report.stuck_revisions.length} revisions stuck in processing` +
              `${report.repaired ? ` (${report.removed_chunks} orphan chunks deleted, ${report.fixed_counts} counts fixed)` : ''}\n`,
          );
          for (const o of report.orphan_revisions)
            io.stdout(`  orphan: ${o.source} ${o.revision_id} (${o.chunks} chunks)\n`);
          for (const m of report.count_mismatches)
            io.stdout(`  mismatch: ${m.source} ${m.revision_id} registered ${m.registered}, stored ${m.stored}\n`);
          for (const r of report.removed_revisions)
            io.stdout(`  removed: ${r.source} ${r.revision_id} registered ${r.registered}, stored 0 (${r.hint})\n`);
          for (const r of report.stuck_revisions)
            io.stdout(`  stuck: ${r.source} ${r.revision_id} processing with no ingest job (${r.chunks} chunks)\n`);
        }
        if (!report.consistent) {
          throw new AppError(
            'inconsistent',
            `the policy KB is inconsistent${opts.repair ? ' after repair' : ' (run with --repair)'}` +
              (report.stuck_revisions.length > 0
                ? '; revisions stuck in processing are re-queued or failed by policy-kb-mcp at its next start'
                : ''),
          );
        }
      }),
    );
};
