// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  ConversionResultSchema,
  ConversionTaskCreatedSchema,
  ConversionTaskStatusSchema,
  RestErrorSchema,
} from '@lectern/contracts';
import { numberedPdfFile } from '@lectern/testing';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pollTask, postFile, startConverter, type TestConverter } from './converter.testkit.js';

/** A generated 82-page text-layer PDF (this suite runs without ../shared). */
const NPPF = numberedPdfFile(82, 'NPPF_December_2024.pdf');
const corrupt = {
  bytes: new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog garbage'),
  filename: 'broken.pdf',
};

describe('POST /tasks (in-process queue)', () => {
  let converter: TestConverter;
  beforeEach(async () => {
    converter = await startConverter();
  });
  afterEach(async () => {
    await converter.close();
  });

  it('runs the conversion as a task: 202 {task_id}, status with progress, result as JSON and Markdown', async () => {
    const created = await postFile(converter.baseUrl, '/tasks', { path: NPPF });
    expect(created.status).toBe(202);
    const { task_id } = ConversionTaskCreatedSchema.parse(await created.json());
    const sha = createHash('sha256')
      .update(await readFile(NPPF))
      .digest('hex');
    expect(task_id).toBe(`convert-${sha}`);

    const seen = (await pollTask(converter.baseUrl, task_id)).map((s) => ConversionTaskStatusSchema.parse(s));
    const last = seen.at(-1);
    expect(last).toMatchObject({
      status: 'succeeded',
      fingerprint: sha,
      filename: 'NPPF_December_2024.pdf',
      attempts: 1,
      error: null,
    });
    expect(last?.progress).toEqual({ percent: 100, stage: 'done', page: 82, pages: 82 });
    // Percentages only go forward while the task runs.
    const percents = seen.map((s) => s.progress.percent);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);

    const json = await fetch(`${converter.baseUrl}/tasks/${task_id}/result`);
    expect(json.status).toBe(200);
    const result = ConversionResultSchema.parse(await json.json());
    expect(result).toMatchObject({ fingerprint: sha, page_count: 82 });
    const md = await fetch(`${converter.baseUrl}/tasks/${task_id}/result`, { headers: { accept: 'text/markdown' } });
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await md.text()).toBe(result.markdown);
  });

  it('converts the same file once, however often and however concurrently it is submitted', async () => {
    const [a, b] = await Promise.all([
      postFile(converter.baseUrl, '/tasks', { path: NPPF }),
      postFile(converter.baseUrl, '/tasks', { path: NPPF }),
    ]);
    const first = ConversionTaskCreatedSchema.parse(await a.json());
    const second = ConversionTaskCreatedSchema.parse(await b.json());
    expect(second.task_id).toBe(first.task_id);
    expect([first.deduplicated, second.deduplicated].sort()).toEqual([false, true]);
    await pollTask(converter.baseUrl, first.task_id);
    const again = ConversionTaskCreatedSchema.parse(
      await (await postFile(converter.baseUrl, '/tasks', { path: NPPF })).json(),
    );
    expect(again).toEqual({ task_id: first.task_id, status: 'succeeded', deduplicated: true });
    expect(converter.conversions()).toBe(1);
  });

  it('fails a task on a corrupt document with the typed error, once, and goes on with the next task', async () => {
    const { task_id } = ConversionTaskCreatedSchema.parse(
      await (await postFile(converter.baseUrl, '/tasks', corrupt)).json(),
    );
    const last = ConversionTaskStatusSchema.parse((await pollTask(converter.baseUrl, task_id)).at(-1));
    expect(last).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'extraction_failed' } });
    const result = await fetch(`${converter.baseUrl}/tasks/${task_id}/result`);
    expect(result.status).toBe(422);
    expect(await result.json()).toMatchObject({ task_id, status: 'failed', error: { code: 'extraction_failed' } });

    const next = ConversionTaskCreatedSchema.parse(
      await (
        await postFile(converter.baseUrl, '/tasks', {
          bytes: new TextEncoder().encode('# Next\n\nfine'),
          filename: 'next.md',
        })
      ).json(),
    );
    expect((await pollTask(converter.baseUrl, next.task_id)).at(-1)).toMatchObject({ status: 'succeeded' });
  });

  it('refuses bad uploads before they become tasks', async () => {
    const wrong = await postFile(converter.baseUrl, '/tasks', {
      bytes: new TextEncoder().encode('x'),
      filename: 'a.exe',
    });
    expect(wrong.status).toBe(415);
    expect(RestErrorSchema.parse(await wrong.json()).error.code).toBe('unsupported_file_type');
  });

  it('answers unknown tasks with 404 task_not_found', async () => {
    for (const path of ['/tasks/convert-nothing', '/tasks/convert-nothing/result']) {
      const response = await fetch(`${converter.baseUrl}${path}`);
      expect(response.status).toBe(404);
      expect(RestErrorSchema.parse(await response.json()).error.code).toBe('task_not_found');
    }
  });
});

describe('POST /tasks with a size limit', () => {
  it('answers an upload over MAX_DOCUMENT_BYTES with 413 too_large and creates no task', async () => {
    const converter = await startConverter({ MAX_DOCUMENT_BYTES: '20000' });
    try {
      const response = await postFile(converter.baseUrl, '/tasks', { path: NPPF });
      expect(response.status).toBe(413);
      expect(RestErrorSchema.parse(await response.json()).error.code).toBe('too_large');
      const sha = createHash('sha256')
        .update(await readFile(NPPF))
        .digest('hex');
      expect((await fetch(`${converter.baseUrl}/tasks/convert-${sha}`)).status).toBe(404);
    } finally {
      await converter.close();
    }
  });
});
