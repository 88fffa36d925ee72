// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  AppError,
  extractionTaskJobId,
  type ExtractionResult,
  type ExtractionTaskError,
  type ExtractionTaskJobPayload,
  type ExtractionTaskJobResult,
  type ExtractorKind,
} from '@lectern/contracts';
import { openPdfPages, SUPPORTED_EXTENSIONS, type PdfPages } from '@lectern/conversion';
import type { JobContext, JobQueue, JobWorker } from '@lectern/queue';
import type { Logger } from '@lectern/runtime';
import { interruptedError, type TaskRecord, type TaskStore, type TaskUploads } from '@lectern/task-store';
import { setMaxListeners } from 'node:events';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { runAgent } from './agent/agent-loop.js';
import { chunkCache, docIndexBuild } from './doc-tool-calls.js';
import type { DocToolsClient } from './doc-tools-client.js';
import { finalizeResult } from './evidence/finalize-result.js';
import type { LlmProvider } from './llm/llm.port.js';
import { extractLocally } from './local/local-extractor.js';
import { withOcrPages } from './local/ocr-pages.js';
import {
  gridCells,
  layoutPairs,
  readPageSpans,
  type GridCell,
  type LayoutPair,
  type Span,
} from './local/page-layout.js';
import { schemaFields } from './schema-fields.js';

/** The `extraction-task` queue (`platform.queue(extractionTaskQueue, ...)`: BullMQ on REDIS_URL, else in-process). */
export type ExtractionTaskQueue = JobQueue<ExtractionTaskJobPayload, ExtractionTaskJobResult>;

export interface ExtractionRunnerOptions {
  store: TaskStore;
  /** Where the task uploads are (distributed: fetched from the blob store into this replica's DATA_DIR). */
  uploads: TaskUploads;
  /** Where tasks wait and run; its attempts should be `maxRetries + 1`. */
  queue: ExtractionTaskQueue;
  /** One MCP session to the doc tools per task. */
  connectTools: () => Promise<DocToolsClient>;
  extractor: ExtractorKind;
  /** Required for the LLM extractors. */
  provider?: LlmProvider | undefined;
  /** `MAX_CONCURRENT_TASKS` (spec 003: 1): the queue worker's concurrency. */
  maxConcurrent: number;
  /** `AGENT_TIMEOUT` in ms (spec 003: 300 s) for one attempt. */
  timeoutMs: number;
  /** `AGENT_MAX_RETRIES` (spec 003: 1): attempts after the first, on failure or after a restart. */
  maxRetries: number;
  /** LLM turns per attempt (spec 003: 50). */
  maxTurns: number;
  log: Logger;
}

export const ExtractionErrorCodes = {
  unsupported: 'unsupported_format',
  timeout: 'agent_timeout',
  internal: 'internal_error',
} as const;

/** Formats the converter reads, as spec 003's error details name them ("Only PDF, DOCX, TXT, MD, HTML are supported"). */
const supportedList = (): string => {
  const names = [...new Set(SUPPORTED_EXTENSIONS.map((e) => e.slice(1).toUpperCase()))];
  return `Only ${names.slice(0, -1).join(', ')} and ${names.at(-1)} are supported`;
};

const toTaskError = (error: unknown): ExtractionTaskError =>
  error instanceof AppError
    ? { code: error.code, message: error.message, details: error.details ?? [] }
    : {
        code: ExtractionErrorCodes.internal,
        message: 'An internal error occurred. The server log has the details.',
        details: [],
      };

/** Errors a retry cannot fix. */
const isFinal = (error: unknown) =>
  error instanceof AppError &&
  [ExtractionErrorCodes.unsupported, 'doc_tool_error', 'invalid_arguments'].includes(error.code);

/** Thrown to the queue when an attempt failed and the task has attempts left: the queue runs the job again. */
const retryLater = (taskId: string, error: ExtractionTaskError): AppError =>
  new AppError('extraction_retry', `Task ${taskId}: ${error.message}`, { httpStatus: 503 });

