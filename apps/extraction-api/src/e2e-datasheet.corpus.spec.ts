// SPDX-License-Identifier: AGPL-3.0-or-later
import {
  anthropicScript,
  corpusFile,
  spawnService,
  startFakeLlm,
  type FakeLlmServer,
  type ScriptAction,
  type ScriptStep,
  type SpawnedService,
  type ToolResultSeen,
} from '@lectern/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Spec 003 section 11's end-to-end test, `test_e2e_datasheet_extraction`, on a corpus datasheet (the spec's
 * Growatt datasheet is not in ../shared/corpora; the OMRON G-Series servo motor datasheet is): the PDF and a
 * datasheet schema through `POST /tasks` on a real extraction-api process, polled to `succeeded`, then every check of
 * the spec's steps 7-10. The ground truth (step 9) is read from the datasheet's flat-motor ratings table for the
 * R88M-GP20030 (200 W): 0.64 N·m, 1.6 A, 3,000 min-1, IP65.
 *
 * The LLM is the scripted fake (a loopback server speaking the Anthropic Messages API) driving the real doc tools:
 * it searches per field, reads the hits, takes each value from the chunk it read (the table row of the model, or
 * the line holding the pattern) and cites that chunk. A variant with the real LLM runs when a provider is configured
 * (ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN, or OPENAI_MODEL with the OpenAI variables).
 */

const OMRON = () =>
  corpusFile('datasheets', 'datasheetminer-benchmark', 'datasheets', 'omron-g-series-servo-motors.pdf');

/** The model the schema asks about, as the ratings table heads its column. */
const MODEL = 'GP20030';

const SCHEMA = {
  product_identity: { series_name: '', models: [] },
  ratings: {
    rated_output_w: 0,
    rated_torque: `rated torque of the R88M-${MODEL} (flat type, 200 W)`,
    rated_current: `rated current of the R88M-${MODEL}`,
    rated_speed: `rated speed of the R88M-${MODEL}`,
    max_speed: `maximum speed of the R88M-${MODEL}`,
    torque_constant: `torque constant of the R88M-${MODEL}`,
  },
  rated_torque_per_model: {},
  environment_and_installation: { protection_class: '', ambient_operating_temperature: '', insulation_grade: '' },
  compliance_and_certifications: { certifications: [] },
  warranty: '',
};

interface Found {
  value: unknown;
  snippet: string;
}

/** How the scripted "model" looks for one field: its doc_search, then a reading of each chunk it read. */
interface FieldPlan {
  path: string[];
  query: string;
  scope?: 'tables' | 'text';
  find(content: string): Found | undefined;
}

const cellsOf = (line: string): string[] =>
  line.trim().startsWith('|')
    ? line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim())
    : [];

/** The cell of `label`'s row in the column headed by `MODEL` (or the row's one value), with the unit column's unit. */
const modelRow =
  (label: RegExp, asNumber = false) =>
  (content: string): Found | undefined => {
    const lines = content.split('\n');
    const column = lines.map(cellsOf).find((cells) => cells.some((c) => c.startsWith(`${MODEL}@`)));
    const at = column?.findIndex((c) => c.startsWith(`${MODEL}@`)) ?? -1;
    const line = lines.find((l) => label.test(cellsOf(l)[0] ?? ''));
    if (at < 0 || !line) return undefined;
    const cells = cellsOf(line);
    const values = cells.slice(2).filter(Boolean);
    const cell = cells[at] || (values.length === 1 ? values[0] : '');
    if (!cell) return undefined;
    const unit = (cells[1] ?? '').replace(/\s*\(.*\)$/, '');
    return { value: asNumber ? Number(cell.replace(/,/g, '')) : unit ? `${cell} ${unit}` : cell, snippet: line.trim() };
  };

