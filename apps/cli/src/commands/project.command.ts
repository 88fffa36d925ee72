// SPDX-License-Identifier: AGPL-3.0-or-later
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AppError, isAppError, ProjectIdSchema, type ChunkingPolicy, type ProjectRecord } from '@lectern/contracts';
import { SUPPORTED_EXTENSIONS } from '@lectern/conversion';
import {
  createProject,
  describeChunking,
  findChunks,
  inspectProject,
  listDocumentFiles,
  listProjects,
  planReindex,
  queryHybrid,
  readProjectRecord,
  rebuildProject,
  requireProject,
  resumeStatePath,
  runProjectIngest,
  saveReindexState,
  validateProject,
  documentStoreDeps,
  documentStoreEnvShape,
  documentStoreSettings,
  type DocumentStoreDeps,
  type ProjectRunSummary,
} from '@lectern/document-store';
import { createPlatform, type Platform } from '@lectern/platform';
import { commonEnvShape, parseEnv } from '@lectern/runtime';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { pino } from 'pino';
import { z } from 'zod';
import type { CliContext } from '../cli.js';

/** The spec 004 commands read the document store's variables (the same names and defaults as document-store-mcp). */
const ProjectEnvSchema = z.object({ ...commonEnvShape, ...documentStoreEnvShape });

interface Opened {
  platform: Platform;
  deps: DocumentStoreDeps;
}

/** The document store's services for one command; `model` overrides EMBEDDING_MODEL (the model this command writes with). */
const open = (ctx: CliContext, model?: string): Opened => {
  const env = parseEnv(ProjectEnvSchema, ctx.io.env);
  // Warnings (unmatched citations with their hints, skipped files) are for the user: one line each on stderr.
  const level = ['silent', 'error', 'fatal'].includes(env.LOG_LEVEL) ? env.LOG_LEVEL : 'warn';
  const lines = {
    write: (s: string) => {
      const entry = JSON.parse(s) as { level: number; msg?: string };
      ctx.io.stderr(`lectern: ${entry.level >= 50 ? 'error: ' : 'warning: '}${entry.msg ?? ''}\n`);
    },
  };
  const platform = createPlatform({ dataDir: env.DATA_DIR, log: pino({ level }, lines) });
  const settings = documentStoreSettings({ ...env, ...(model ? { EMBEDDING_MODEL: model } : {}) });
  // The CLI is the local user (FR-021): the directory or file given is the root its paths must stay in.
  return { platform, deps: documentStoreDeps(platform, { ...settings, roots: [platform.dataDir] }) };
};

/** A typed error names its code first (`INVALID_PROJECT: ...`, `EMBEDDING_MISMATCH: ...`): scripts test for it. */
const named = (error: unknown): unknown =>
  isAppError(error) && !error.message.startsWith(`${error.code}:`)
    ? new AppError(error.code, `${error.code}: ${error.message}`)
    : error;

const withDeps = async <T>(ctx: CliContext, model: string | undefined, work: (o: Opened) => Promise<T>): Promise<T> => {
  const opened = open(ctx, model);
  try {
    return await work(opened);
  } catch (error) {
    throw named(error);
  } finally {
    await opened.platform.close();
  }
};

const projectId = (value: string): string => {
  const parsed = ProjectIdSchema.safeParse(value);
  if (!parsed.success)
    throw new AppError(
      'invalid_arguments',
      `invalid project id "${value}": ${parsed.error.issues[0]?.message ?? 'bad id'}`,
    );
  return parsed.data;
};

const positiveInt =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new AppError('invalid_arguments', `${name} must be a positive integer, got "${value}"`);
    return n;
  };

const nonNegativeInt =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0)
      throw new AppError('invalid_arguments', `${name} must be a non-negative integer, got "${value}"`);
    return n;
  };

/** A heading policy from the options given over a base (the project's, or the defaults), max tokens capped at the model's limit. */
const headingPolicy = (
  base: ChunkingPolicy,
  modelMax: number,
  o: { maxTokens?: number; overlap?: number; headingContext?: boolean },
): ChunkingPolicy => ({
  kind: 'heading',
  max_tokens: Math.min(o.maxTokens ?? (base.kind === 'heading' ? base.max_tokens : undefined) ?? modelMax, modelMax),
  overlap_tokens: o.overlap ?? (base.kind === 'heading' ? base.overlap_tokens : undefined) ?? 0,
  heading_context: o.headingContext ?? (base.kind === 'heading' ? base.heading_context : undefined) ?? true,
});

const print = (ctx: CliContext, json: boolean | undefined, value: unknown, human: () => string): void => {
  ctx.io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : human());
};