/**
 * The execution model of spec 003 section 8 on the `extraction-task` queue (defined like every queue:
 * libs/contracts/src/queues/): a task written to the store is enqueued; the queue's worker runs `maxConcurrent`
 * jobs at once; each job claims its task in the store (a guarded status change, so a task runs once however often
 * it was enqueued), bounds the attempt by `timeoutMs`, and writes the outcome. A failed attempt is re-queued in the
 * store and thrown back to the queue, which runs it again after its backoff while `attempts <= maxRetries`; then
 * the task fails with its error. The store stays the durable record: tasks a dead process left running are
 * re-queued (or failed) by `start()`, and every queued task is enqueued again.
 */
export class ExtractionRunner {
  private readonly running = new Map<string, AbortController>();
  private worker: JobWorker | undefined;
  private closed = false;

  constructor(private readonly options: ExtractionRunnerOptions) {
    if (options.extractor !== 'local' && !options.provider)
      throw new Error(`extractor ${options.extractor} needs an LLM provider`);
  }

  get extractor(): ExtractorKind {
    return this.options.extractor;
  }

  /**
   * Recover interrupted tasks (a store this process owns: every task left running; a shared store: none, the
   * queue delivers a dead worker's job again), start the queue's worker, then enqueue every queued task (a job
   * already on the queue is not added twice: same job id).
   */
  async start(): Promise<void> {
    const recovered = await this.options.store.recoverInterrupted(this.options.maxRetries);
    if (recovered.requeued.length || recovered.failed.length)
      this.options.log.warn(recovered, 'tasks interrupted by a restart: re-queued or failed');
    this.worker ??= this.options.queue.process((payload, ctx) => this.runJob(payload.task_id, ctx), {
      concurrency: this.options.maxConcurrent,
    });
    for (const id of await this.options.store.queuedIds()) await this.enqueue(id);
  }

  /** Put a queued task on the queue (one job per task and attempt count: a job id never hides a re-queued task). */
  async enqueue(taskId: string): Promise<void> {
    if (this.closed) return;
    try {
      const attempts = (await this.options.store.get(taskId))?.attempts ?? 0;
      await this.options.queue.add({ version: 1, task_id: taskId }, { jobId: extractionTaskJobId(taskId, attempts) });
    } catch (err) {
      this.options.log.error({ err, task_id: taskId }, 'extraction task could not be queued; it runs after a restart');
    }
  }

  /** Stop a task's work (it was deleted); a job still waiting finds no task to claim. */
  cancel(taskId: string): void {
    this.running.get(taskId)?.abort(new AppError('task_deleted', 'The task was deleted.'));
  }