/** Every model column of `label`'s row, keyed by the full model name (`R88M-` + the column's head). */
const perModelRow =
  (label: RegExp) =>
  (content: string): Found | undefined => {
    const lines = content.split('\n');
    const head = lines.map(cellsOf).find((cells) => cells.some((c) => c.startsWith(`${MODEL}@`)));
    const line = lines.find((l) => label.test(cellsOf(l)[0] ?? ''));
    if (!head || !line) return undefined;
    const cells = cellsOf(line);
    const unit = (cells[1] ?? '').replace(/\s*\(.*\)$/, '');
    const dict: Record<string, string> = {};
    head.forEach((h, i) => {
      const model = /^(G\w+)@$/.exec(h)?.[1];
      if (model && cells[i]) dict[`R88M-${model}`] = `${cells[i]} ${unit}`.trim();
    });
    return Object.keys(dict).length > 1 ? { value: dict, snippet: line.trim() } : undefined;
  };

/** The first match of `pattern` (its group 1 when it has one); the snippet is the table cell or line holding it. */
const pattern =
  (re: RegExp) =>
  (content: string): Found | undefined => {
    for (const line of content.split('\n')) {
      const cell = (cellsOf(line).length ? cellsOf(line) : [line.trim()]).find((c) => re.test(c));
      const m = cell ? re.exec(cell) : null;
      if (cell && m) return { value: m[1] ?? m[0], snippet: cell };
    }
    return undefined;
  };

const PLANS: FieldPlan[] = [
  {
    path: ['product_identity', 'series_name'],
    query: 'series servo motor',
    find: pattern(/\b([A-Z][\w]*-Series) servo motor/),
  },
  {
    path: ['product_identity', 'models'],
    query: 'servo motor model combination',
    scope: 'tables',
    find: (content) => {
      const models = [...new Set([...content.matchAll(/R88M-G\d\w*?(?=@)/g)].map((m) => m[0]))];
      const row = content.split('\n').find((l) => /R88M-G\d/.test(l));
      return models.length > 1 && row ? { value: models, snippet: row.trim() } : undefined;
    },
  },
  {
    path: ['ratings', 'rated_output_w'],
    query: 'rated output',
    scope: 'tables',
    find: modelRow(/^Rated output$/, true),
  },
  { path: ['ratings', 'rated_torque'], query: 'rated torque', scope: 'tables', find: modelRow(/^Rated torque$/) },
  { path: ['ratings', 'rated_current'], query: 'rated current', scope: 'tables', find: modelRow(/^Rated current$/) },
  { path: ['ratings', 'rated_speed'], query: 'rated speed', scope: 'tables', find: modelRow(/^Rated speed$/) },
  { path: ['ratings', 'max_speed'], query: 'max speed', scope: 'tables', find: modelRow(/^Max\. speed$/) },
  {
    path: ['ratings', 'torque_constant'],
    query: 'torque constant',
    scope: 'tables',
    find: modelRow(/^Torque constant$/),
  },
  {
    path: ['rated_torque_per_model'],
    query: 'rated torque',
    scope: 'tables',
    find: perModelRow(/^Rated torque$/),
  },
  {
    path: ['environment_and_installation', 'protection_class'],
    query: 'enclosure protection IP',
    find: pattern(/\b(IP\d{2})\b/),
  },
  {
    path: ['environment_and_installation', 'ambient_operating_temperature'],
    query: 'ambient operating temperature',
    scope: 'tables',
    find: pattern(/^(-?\d+ to \d+\s?°C)\/[–-]?\d+ to \d+\s?°C$/),
  },
  {
    path: ['environment_and_installation', 'insulation_grade'],
    query: 'insulation grade',
    scope: 'tables',
    find: pattern(/^(Type [A-Z])$/),
  },
  {
    path: ['compliance_and_certifications', 'certifications'],
    query: 'certifications UL CE standards',
    find: pattern(/\b(UL|CE|cULus|EN \d+)\b/),
  },
  { path: ['warranty'], query: 'warranty', find: pattern(/warranty of (\d+ years?)/i) },
];

const setAt = (target: Record<string, unknown>, path: string[], value: unknown): void => {
  let node = target;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[path[path.length - 1]!] = value;
};

const READS_PER_FIELD = 3;

/**
 * The scripted agent (spec 003 section 7's protocol): index; one doc_search per field; doc_read of each field's
 * top hits (only ever a searched locator); each value taken from the first chunk read that holds it — a chunk
 * naming the model first —, with that chunk's locator and the row or line as evidence; json_validate_and_normalize;
 * the final answer with the normalised data.
 */