const describeRecord = (r: ProjectRecord, points?: number): string =>
  `${r.project}\n  collection: ${r.collection}${points !== undefined ? ` (${points} chunks)` : ''}\n` +
  `  model: ${r.fingerprint.model_id}@${r.fingerprint.revision} (${r.fingerprint.dimension}-d)\n  hybrid: ${r.hybrid}\n` +
  `  chunking: ${describeChunking(r.chunking)}\n` +
  `  references: ${r.references_path ?? '(none)'}\n` +
  (r.previous_collections.length ? `  kept collections: ${r.previous_collections.join(', ')}\n` : '') +
  `  created: ${r.created_at} (${r.origin}), updated: ${r.updated_at}\n`;

/** A file progress bar on an interactive stderr; nothing otherwise. */
const fileProgress = (ctx: CliContext, label: string) => {
  if (!ctx.io.stderrIsTTY) return { update: () => undefined, stop: () => undefined };
  const stream = {
    isTTY: true,
    columns: 100,
    write: (s: string) => (ctx.io.stderr(s), true),
  } as unknown as NodeJS.WritableStream;
  let bar: SingleBar | undefined;
  return {
    update: (done: number, total: number) => {
      if (!bar) {
        bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} files`, hideCursor: true, stream, fps: 10 });
        bar.start(total, 0);
      }
      bar.update(done);
    },
    stop: () => bar?.stop(),
  };
};

const summaryText = (s: ProjectRunSummary): string => {
  const lines = [
    `${s.kind} ${s.project}: ${s.totals.documents} documents, ${s.totals.chunks} chunks (${s.totals.written} written, ${s.totals.removed} stale removed), ` +
      `${s.totals.errors} errors, model ${s.model}, ${(s.duration_ms / 1000).toFixed(1)} s`,
  ];
  for (const d of s.documents) {
    const cite =
      d.citation === null
        ? ''
        : 'unmatched' in d.citation
          ? ', no citation'
          : `, ${d.citekey} (${d.citation.by} ${d.citation.score})`;
    lines.push(`  ${d.file}: ${d.page_count} pages, ${d.chunks} chunks${cite}`);
  }
  for (const e of s.errors) lines.push(`  skipped ${e.file}: ${e.error}`);
  if (s.citations.references)
    lines.push(`citations: ${s.citations.matched} matched, ${s.citations.unmatched} unmatched`);
  if (s.citations.warning) lines.push(`warning: ${s.citations.warning}`);
  return `${lines.join('\n')}\n`;
};

/** The files of a path: a directory (recursive, every type the converter reads) or one file; the root is the directory. */
const filesOf = async (path: string): Promise<{ root: string; files: string[] }> => {
  const abs = resolve(path);
  let stat;
  try {
    stat = statSync(abs);
  } catch {
    throw new AppError('file_not_found', `No such file or directory: ${path}`);
  }
  if (stat.isDirectory()) return { root: abs, files: await listDocumentFiles(abs, SUPPORTED_EXTENSIONS) };
  return { root: dirname(abs), files: [abs] };
};

interface IngestOpts {
  project: string;
  references?: string;
  titleThreshold?: number;
  model?: string;
  json?: boolean;
}

const runIngest = async (
  ctx: CliContext,
  path: string,
  o: IngestOpts & { kind: 'ingest' | 'reindex'; limit?: number; resume?: boolean },
): Promise<void> => {
  const project = projectId(o.project);
  const { root, files } = await filesOf(path);
  await withDeps(ctx, o.model, async ({ platform, deps }) => {
    const embedder = await deps.embedders.configured();
    const statePath = resumeStatePath(platform.dataDir, project, root);
    const plan =
      o.kind === 'reindex'
        ? await planReindex(statePath, { project, root, files, limit: o.limit, resume: Boolean(o.resume) })
        : { todo: files, state: null };
    const bar = fileProgress(ctx, `${o.kind} ${project}`);
    // Ctrl-C stops the run at the file's next boundary, after removing what that file wrote; a second one kills.
    const interrupted = new AbortController();
    const onInterrupt = () => interrupted.abort();
    process.once('SIGINT', onInterrupt);
    let summary: ProjectRunSummary;
    try {
      summary = await runProjectIngest(deps, {
        project,
        root,
        files: plan.todo,
        kind: o.kind,
        embedder,
        referencesPath: o.references ? resolve(o.references) : undefined,
        titleThreshold: o.titleThreshold,
        onFile: (done, total) => bar.update(done, total),
        signal: interrupted.signal,
      });
    } finally {
      process.off('SIGINT', onInterrupt);
      bar.stop();
    }
    if (plan.state) {
      // A file that failed was processed too (reported, skipped): a resumed run does not retry it.
      const done = new Set([
        ...plan.state.done,
        ...summary.documents.map((d) => resolve(root, d.file)),
        ...summary.errors.map((e) => resolve(root, e.file)),
      ]);
      const state = { ...plan.state, done: plan.state.files.filter((f) => done.has(f)) };
      await saveReindexState(statePath, state);
      const remaining = state.files.length - state.done.length;
      if (!o.json && remaining > 0) ctx.io.stderr(`lectern: ${remaining} files left: run again with --resume\n`);
    }
    print(ctx, o.json, summary, () => summaryText(summary));
    if (summary.totals.errors > 0 && summary.totals.documents === 0) {
      throw new AppError('ingest_failed', `no document of ${path} could be ingested`);
    }
  });
};

/**
 * Spec 004's command line (US1-US6): `project create|list|show`, `ingest`, `search`, `inspect`, `validate`,
 * `reindex`, `rebuild`, `audit`. Human output by default, `--json` for scripts; exit 0 on success, 1 on a typed
 * error (unknown project, mismatch, failed validation), 2 on anything unexpected.
 */
export const registerProjectCommands = (program: Command, context: () => CliContext): void => {
  const project = program
    .command('project')
    .description('spec 004 projects: one collection, model and references file each');
  project
    .command('create')
    .description('create a project (its collection, model and chunking policy)')
    .argument('<id>', 'project id (letters, digits, "_" and "-")')
    .option('--model <model>', 'embedding model (default: EMBEDDING_MODEL)')
    .option('--references <file>', "CSL-JSON export of the project's references")
    .option('--no-hybrid', 'no full-text index (semantic search only)')
    .option('--max-tokens <n>', "most tokens per chunk (default: the model's limit)", positiveInt('--max-tokens'))
    .option('--overlap <n>', 'overlap tokens between chunks of a section (default 0)', nonNegativeInt('--overlap'))
    .option('--no-heading-context', 'embed chunks without their section path first (default: with it)')
    .option('--json', 'print the record as JSON')
    .action(
      async (
        id: string,
        o: {
          model?: string;
          references?: string;
          hybrid: boolean;
          maxTokens?: number;
          overlap?: number;
          headingContext: boolean;
          json?: boolean;
        },
      ) => {
        const ctx = context();
        await withDeps(ctx, o.model, async ({ deps }) => {
          const embedder = await deps.embedders.configured();
          const { record } = await createProject(deps, {
            project: projectId(id),
            hybrid: o.hybrid,
            fingerprint: embedder.fingerprint,
            referencesPath: o.references ? resolve(o.references) : null,
            chunking: headingPolicy({ kind: 'heading' }, embedder.maxTokens, o),
          });
          print(ctx, o.json, record, () => `created ${describeRecord(record)}`);
        });
      },
    );
  project
    .command('list')
    .description('list projects with their collection, model and size')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const ctx = context();
      await withDeps(ctx, undefined, async ({ deps }) => {
        const listed = await listProjects(deps);
        print(ctx, o.json, listed, () =>
          listed.projects.length === 0
            ? 'no projects (create one with `lectern project create <id>`)\n'
            : listed.projects
                .map(
                  (p) =>
                    `${p.project}\t${p.collection}\t${p.embedding_model}\t${p.points_count} chunks${p.hybrid_enabled ? '\thybrid' : ''}\n`,
                )
                .join(''),
        );
      });
    });
  project
    .command('show')
    .description('show a project record')
    .argument('<id>', 'project id')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const ctx = context();
      await withDeps(ctx, undefined, async ({ deps }) => {
        const { record, info } = await requireProject(deps, projectId(id));
        print(ctx, o.json, { ...record, points_count: info.pointsCount }, () =>
          describeRecord(record, info.pointsCount),
        );
      });
    });

  program
    .command('ingest')
    .description('ingest a directory (recursively) or a file into a project')
    .argument('<path>', 'directory or file')
    .requiredOption('-p, --project <id>', 'project')
    .option('--references <file>', "CSL-JSON file (default: the project's)")
    .option('--title-threshold <x>', 'fuzzy title match threshold 0-1 (default 0.85)', (v) => Number(v))
    .option('--model <model>', "the model this ingest writes with (refused unless it is the project's)")
    .option('--json', 'print the summary as JSON')
    .action(async (path: string, o: IngestOpts) => runIngest(context(), path, { ...o, kind: 'ingest' }));

  program
    .command('reindex')
    .description('re-chunk and update a project from a directory: only changed chunks are written, stale ones removed')
    .argument('<dir>', 'directory (or file)')
    .requiredOption('-p, --project <id>', 'project')
    .option('--limit <n>', 'process at most n documents (then --resume)', positiveInt('--limit'))
    .option('--resume', 'continue the previous --limit run')
    .option('--references <file>', "CSL-JSON file (default: the project's)")
    .option('--title-threshold <x>', 'fuzzy title match threshold 0-1', (v) => Number(v))
    .option('--model <model>', 'the model this run writes with')
    .option('--json', 'print the summary as JSON')
    .action(async (dir: string, o: IngestOpts & { limit?: number; resume?: boolean }) =>
      runIngest(context(), dir, { ...o, kind: 'reindex' }),
    );

  program
    .command('search')
    .description('search a project (semantic; --hybrid for BM25 + dense)')
    .argument('<query>', 'natural language query')
    .requiredOption('-p, --project <id>', 'project')
    .option('--hybrid', 'hybrid search (query_hybrid)')
    .option('-k, --top-k <n>', 'results (default 6)', positiveInt('--top-k'))
    .option('--tag <tag...>', 'only chunks with one of these tags')
    .option('--doc <id...>', 'only chunks of these documents')
    .option('--max-chars <n>', 'trim each text to n characters', positiveInt('--max-chars'))
    .option('--json', 'print JSON (find_chunks / query_hybrid output)')
    .action(
      async (
        query: string,
        o: {
          project: string;
          hybrid?: boolean;
          topK?: number;
          tag?: string[];
          doc?: string[];
          maxChars?: number;
          json?: boolean;
        },
      ) => {
        const ctx = context();
        await withDeps(ctx, undefined, async ({ deps }) => {
          const input = {
            project: projectId(o.project),
            query,
            ...(o.topK ? { top_k: Math.min(o.topK, 50) } : {}),
            ...(o.tag || o.doc
              ? { filters: { ...(o.tag ? { tags: o.tag } : {}), ...(o.doc ? { doc_ids: o.doc } : {}) } }
              : {}),
            ...(o.maxChars ? { max_chars: Math.max(50, o.maxChars) } : {}),
          };
          const out = o.hybrid ? await queryHybrid(deps, input) : await findChunks(deps, input);
          print(ctx, o.json, out, () =>
            out.results.length === 0
              ? `${out.message ?? 'no results'}\n`
              : out.results
                  .map(
                    (r, i) =>
                      `${i + 1}. ${r.citation_text} ${r.section_path.join(' > ') || '(no section)'}  [${r.score}]\n   ${r.text.replace(/\s+/g, ' ')}\n`,
                  )
                  .join(''),
          );
        });
      },
    );

  program
    .command('inspect')
    .description('collection size, model, indexes and sample payloads of a project')
    .requiredOption('-p, --project <id>', 'project')
    .option('--sample <n>', 'sample payloads (default 1, at most 10)', (v) => Math.min(10, Math.max(0, Number(v) || 0)))
    .option('--json', 'print JSON (inspect_collection output)')
    .action(async (o: { project: string; sample?: number; json?: boolean }) => {
      const ctx = context();
      await withDeps(ctx, undefined, async ({ deps }) => {
        const out = await inspectProject(deps, { project: projectId(o.project), sample_size: o.sample ?? 1 });
        print(
          ctx,
          o.json,
          out,
          () =>
            `${out.project}: collection ${out.collection}, ${out.points_count} chunks of ${out.documents_count} documents\n` +
            `  model: ${out.embedding_model.model_id}@${out.embedding_model.revision} (${out.embedding_model.dimension}-d), hybrid: ${out.hybrid_enabled}\n` +
            `  indexes: ${out.indexes.map((i) => `${i.field} (${i.type})`).join(', ')}\n` +
            out.sample_payloads.map((p) => `  sample: ${JSON.stringify(p)}\n`).join(''),
        );
      });
    });

  program
    .command('validate')
    .description(
      'check tokenizer/model alignment, store, collection, model, indexes and references of a project (exit 1 on a failed check)',
    )
    .requiredOption('-p, --project <id>', 'project')
    .option('--model <model>', 'the model writes would use (default: EMBEDDING_MODEL)')
    .option('--json', 'print JSON')
    .action(async (o: { project: string; model?: string; json?: boolean }) => {
      const ctx = context();
      await withDeps(ctx, o.model, async ({ deps }) => {
        const embedder = await deps.embedders.configured();
        const report = await validateProject(deps, projectId(o.project), embedder);
        print(ctx, o.json, report, () =>
          report.checks.map((c) => `${c.ok ? 'pass' : 'FAIL'}  ${c.check}: ${c.message}\n`).join(''),
        );
        if (!report.ok)
          throw new AppError(
            'validation_failed',
            `project ${o.project} failed ${report.checks.filter((c) => !c.ok).length} check(s)`,
          );
      });
    });

  program
    .command('rebuild')
    .description(
      're-embed a project (or, with --max-tokens/--overlap/--[no-]heading-context, re-chunk it from its source files) into a new collection and switch to it (the old one is kept until --drop-old)',
    )
    .requiredOption('-p, --project <id>', 'project')
    .option('--migrate-to <model>', "the new embedding model (default: the project's)")
    .option('--drop-old', 'drop the collections kept by earlier rebuilds (after this one is verified)')
    .option(
      '--max-tokens <n>',
      'new policy: most tokens per chunk (re-chunks every document from its source file)',
      positiveInt('--max-tokens'),
    )
    .option('--overlap <n>', 'new policy: overlap tokens between chunks of a section', nonNegativeInt('--overlap'))
    .option('--heading-context', 'new policy: embed each chunk with its section path first')
    .option('--no-heading-context', 'new policy: embed chunks without their section path')
    .option('--json', 'print JSON')
    .action(
      async (o: {
        project: string;
        migrateTo?: string;
        dropOld?: boolean;
        maxTokens?: number;
        overlap?: number;
        headingContext?: boolean;
        json?: boolean;
      }) => {
        const ctx = context();
        const id = projectId(o.project);
        // Without --migrate-to the project's own model is used: find it before composing the embedders.
        const model =
          o.migrateTo ??
          (await withDeps(
            ctx,
            undefined,
            async ({ deps }) => (await requireProject(deps, id)).record.fingerprint.model_id,
          ));
        await withDeps(ctx, model, async ({ deps }) => {
          const embedder = await deps.embedders.configured();
          // --max-tokens, --overlap or --[no-]heading-context: a new chunking policy over the project's current one.
          const policyGiven = o.maxTokens !== undefined || o.overlap !== undefined || o.headingContext !== undefined;
          const policy = policyGiven
            ? headingPolicy((await requireProject(deps, id)).record.chunking, embedder.maxTokens, o)
            : undefined;
          const dropOnly =
            Boolean(o.dropOld) &&
            !o.migrateTo &&
            !policy &&
            ((await readProjectRecord(deps.store, id))?.previous_collections.length ?? 0) > 0;
          const bar = fileProgress(ctx, `rebuild ${id}`);
          const summary = await rebuildProject(deps, {
            project: id,
            embedder,
            dropOld: Boolean(o.dropOld),
            dropOnly,
            ...(policy ? { policy } : {}),
            onProgress: (d, t) => bar.update(d, t),
          }).finally(() => bar.stop());
          print(ctx, o.json, summary, () => `${summary.steps.map((s) => `${id}: ${s}`).join('\n')}\n`);
        });
      },
    );

  program
    .command('audit')
    .description('audit records of a project (ingest, reindex, rebuild, retrieval), newest first')
    .requiredOption('-p, --project <id>', 'project')
    .option('--kind <kind>', 'ingest, reindex, rebuild or retrieval')
    .option('--limit <n>', 'most records (default 20)', positiveInt('--limit'))
    .option('--json', 'print JSON')
    .action(async (o: { project: string; kind?: string; limit?: number; json?: boolean }) => {
      const ctx = context();
      const kind =
        o.kind === undefined ? undefined : z.enum(['ingest', 'reindex', 'rebuild', 'retrieval']).safeParse(o.kind);
      if (kind && !kind.success)
        throw new AppError('invalid_arguments', `--kind must be ingest, reindex, rebuild or retrieval`);
      await withDeps(ctx, undefined, async ({ deps }) => {
        const id = projectId(o.project);
        await requireProject(deps, id);
        const records = (await deps.audit?.list({ project: id, kind: kind?.data, limit: o.limit ?? 20 })) ?? [];
        print(ctx, o.json, records, () =>
          records.length === 0
            ? 'no audit records\n'
            : records
                .map((r) =>
                  r.kind === 'retrieval'
                    ? `${r.at} retrieval ${r.tool} "${r.query}" -> ${r.returned_chunk_ids?.length ?? 0} chunks\n`
                    : `${r.at} ${r.kind} ${r.totals ? `${r.totals.documents} documents, ${r.totals.chunks} chunks, ${r.totals.errors} errors` : (r.steps ?? []).join('; ')} (${r.model ?? ''}, ${(r.duration_ms / 1000).toFixed(1)} s)\n`,
                )
                .join(''),
        );
      });
    });
};