  /**
   * Stop taking tasks and abort the running ones; they stay `running` in the store and are recovered at the next
   * start. The worker's close then hands their jobs back to the queue.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const controller of this.running.values())
      controller.abort(new AppError('shutting_down', 'The service is shutting down.', { httpStatus: 503 }));
    await this.worker?.close();
  }

  private async runJob(taskId: string, ctx: JobContext): Promise<ExtractionTaskJobResult> {
    const controller = new AbortController();
    // every MCP request and LLM call of the task listens on this one signal (hundreds for a large schema)
    setMaxListeners(0, controller.signal);
    const onQueueAbort = () => controller.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onQueueAbort, { once: true });
    this.running.set(taskId, controller);
    try {
      return { version: 1, outcome: await this.runTask(taskId, controller, ctx.jobId) };
    } finally {
      ctx.signal.removeEventListener('abort', onQueueAbort);
      this.running.delete(taskId);
    }
  }

  private async runTask(
    taskId: string,
    controller: AbortController,
    jobId: string,
  ): Promise<ExtractionTaskJobResult['outcome']> {
    const { store, log } = this.options;
    if (this.closed) throw new AppError('shutting_down', 'The service is shutting down.', { httpStatus: 503 });
    // a job delivered again after its worker died re-claims its task (one more attempt)
    const task = await store.claim(taskId, { stage: 'indexing' }, jobId);
    if (!task) return 'skipped'; // deleted, finished, or run by another job
    if (task.attempts > this.options.maxRetries + 1) {
      await store.fail(taskId, interruptedError(task.attempts - 1, this.options.maxRetries));
      log.warn({ task_id: taskId, attempts: task.attempts - 1 }, 'extraction task interrupted too often; failed');
      return 'failed';
    }
    const ext = extname(task.original_filename).toLowerCase();
    if (!SUPPORTED_EXTENSIONS.includes(ext)) {
      await store.fail(taskId, {
        code: ExtractionErrorCodes.unsupported,
        message: `Unsupported file format: ${ext || '(no extension)'}`,
        details: [supportedList()],
      });
      return 'failed';
    }
    const timer = setTimeout(
      () =>
        controller.abort(
          new AppError(
            ExtractionErrorCodes.timeout,
            `The extraction did not finish within ${this.options.timeoutMs / 1000} s (AGENT_TIMEOUT).`,
            { httpStatus: 504 },
          ),
        ),
      this.options.timeoutMs,
    );
    try {
      const result = await this.extract(task, controller.signal);
      if (controller.signal.aborted) throw controller.signal.reason;
      await store.succeed(taskId, result);
      log.info(
        { task_id: taskId, extractor: result.extractor, timing: result.timing, warnings: result.warnings.length },
        'extraction task succeeded',
      );
      return 'succeeded';
    } catch (thrown) {
      const error = controller.signal.aborted ? controller.signal.reason : thrown;
      // shutting down: left running, recovered at the next start; the queue gets the job back
      if (this.closed) throw new AppError('shutting_down', 'The service is shutting down.', { httpStatus: 503 });
      if (error instanceof AppError && error.code === 'task_deleted') return 'skipped';
      if (!(error instanceof AppError))
        log.error({ err: error, task_id: taskId }, 'extraction task failed unexpectedly');
      if (!isFinal(error) && task.attempts <= this.options.maxRetries) {
        log.warn({ task_id: taskId, attempt: task.attempts, err: error }, 'extraction attempt failed; retrying');
        if (await store.requeue(taskId, `Attempt ${task.attempts} failed: ${toTaskError(error).message}`))
          throw retryLater(taskId, toTaskError(error));
        return 'skipped'; // deleted meanwhile
      }
      await store.fail(taskId, toTaskError(error));
      log.warn({ task_id: taskId, error: toTaskError(error) }, 'extraction task failed');
      return 'failed';
    } finally {
      clearTimeout(timer);
    }
  }

  private async extract(task: TaskRecord, signal: AbortSignal): Promise<ExtractionResult> {
    const { store } = this.options;
    const startedAt = process.hrtime.bigint();
    const uploadPath = await this.options.uploads.localPath(task);
    if (!uploadPath)
      throw new AppError('upload_missing', 'The uploaded document is no longer stored; submit it again.', {
        httpStatus: 410,
      });
    // progress is informative: a failed write of it does not stop the task
    const progress = (value: Parameters<TaskStore['setProgress']>[1]): void =>
      void store.setProgress(task.task_id, value).catch(() => undefined);
    const fields = schemaFields(task.schema);
    const total = fields.length;
    const tools = await this.options.connectTools();
    // every chunk is read once per task: by the extractor (or the agent), then found here by the evidence check
    const chunks = chunkCache(tools, signal);
    let pages: PdfPages | undefined;
    /** The layout's pages when it read some by OCR: the evidence of a scanned page is searched in them. */
    let scanned: Span[][] | undefined;
    try {
      let indexId: string;
      let indexSeconds: number;
      let data: Record<string, unknown>;
      let evidence: Record<string, unknown>;
      let warnings: string[] = [];
      if (this.options.extractor === 'local') {
        const indexStarted = process.hrtime.bigint();
        indexId = (await docIndexBuild(tools, uploadPath, signal)).index_id;
        indexSeconds = Number(process.hrtime.bigint() - indexStarted) / 1e9;
        progress({ stage: 'extracting', fields_done: 0, fields_total: total });
        const local = await extractLocally({
          tools,
          indexId,
          fields,
          ...(await taskLayout(uploadPath, fields, (p) => (scanned = p))),
          signal,
          read: chunks.reader(indexId),
          log: this.options.log.child({ task_id: task.task_id }),
          onField: (done) => progress({ stage: 'extracting', fields_done: done, fields_total: total }),
        });
        ({ data, evidence, warnings } = local);
      } else {
        const agent = await runAgent({
          provider: this.options.provider!,
          tools,
          filePath: uploadPath,
          schema: task.schema,
          signal,
          maxTurns: this.options.maxTurns,
          log: this.options.log.child({ task_id: task.task_id }),
          onChunk: chunks.remember,
          onSearch: (searches) =>
            progress({ stage: 'extracting', fields_done: Math.min(searches, total), fields_total: total }),
        });
        indexSeconds = agent.indexSeconds;
        indexId = agent.indexId ?? (await docIndexBuild(tools, uploadPath, signal)).index_id;
        ({ data, evidence } = agent);
        if (agent.refusals.length)
          warnings = [
            `The agent broke the search-then-read protocol ${agent.refusals.length} time(s); those calls were refused.`,
          ];
      }
      progress({ stage: 'verifying', fields_done: total, fields_total: total });
      pages = await openTaskPdf(uploadPath, scanned);
      const outcome = await finalizeResult({
        pages,
        tools,
        indexId,
        read: chunks.reader(indexId),
        schema: task.schema,
        data,
        claimedEvidence: evidence,
        originalFile: task.original_filename,
        extractor: this.options.extractor,
        indexSeconds,
        startedAt,
        signal,
        warnings,
        log: this.options.log.child({ task_id: task.task_id }),
      });
      return {
        task_id: task.task_id,
        data: outcome.data,
        evidence: outcome.evidence,
        warnings: outcome.warnings,
        timing: outcome.timing,
        extractor: outcome.extractor,
      };
    } finally {
      pages?.close();
      await tools.close().catch(() => undefined);
    }
  }
}