const datasheetScript = (): ScriptStep => {
  let indexId = '';
  let hits: string[][] = [];
  let reads: string[] = [];
  let evidence: Record<string, unknown> = {};
  const json = (r: ToolResultSeen) => {
    if (r.isError) throw new Error(`a doc tool refused the scripted call: ${r.content}`);
    return JSON.parse(r.content) as unknown;
  };
  return (results, turn): ScriptAction => {
    if (turn === 1) return { tools: [{ name: 'doc_index_build', input: { file_path: 'the datasheet' } }] };
    if (turn === 2) {
      indexId = (json(results[0]!) as { index_id: string }).index_id;
      return {
        tools: PLANS.map((p) => ({
          name: 'doc_search',
          input: { index_id: indexId, query: p.query, top_k: 5, ...(p.scope ? { scope: p.scope } : {}) },
        })),
      };
    }
    if (turn === 3) {
      hits = results.map((r) =>
        (json(r) as Array<{ locator: string }>).slice(0, READS_PER_FIELD).map((h) => h.locator),
      );
      reads = [...new Set(hits.flat())];
      return {
        tools: reads.map((locator) => ({ name: 'doc_read', input: { index_id: indexId, locator, max_chars: 20_000 } })),
      };
    }
    if (turn === 4) {
      const content = new Map(reads.map((locator, i) => [locator, (json(results[i]!) as { content: string }).content]));
      const data: Record<string, unknown> = {};
      evidence = {};
      PLANS.forEach((plan, i) => {
        const ordered = [...hits[i]!].sort(
          (a, b) => Number(content.get(b)!.includes(MODEL)) - Number(content.get(a)!.includes(MODEL)),
        );
        for (const locator of ordered) {
          const found = plan.find(content.get(locator)!);
          if (found) {
            setAt(data, plan.path, found.value);
            setAt(evidence, plan.path, { locator, snippet: found.snippet });
            return;
          }
        }
        setAt(data, plan.path, null);
        setAt(evidence, plan.path, { locator: null, snippet: null, warning: 'Not found in document' });
      });
      return { tools: [{ name: 'json_validate_and_normalize', input: { data, schema: SCHEMA } }] };
    }
    const validated = json(results[0]!) as { ok: boolean; errors: unknown[]; normalized: unknown };
    if (!validated.ok) throw new Error(`the scripted answer did not validate: ${JSON.stringify(validated.errors)}`);
    return { text: `${JSON.stringify({ data: validated.normalized })}\n${JSON.stringify({ evidence })}` };
  };
};

interface Result {
  task_id: string;
  data: Record<string, unknown>;
  evidence: Record<string, unknown>;
  warnings: unknown;
  timing: Record<string, number>;
  extractor: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The leaves of the schema skeleton (a list, `{}` or a scalar), as paths. */
const schemaLeaves = (schema: Record<string, unknown>, at: string[] = []): string[][] =>
  Object.entries(schema).flatMap(([key, value]) =>
    isObject(value) && Object.keys(value).length > 0 ? schemaLeaves(value, [...at, key]) : [[...at, key]],
  );

const getAt = (target: unknown, path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), target);

const isEmpty = (value: unknown) =>
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (isObject(value) && Object.keys(value).length === 0);

/** Evidence leaves of one field: one leaf, or one per model for a per-model field. */
const evidenceLeaves = (leaf: unknown): Array<Record<string, unknown>> =>
  isObject(leaf) && ('locator' in leaf || 'snippet' in leaf)
    ? [leaf]
    : isObject(leaf)
      ? Object.values(leaf).flatMap(evidenceLeaves)
      : [];

