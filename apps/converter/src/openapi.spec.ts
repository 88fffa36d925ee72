// SPDX-License-Identifier: AGPL-3.0-or-later
import { ConversionTaskCreatedSchema } from '@lectern/contracts';
import { openApiErrors, makeTextPdf } from '@lectern/testing';
import { postFile, startConverter, type TestConverter } from './converter.testkit.js';

/** A one-page generated PDF holding these lines (no ../shared needed). */
const onePagePdf = (lines: readonly string[]): Uint8Array => makeTextPdf([lines]);

describe('converter OpenAPI (GET /openapi.json, /docs)', () => {
  let converter: TestConverter;
  afterEach(async () => converter.close());

  it('is valid OpenAPI 3, open without a token, and describes /convert and /tasks from the contracts', async () => {
    converter = await startConverter({ CONVERTER_API_KEY: 'own-token' });
    const res = await fetch(`${converter.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(await openApiErrors(doc)).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/convert', '/tasks', '/tasks/{id}', '/tasks/{id}/result', '/health']),
    );
    const created = doc.paths['/tasks']?.['post']?.responses['202'];
    expect(JSON.stringify(created)).toContain('deduplicated');
    expect(JSON.stringify(created)).toContain('Location');
    expect(JSON.stringify(doc.paths['/convert']?.['post']?.responses['200'])).toContain('page_count');
    expect((await fetch(`${converter.baseUrl}/docs`)).status).toBe(200);
    expect((await fetch(`${converter.baseUrl}/tasks/x`)).status).toBe(401);
  });
});

describe('POST /tasks: Location', () => {
  let converter: TestConverter;
  afterEach(async () => converter.close());

  it('the 202 answer names the task in Location, and that URL answers its status', async () => {
    converter = await startConverter();
    const res = await postFile(converter.baseUrl, '/tasks', {
      bytes: onePagePdf(['A task with a location.']),
      filename: 'loc.pdf',
    });
    expect(res.status).toBe(202);
    const { task_id } = ConversionTaskCreatedSchema.parse(await res.json());
    expect(res.headers.get('location')).toBe(`/tasks/${task_id}`);
    const status = await fetch(new URL(res.headers.get('location') ?? '', converter.baseUrl));
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ task_id });
  });
});
