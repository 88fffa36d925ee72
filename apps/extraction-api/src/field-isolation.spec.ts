// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import {
  chunkReader,
  connectDocTools,
  docIndexBuild,
  extractLocally,
  FIELD_FAILED,
  finalizeResult,
  getAt,
  VERIFY_FAILED,
  schemaFields,
  type DocToolsClient,
} from '@lectern/extraction';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startExtractionApi, type RunningExtractionApi } from './doc-tools.testkit.js';
import { WIDGET_MD, WIDGET_SCHEMA } from './extraction.testkit.js';

/**
 * Per-field isolation (issue 26, round 8): a rule of the offline extractor that throws while reading one field costs
 * that field (null, a warning naming it, the error in the log only), not the task. The doc tools are the real ones
 * over MCP; the fault is a programming error (a TypeError, as a rule's bug throws) raised inside the `thd` field's
 * work, on its first search.
 */
describe('offline extractor: one field failing', () => {
  let api: RunningExtractionApi;
  let tools: DocToolsClient;

  beforeAll(async () => {
    api = await startExtractionApi();
    tools = await connectDocTools({ url: `${api.baseUrl}/mcp` });
  });
  afterAll(async () => {
    await tools.close();
    await api.stop();
  });

  it('is null with a warning naming it; the other fields are read; the error is logged, not returned', async () => {
    const path = join(api.dataDir, 'widget.md');
    writeFileSync(path, WIDGET_MD);
    const { index_id: indexId } = await docIndexBuild(tools, path);
    let thrown = 0;
    const faulty: DocToolsClient = {
      toolSpecs: () => tools.toolSpecs(),
      close: async () => undefined,
      call: async (name, args, signal) => {
        if (name === 'doc_search' && /\bthd\b/.test(String(args['query']))) {
          thrown += 1;
          throw new TypeError('cannot read properties of undefined (reading "cells")');
        }
        return tools.call(name, args, signal);
      },
    };
    const logged: { obj: unknown; msg: string }[] = [];
    const out = await extractLocally({
      tools: faulty,
      indexId,
      fields: schemaFields(WIDGET_SCHEMA),
      log: { error: (obj: unknown, msg?: string) => void logged.push({ obj, msg: msg ?? '' }) } as never,
    });
    expect(thrown).toBe(1);
    expect(out.data['thd']).toBeNull();
    expect(out.evidence['thd']).toEqual({ locator: null, snippet: null, warning: FIELD_FAILED });
    expect(out.warnings).toContain(`Field 'thd' ${FIELD_FAILED}`);
    // the error's text stays in the log
    expect(JSON.stringify(out)).not.toContain('reading "cells"');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.obj).toMatchObject({ field: 'thd', err: expect.any(TypeError) });
    // the fields before and after it are read as without the fault
    expect((out.data['electrical'] as Record<string, unknown>)['rated_current']).toBe('1.6 A');
    expect((out.data['environment'] as Record<string, unknown>)['protection_class']).toBe('IP65');
  });

  it('a doc tool error (AppError) still fails the extraction: the task is retried, not answered with nulls', async () => {
    const path = join(api.dataDir, 'widget2.md');
    writeFileSync(path, WIDGET_MD);
    const { index_id: indexId } = await docIndexBuild(tools, path);
    const unreachable: DocToolsClient = {
      toolSpecs: () => tools.toolSpecs(),
      close: async () => undefined,
      call: async () => {
        throw new AppError('doc_tools_unavailable', 'The tool doc_search failed: connection reset', {
          httpStatus: 503,
        });
      },
    };
    await expect(extractLocally({ tools: unreachable, indexId, fields: schemaFields(WIDGET_SCHEMA) })).rejects.toThrow(
      'connection reset',
    );
  });

  it('an evidence check that throws on one field costs that field, not the result', async () => {
    const path = join(api.dataDir, 'widget3.md');
    writeFileSync(path, WIDGET_MD);
    const { index_id: indexId } = await docIndexBuild(tools, path);
    const fields = schemaFields(WIDGET_SCHEMA);
    const local = await extractLocally({ tools, indexId, fields });
    const poisoned = (getAt(local.evidence, ['environment', 'protection_class']) as { locator: string }).locator;
    const logged: unknown[] = [];
    const real = chunkReader(tools, indexId);
    const outcome = await finalizeResult({
      tools,
      indexId,
      schema: WIDGET_SCHEMA,
      data: local.data,
      claimedEvidence: local.evidence,
      originalFile: 'widget.md',
      extractor: 'local',
      indexSeconds: 0,
      startedAt: process.hrtime.bigint(),
      read: async (locator) => {
        if (locator === poisoned) throw new RangeError('Maximum call stack size exceeded');
        return real(locator);
      },
      log: { error: (obj: unknown) => void logged.push(obj) } as never,
    });
    let failed = 0;
    for (const field of fields) {
      const claimed = getAt(local.evidence, field.path) as { locator?: string } | undefined;
      const leaf = getAt(outcome.evidence, field.path) as { grounded?: boolean; warning?: string };
      if (claimed?.locator === poisoned) {
        failed += 1;
        expect(getAt(outcome.data, field.path)).toBeNull();
        expect(leaf.warning).toBe(VERIFY_FAILED);
        expect(outcome.warnings).toContain(`Field '${field.path.join('.')}' ${VERIFY_FAILED}`);
      } else if (getAt(local.data, field.path) !== null) expect(leaf.grounded).toBe(true);
    }
    expect(failed).toBeGreaterThanOrEqual(1);
    expect(logged).toHaveLength(failed);
    expect(String(getAt(outcome.data, ['electrical', 'rated_current']))).toMatch(/^1\.6 ?A$/);
    expect(JSON.stringify(outcome)).not.toContain('Maximum call stack');
  });
});
