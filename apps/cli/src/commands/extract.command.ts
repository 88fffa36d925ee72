// SPDX-License-Identifier: AGPL-3.0-or-later
import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AppError,
  ExtractionResultSchema,
  ExtractionSchemaSkeleton,
  ExtractionTaskCreatedSchema,
  ExtractionTaskFailedSchema,
  ExtractionTaskStatusSchema,
  RestErrorSchema,
  type ExtractionResult,
  type ExtractionTaskStatus,
} from '@lectern/contracts';
import type { Command } from 'commander';
import type { CliContext } from '../cli.js';

interface ExtractOptions {
  url?: string;
  json?: boolean;
  interval: string;
}

const failure = (message: string) => new AppError('extract_failed', message);

/** The REST error of a response, as one line. */
const problemOf = async (response: Response): Promise<string> => {
  const parsed = RestErrorSchema.safeParse(await response.json().catch(() => null));
  return parsed.success ? `${parsed.data.error.message} (${parsed.data.error.code})` : `HTTP ${response.status}`;
};

const progressLine = (task: ExtractionTaskStatus): string => {
  const { stage, fields_done: done, fields_total: total } = task.progress;
  return `${task.status}${task.status === 'running' ? `: ${stage}${total ? ` ${done ?? 0}/${total} fields` : ''}` : ''}`;
};

/** One line per field: `path = value` with its evidence's locator, `?` when the value is not grounded. */
const summary = (result: ExtractionResult): string => {
  const lines: string[] = [];
  const walk = (data: unknown, evidence: unknown, path: string) => {
    const ev = evidence as { locator?: string | null; grounded?: boolean } | undefined;
    if (data && typeof data === 'object' && !Array.isArray(data) && !(ev && 'locator' in ev)) {
      for (const [key, value] of Object.entries(data)) {
        if (!path && key === 'original_file') continue; // the file's name, not a field
        walk(value, (evidence as Record<string, unknown> | undefined)?.[key], path ? `${path}.${key}` : key);
      }
      return;
    }
    const mark = data === null ? '' : ev?.grounded ? `  [${ev.locator}]` : '  [not grounded]';
    lines.push(`${path} = ${JSON.stringify(data)}${mark}`);
  };
  walk(result.data, result.evidence, '');
  const t = result.timing;
  return [
    ...lines,
    ...(result.warnings.length ? ['', 'warnings:', ...result.warnings.map((w) => `  - ${w}`)] : []),
    '',
    `extractor: ${result.extractor}; ${t.total_seconds}s (index ${t.index_seconds}s, extraction ${t.extraction_seconds}s)`,
  ].join('\n');
};

/**
 * `lectern extract <file> <schema.json> [--url U] [--json]`: submit a document and a target schema to
 * extraction-api (`POST /tasks`), show its progress while polling, then print the result (a per-field summary,
 * or the whole result JSON with `--json`). A failed task exits 1 with its error.
 */
export const registerExtractCommand = (program: Command, context: () => CliContext): void => {
  program
    .command('extract')
    .description("extract a schema's fields from a document with extraction-api, with verified evidence")
    .argument('<file>', 'the document (PDF, DOCX, HTML, TXT, MD, images)')
    .argument('<schema>', 'the target schema skeleton (a JSON file)')
    .option('--url <url>', 'extraction-api base URL (default: EXTRACTION_API_URL or http://localhost:8000)')
    .option('--json', 'print the whole result as JSON')
    .option('--interval <ms>', 'polling interval in milliseconds', '1000')
    .action(async (file: string, schemaFile: string, opts: ExtractOptions) => {
      const ctx = context();
      const base = (opts.url ?? ctx.config.EXTRACTION_API_URL).replace(/\/+$/, '');
      const token = ctx.config.EXTRACTION_API_KEY ?? ctx.config.MCP_API_KEY;
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      const interval = Math.max(100, Number(opts.interval) || 1000);
      let schemaText: string;
      try {
        schemaText = await readFile(schemaFile, 'utf8');
      } catch {
        throw failure(`cannot read the schema file ${schemaFile}`);
      }
      let schemaJson: unknown;
      try {
        schemaJson = JSON.parse(schemaText);
      } catch {
        throw failure(`${schemaFile} is not JSON`);
      }
      if (!ExtractionSchemaSkeleton.safeParse(schemaJson).success)
        throw failure(`${schemaFile} is not a JSON object skeleton (a non-empty object of fields)`);

      const form = new FormData();
      form.append(
        'file',
        await openAsBlob(resolve(file)).catch(() => Promise.reject(failure(`cannot read ${file}`))),
        basename(file),
      );
      form.append('schema', schemaText);
      const call = async (path: string, init: RequestInit = {}) => {
        try {
          return await fetch(`${base}${path}`, {
            ...init,
            headers: { ...headers, ...(init.headers as Record<string, string>) },
          });
        } catch (error) {
          throw failure(`extraction-api at ${base} cannot be reached (${(error as Error).message})`);
        }
      };
      const created = await call('/tasks', { method: 'POST', body: form });
      if (created.status !== 202) throw failure(`the task was refused: ${await problemOf(created)}`);
      const { task_id: taskId } = ExtractionTaskCreatedSchema.parse(await created.json());
      ctx.io.stderr(`lectern: task ${taskId}\n`);

      let last = '';
      let task: ExtractionTaskStatus;
      for (;;) {
        const response = await call(`/tasks/${taskId}`);
        if (!response.ok) throw failure(`cannot read task ${taskId}: ${await problemOf(response)}`);
        task = ExtractionTaskStatusSchema.parse(await response.json());
        const line = progressLine(task);
        if (line !== last) ctx.io.stderr(`lectern: ${line}\n`);
        last = line;
        if (task.status === 'succeeded' || task.status === 'failed') break;
        await sleep(interval);
      }
      const response = await call(`/tasks/${taskId}/result`);
      const body: unknown = await response.json().catch(() => null);
      if (task.status === 'failed') {
        const failed = ExtractionTaskFailedSchema.safeParse(body);
        if (opts.json && failed.success) ctx.io.stdout(`${JSON.stringify(failed.data, null, 2)}\n`);
        const error = failed.success ? failed.data.error : task.error;
        throw failure(
          `the extraction failed: ${error?.message ?? 'unknown error'}${error?.details.length ? ` (${error.details.join('; ')})` : ''}`,
        );
      }
      const result = ExtractionResultSchema.parse(body);
      ctx.io.stdout(opts.json ? `${JSON.stringify(result, null, 2)}\n` : `${summary(result)}\n`);
    });
};
