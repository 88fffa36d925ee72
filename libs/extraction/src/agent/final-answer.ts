// SPDX-License-Identifier: AGPL-3.0-or-later
import { isObject } from '../schema-fields.js';

export interface FinalAnswer {
  data: Record<string, unknown>;
  evidence: Record<string, unknown>;
}

export type ParsedAnswer = { ok: true; answer: FinalAnswer } | { ok: false; problem: string };

/**
 * The top-level JSON objects in a reply, in order, wherever they are (in ```json fences or bare, with prose
 * around them). A brace scanner aware of strings and escapes finds each candidate; one that does not parse
 * is reported. Hand-written: JSON.parse needs the exact span, and no installed library extracts it.
 */
export const jsonObjectsIn = (text: string): { objects: unknown[]; errors: string[] } => {
  const objects: unknown[] = [];
  const errors: string[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf('{', i);
    if (start < 0) break;
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let j = start; j < text.length; j += 1) {
      const c = text[j];
      if (inString) {
        if (c === '\\') j += 1;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{') depth += 1;
      else if (c === '}') {
        depth -= 1;
        if (depth === 0) {
          end = j;
          break;
        }
      }
    }
    if (end < 0) {
      errors.push(`an object opened at character ${start} is never closed`);
      break;
    }
    const span = text.slice(start, end + 1);
    try {
      objects.push(JSON.parse(span));
    } catch (error) {
      errors.push(`the object at character ${start} is not valid JSON (${(error as Error).message})`);
    }
    i = end + 1;
  }
  return { objects, errors };
};

/**
 * Spec 003's final reply: `{"data": {...}, "evidence": {...}}` — one object with both keys, or two objects
 * (`{"data": ...}` then `{"evidence": ...}`, or the bare data object then the bare evidence object).
 */
export const parseFinalAnswer = (text: string): ParsedAnswer => {
  const { objects, errors } = jsonObjectsIn(text);
  const records = objects.filter(isObject);
  const combined = records.find((o) => isObject(o['data']) && isObject(o['evidence']));
  if (combined)
    return {
      ok: true,
      answer: {
        data: combined['data'] as Record<string, unknown>,
        evidence: combined['evidence'] as Record<string, unknown>,
      },
    };
  const data = records.find((o) => Object.keys(o).length === 1 && isObject(o['data']));
  const evidence = records.find((o) => Object.keys(o).length === 1 && isObject(o['evidence']));
  if (data && evidence)
    return {
      ok: true,
      answer: {
        data: data['data'] as Record<string, unknown>,
        evidence: evidence['evidence'] as Record<string, unknown>,
      },
    };
  if (records.length === 2 && !data && !evidence)
    return { ok: true, answer: { data: records[0]!, evidence: records[1]! } };
  if (errors.length > 0) return { ok: false, problem: errors.join('; ') };
  if (records.length === 0) return { ok: false, problem: 'the reply holds no JSON object' };
  return { ok: false, problem: 'expected {"data": {...}, "evidence": {...}} (two objects: data and evidence)' };
};
