// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describeBlindSet } from './blind-set.testkit.js';
import { FRESH_21_WORD, wordBytes } from './fresh-docs-21.docx.js';
import { FRESH_21_DOCS, freshVariant21Docs } from './fresh-docs-21.js';
import { repoRoot } from './paths.js';

// Fresh variant 21, a blind held-out extraction set of Word documents and positioned-text PDFs, checked as test
// material (blind-set.testkit.ts says what).
describeBlindSet(21, freshVariant21Docs(), {
  contracts: 4,
  receipts: 3,
  datasheets: 3,
  minFields: 85,
  absentShare: [0.12, 0.2],
});

/** A zip's parts by name (read through its central directory; stored or deflated, as a .docx is). */
const zipParts = (zip: Buffer): Map<string, Buffer> => {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const parts = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const entryLength = 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    parts.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += entryLength;
  }
  return parts;
};

describe('fresh variant 21 committed files', () => {
  const committed = (name: string): Buffer => freshVariant21Docs().find((d) => d.name === name)!.pdf;

  it('are the five Word documents of fresh-docs-21.docx.ts and five PDFs, one file per document', () => {
    const names = FRESH_21_DOCS.map((d) => d.name);
    expect(names.filter((n) => n.endsWith('.docx')).sort()).toEqual(Object.keys(FRESH_21_WORD).sort());
    expect(names.filter((n) => n.endsWith('.pdf'))).toHaveLength(5);
  });

  it.each(Object.keys(FRESH_21_WORD).map((n) => [n]))(
    '%s is what fresh-docs-21.docx.ts builds (every XML part but the creation time)',
    async (name) => {
      const built = zipParts(await wordBytes(name));
      const file = zipParts(committed(name));
      expect([...file.keys()].sort()).toEqual([...built.keys()].sort());
      for (const [part, xml] of built)
        if (part !== 'docProps/core.xml')
          expect(`${part}: ${file.get(part)!.toString('utf8')}`).toBe(`${part}: ${xml.toString('utf8')}`);
      // a Word document with its body text where Word keeps it
      expect(file.get('word/document.xml')!.toString('utf8')).toContain('<w:tbl>');
    },
  );

  it('hold the Word structure the set is about: merged cells, header rows, tab stops, a list, two columns, header and footer', () => {
    const parts = Object.keys(FRESH_21_WORD).map((n) => zipParts(committed(n)));
    const body = parts.map((p) => p.get('word/document.xml')!.toString('utf8')).join('\n');
    for (const tag of [
      '<w:gridSpan ',
      '<w:vMerge ',
      '<w:tblHeader',
      '<w:tab/>',
      '<w:numPr>',
      '<w:cols w:space="567" w:num="2"',
    ])
      expect([tag, body.includes(tag)]).toEqual([tag, true]);
    expect(
      parts.filter((p) => [...p.keys()].some((k) => /^word\/header\d*\.xml$/.test(k))).length,
    ).toBeGreaterThanOrEqual(3);
  });

  it.each(FRESH_21_DOCS.filter((d) => d.name.endsWith('.pdf')).map((d) => [d.name]))(
    '%s was drawn by PyMuPDF from fresh-docs-21.generate.py as it is now (its title is the script digest)',
    (name) => {
      const script = readFileSync(join(repoRoot(), 'libs', 'testing', 'src', 'fresh-docs-21.generate.py'));
      const pdf = committed(name).toString('latin1');
      expect(/\/Producer ?\(PyMuPDF\)/.test(pdf)).toBe(true);
      // a stale PDF (the script changed, not run again) carries another digest
      expect(/\/Title ?\(([^)]*)\)/.exec(pdf)?.[1]).toBe(
        `fresh-21 ${createHash('sha256').update(script).digest('hex').slice(0, 24)}`,
      );
    },
  );
});
