// SPDX-License-Identifier: AGPL-3.0-or-later
import type { ScriptStep, ToolResultSeen } from '@lectern/testing';
import { extractionScore } from '@lectern/testing';

const { firstNumber } = extractionScore;

/**
 * The agent path's upper bound (issue 26): a scripted "model" for the fake LLM server that knows the expected
 * values and uses only the real doc tools. It indexes the document, sends one `doc_search` per field (the field's
 * name as words), reads the top hits, and answers a value only when a line of a chunk it read holds it (the
 * number as the document writes it, or the expected text), with that line as evidence; else null. What it gets
 * right is what the tool chain (search ranking, chunking, table Markdown, evidence verification) lets an agent
 * get right at best: a field it misses was not findable through the tools.
 */
const HITS_READ = 3;

const words = (key: string) =>
  key
    .replace(/_per_model$/, '')
    .split(/[_\s]+/)
    .filter((w) => w.length > 1);

const numberTokens = (line: string) => line.match(/\d[\d,]*(?:\.\d+)?/g) ?? [];

/** The token of `line` that writes the expected value, if any. */
const tokenFor = (expected: unknown, line: string): string | undefined => {
  const text = String(expected);
  const wanted = typeof expected === 'number' || /^-?[\d.]+;/.test(text) ? firstNumber(text) : undefined;
  if (wanted === undefined) {
    const squash = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
    const at = squash(line).indexOf(squash(text));
    return at >= 0 ? text : undefined;
  }
  return numberTokens(line).find((t) => Number(t.replace(/,(\d{3})/g, '$1')) === wanted);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const oracleScript =
  (expected: Record<string, unknown>): (() => ScriptStep) =>
  () => {
    const keys = Object.keys(expected);
    let indexId = '';
    let hitsByField: string[][] = [];
    let readOrder: string[] = [];
    const answer = (reads: ToolResultSeen[]) => {
      const chunks = new Map<string, string>();
      reads.forEach((r, i) => {
        if (!r.isError) chunks.set(readOrder[i]!, (JSON.parse(r.content) as { content?: string }).content ?? '');
      });
      const data: Record<string, unknown> = {};
      const evidence: Record<string, unknown> = {};
      keys.forEach((key, k) => {
        const want = expected[key];
        data[key] = null;
        evidence[key] = { locator: null, snippet: null, warning: 'Not found in document' };
        if (want === null || want === undefined) return;
        const label = words(key);
        // the labelled line first (as a careful model reads a row), then any line holding the value
        for (const needLabel of [true, false]) {
          for (const locator of hitsByField[k] ?? []) {
            const lines = (chunks.get(locator) ?? '').split('\n');
            const labelled = (l: string) => !needLabel || label.some((w) => l.toLowerCase().includes(w));
            if (isObject(want)) {
              const models = Object.entries(want);
              const line = lines.find((l) => labelled(l) && models.every(([, v]) => tokenFor(v, l) !== undefined));
              if (!line) continue;
              data[key] = Object.fromEntries(models.map(([m, v]) => [m, tokenFor(v, line)]));
              evidence[key] = { locator, snippet: line.trim(), match: 'agent' };
              return;
            }
            for (const line of lines) {
              const token = labelled(line) ? tokenFor(want, line) : undefined;
              if (token === undefined) continue;
              data[key] = token;
              evidence[key] = { locator, snippet: line.trim(), match: 'agent' };
              return;
            }
          }
        }
      });
      return { text: JSON.stringify({ data, evidence }) };
    };
    return (results, turn) => {
      if (turn === 1) return { tools: [{ name: 'doc_index_build', input: { file_path: 'the-document' } }] };
      if (turn === 2) {
        indexId = (JSON.parse(results[0]!.content) as { index_id: string }).index_id;
        return {
          tools: keys.map((key) => ({
            name: 'doc_search',
            input: { index_id: indexId, query: words(key).join(' '), top_k: 5 },
          })),
        };
      }
      if (turn === 3) {
        hitsByField = results.map((r) =>
          r.isError
            ? []
            : (JSON.parse(r.content) as Array<{ locator: string }>).slice(0, HITS_READ).map((h) => h.locator),
        );
        readOrder = [...new Set(hitsByField.flat())];
        if (readOrder.length === 0) return answer([]);
        return {
          tools: readOrder.map((locator) => ({
            name: 'doc_read',
            input: { index_id: indexId, locator, max_chars: 20000 },
          })),
        };
      }
      return answer(results);
    };
  };