/** Steps 1-6: POST /tasks with the file and the schema, 202 and a task_id, polled to succeeded, the result. */
const extract = async (baseUrl: string): Promise<Result> => {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(OMRON())]), basename(OMRON()));
  form.append('schema', JSON.stringify(SCHEMA));
  const created = await fetch(`${baseUrl}/tasks`, { method: 'POST', body: form });
  expect(created.status).toBe(202);
  const { task_id } = (await created.json()) as { task_id: string };
  expect(task_id).toEqual(expect.any(String));
  let status: { status: string; error: unknown };
  do {
    await new Promise((r) => setTimeout(r, 250));
    status = (await (await fetch(`${baseUrl}/tasks/${task_id}`)).json()) as typeof status;
  } while (status.status === 'queued' || status.status === 'running');
  expect(status).toMatchObject({ status: 'succeeded', error: null });
  const response = await fetch(`${baseUrl}/tasks/${task_id}/result`);
  expect(response.status).toBe(200);
  return (await response.json()) as Result;
};

/** Steps 7, 8 and 10 of the spec: structure, schema coverage, evidence. Returns the non-null leaves' paths. */
const checkStructureCoverageEvidence = (result: Result): string[][] => {
  // 7: structure
  expect(isObject(result.data)).toBe(true);
  expect(isObject(result.evidence)).toBe(true);
  expect(Array.isArray(result.warnings)).toBe(true);
  expect(isObject(result.timing)).toBe(true);
  expect(result.timing['total_seconds']).toBeGreaterThan(0);
  // 8: every top-level key of the schema, and every nested key (null allowed)
  for (const key of Object.keys(SCHEMA)) expect(Object.keys(result.data)).toContain(key);
  for (const path of schemaLeaves(SCHEMA)) {
    const parent = path.length > 1 ? getAt(result.data, path.slice(0, -1)) : result.data;
    expect({ path: path.join('.'), present: isObject(parent) && path[path.length - 1]! in parent }).toEqual({
      path: path.join('.'),
      present: true,
    });
  }
  // 10: every non-null leaf has evidence with a locator of the h{n}-c{m} / h{n}-t{m} form and a non-empty snippet
  const filled = schemaLeaves(SCHEMA).filter((path) => !isEmpty(getAt(result.data, path)));
  for (const path of filled) {
    const leaves = evidenceLeaves(getAt(result.evidence, path));
    expect({ path: path.join('.'), leaves: leaves.length > 0 }).toEqual({ path: path.join('.'), leaves: true });
    for (const leaf of leaves) {
      expect({ path: path.join('.'), locator: leaf['locator'] }).toEqual({
        path: path.join('.'),
        locator: expect.stringMatching(/^h\d+-[ct]\d+$/),
      });
      expect({ path: path.join('.'), snippet: leaf['snippet'] }).toEqual({
        path: path.join('.'),
        snippet: expect.stringMatching(/\S/),
      });
    }
  }
  return filled;
};

/** Step 9: spot checks against what the datasheet says. */
const checkGroundTruth = (data: Record<string, unknown>) => {
  expect(String(getAt(data, ['product_identity', 'series_name']))).toContain('G-Series');
  const models = getAt(data, ['product_identity', 'models']);
  expect(Array.isArray(models) && models.length > 1).toBe(true);
  expect(String(getAt(data, ['ratings', 'rated_torque']))).toContain('0.64');
  expect(String(getAt(data, ['ratings', 'rated_current']))).toContain('1.6');
  expect(String(getAt(data, ['ratings', 'rated_speed']))).toMatch(/3,?000/);
  expect(String(getAt(data, ['environment_and_installation', 'protection_class']))).toContain('IP65');
};