/**
 * The label ↔ value pairs and the grid cells (round 12) of the task's PDF from its page layout (page-layout.ts; the
 * first pages only); none for another format or a PDF mupdf cannot read (the Markdown's rules still run).
 */
const taskLayout = async (
  path: string,
  fields: ReturnType<typeof schemaFields>,
  onScanned: (pages: Span[][]) => void,
): Promise<{ layout?: LayoutPair[]; grid?: GridCell[] }> => {
  if (!/\.pdf$/i.test(path)) return {};
  try {
    const pages = await readPageSpans(await readFile(path));
    if (pages.some((spans) => spans.some((s) => s.quad))) onScanned(pages);
    return { layout: layoutPairs(pages, fields), grid: gridCells(pages) };
  } catch {
    return {};
  }
};

/**
 * The task's document opened for page search when it is a PDF (evidence quads), its scanned pages searched in the
 * layout's OCR text (`withOcrPages`); undefined otherwise.
 */
const openTaskPdf = async (path: string, scanned?: Span[][]): Promise<PdfPages | undefined> => {
  if (!/\.pdf$/i.test(path)) return undefined;
  try {
    const pdf = await openPdfPages(await readFile(path));
    // (a page the layout read by OCR: its evidence is the OCR words' boxes; round 14)
    return scanned ? withOcrPages(pdf, scanned) : pdf;
  } catch {
    // an unreadable PDF was already refused by the conversion; evidence then carries no page
    return undefined;
  }
};
