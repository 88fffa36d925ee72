// SPDX-License-Identifier: AGPL-3.0-or-later
import { jsonObjectsIn, parseFinalAnswer } from './final-answer.js';

describe('parseFinalAnswer (spec 003 step 4)', () => {
  const data = { pv: { max_dc_voltage: '1100V' } };
  const evidence = { pv: { max_dc_voltage: { locator: 'h3-t1', snippet: 'Max. DC Voltage | 1100V' } } };

  it('reads one object holding data and evidence, bare or fenced, with prose around it', () => {
    expect(parseFinalAnswer(JSON.stringify({ data, evidence }))).toEqual({ ok: true, answer: { data, evidence } });
    const fenced = `Here you go:\n\`\`\`json\n${JSON.stringify({ data, evidence }, null, 2)}\n\`\`\`\nDone.`;
    expect(parseFinalAnswer(fenced)).toEqual({ ok: true, answer: { data, evidence } });
  });

  it('reads two objects: {"data"} then {"evidence"}, or the bare data then the bare evidence', () => {
    expect(parseFinalAnswer(`${JSON.stringify({ data })}\n${JSON.stringify({ evidence })}`)).toEqual({
      ok: true,
      answer: { data, evidence },
    });
    expect(
      parseFinalAnswer(`\`\`\`json\n${JSON.stringify(data)}\n\`\`\`\n\`\`\`json\n${JSON.stringify(evidence)}\n\`\`\``),
    ).toEqual({ ok: true, answer: { data, evidence } });
  });

  it('is not fooled by braces inside strings', () => {
    const tricky = {
      data: { note: 'a } b { c "quoted \\" }' },
      evidence: { note: { locator: 'h1-c1', snippet: '}{' } },
    };
    expect(parseFinalAnswer(JSON.stringify(tricky))).toEqual({ ok: true, answer: tricky });
  });

  it('explains what is wrong with a malformed reply', () => {
    const broken = parseFinalAnswer('{"data": {"a": 1,}, "evidence": {}}');
    expect(broken).toEqual({ ok: false, problem: expect.stringMatching(/not valid JSON/) });
    expect(parseFinalAnswer('I could not find anything.')).toEqual({
      ok: false,
      problem: 'the reply holds no JSON object',
    });
    expect(parseFinalAnswer('{"data": {"a": 1}')).toEqual({
      ok: false,
      problem: expect.stringMatching(/never closed/),
    });
    expect(parseFinalAnswer('{"a": 1}')).toEqual({ ok: false, problem: expect.stringMatching(/expected/) });
    expect(jsonObjectsIn('x {"a":1} y {"b":2}').objects).toEqual([{ a: 1 }, { b: 2 }]);
  });
});