describe('extraction-api:§11 test_e2e_datasheet_extraction', () => {
  describe('with the scripted LLM (a loopback Anthropic server) driving the real doc tools', () => {
    let llm: FakeLlmServer;
    let service: SpawnedService;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'extraction-e2e-datasheet-'));
      const replies = anthropicScript(datasheetScript);
      llm = await startFakeLlm((body) => replies(body));
      service = await spawnService('apps/extraction-api/src/main.ts', 'EXTRACTION_API_PORT', {
        DATA_DIR: dataDir,
        // whatever the environment holds: no REST token, and no real credential sent to the fake
        MCP_API_KEY: '',
        EXTRACTION_API_KEY: '',
        ANTHROPIC_AUTH_TOKEN: '',
        EXTRACTOR: 'anthropic',
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: llm.url,
        LLM_MAX_RETRIES: '0',
        AGENT_MAX_RETRIES: '0',
      });
    }, 120_000);
    afterAll(async () => {
      await service?.stop();
      await llm?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('extracts the OMRON datasheet: structure, schema coverage, ground truth and grounded evidence', async () => {
      const result = await extract(service.baseUrl);
      expect(llm.errors).toEqual([]);
      expect(result.extractor).toBe('anthropic');
      const filled = checkStructureCoverageEvidence(result);
      checkGroundTruth(result.data);

      // the rest of what the table says about the R88M-GP20030, normalised by json_validate_and_normalize
      expect(result.data).toMatchObject({
        original_file: 'omron-g-series-servo-motors.pdf',
        ratings: { rated_output_w: 200, max_speed: expect.stringMatching(/^5,?000 ?min-1$/) },
        environment_and_installation: { ambient_operating_temperature: '0 to 40°C', insulation_grade: 'Type B' },
        compliance_and_certifications: { certifications: null },
        warranty: null,
      });
      expect(String(getAt(result.data, ['ratings', 'torque_constant']))).toContain('0.42');
      expect(getAt(result.data, ['product_identity', 'models'])).toEqual(expect.arrayContaining(['R88M-G20030']));
      expect(result.data['rated_torque_per_model']).toEqual({
        'R88M-GP10030': expect.stringContaining('0.32'),
        'R88M-GP20030': expect.stringContaining('0.64'),
        'R88M-GP40030': expect.stringContaining('1.3'),
      });
      // Lectern re-reads every cited chunk: each value's snippet is found at its locator, and the value in it
      // (issue 26) and on its PDF page; a snippet that does not name its field, or a list abbreviated in its snippet, is honestly not grounded
      expect(filled.length).toBe(12);
      const unnamed: string[] = [];
      for (const path of filled) {
        const leaf = getAt(result.evidence, path) as { grounded?: boolean; warning?: string; page?: number };
        if (leaf.grounded)
          expect({ path: path.join('.'), page: leaf.page }).toEqual({ path: path.join('.'), page: expect.any(Number) });
        else {
          expect({ path: path.join('.'), warning: leaf.warning }).toEqual({
            path: path.join('.'),
            warning: expect.stringMatching(/does not name the field|does not occur in the snippet/),
          });
          unnamed.push(path.join('.'));
        }
      }
      expect(unnamed.length).toBeLessThanOrEqual(5);
      expect(result.evidence['warranty']).toEqual({ locator: null, snippet: null, warning: 'Not found in document' });
      expect(result.warnings).toEqual([
        ...unnamed.map((name) => expect.stringMatching(new RegExp(`^Field '${name}' is not grounded`))),
        "Field 'compliance_and_certifications.certifications' not found in document",
        "Field 'warranty' not found in document",
      ]);
      expect(result.timing['index_seconds']).toBeGreaterThan(0);
    }, 300_000);
  });

  const realProvider =
    Boolean(process.env['ANTHROPIC_API_KEY'] || process.env['ANTHROPIC_AUTH_TOKEN']) ||
    Boolean(process.env['OPENAI_MODEL']);
  // registered only when a provider is configured: without one it is not a test at all (never a skipped one)
  if (realProvider)
    describe('with the real LLM (the provider configured in the environment)', () => {
      let service: SpawnedService;
      let dataDir: string;

      beforeAll(async () => {
        dataDir = mkdtempSync(join(tmpdir(), 'extraction-e2e-real-'));
        // the provider variables come from the environment; spawnService passes it on
        service = await spawnService('apps/extraction-api/src/main.ts', 'EXTRACTION_API_PORT', {
          DATA_DIR: dataDir,
          MCP_API_KEY: '',
          EXTRACTION_API_KEY: '',
        });
      }, 120_000);
      afterAll(async () => {
        await service?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      });

      it('extracts the OMRON datasheet: structure, schema coverage, ground truth and evidence', async () => {
        const result = await extract(service.baseUrl);
        expect(result.extractor).not.toBe('local');
        checkStructureCoverageEvidence(result);
        checkGroundTruth(result.data);
      }, 600_000);
    });
});
