// SPDX-License-Identifier: AGPL-3.0-or-later
import { makePdf, pdfString, type PdfImage } from '@lectern/testing';
import { TEXT_PAGE_MIN_WORDS, isImageBased } from './convert-document.js';
import { createConversionEngine } from './index.js';

/** A plain grey image; drawn over the whole page it gives the page an image ratio of 1. */
const background = (): PdfImage => ({ width: 40, height: 50, gray: new Uint8Array(40 * 50).fill(200) });

/** A page covered by the image, with `lines` of text set over it. */
const overImage = (lines: readonly string[]) => ({
  content: [
    'q 612 0 0 792 0 0 cm /Im1 Do Q',
    'BT /F1 11 Tf 72 690 Td',
    ...lines.map((l) => `(${pdfString(l)}) Tj 0 -16 Td`),
    'ET',
  ].join('\n'),
  image: background(),
});

const PROSE = [
  'Stoke Park Area. Domestic residential use will be protected where possible.',
  'New buildings should normally be set back at least five metres from the road,',
  'matching the building line of the neighbouring houses. Front boundary walls',
  'should be of brick with a height between three and four feet, and hedges',
  'should be retained. Garages should be set behind the front of the properties.',
];

describe('image-based documents (spec 000 FR-005)', () => {
  const engine = createConversionEngine();
  afterAll(() => engine.close());

  it('keeps a document printed over full-page images when its pages carry a text layer of prose', async () => {
    const bytes = makePdf([overImage(PROSE), overImage(PROSE)]);
    const r = await engine.convert({ bytes, filename: 'control_plan.pdf' }, { enableOcr: false });
    expect(r.average_image_ratio).toBeGreaterThan(0.95); // measured as it is
    expect(r.pages.every((p) => p.method === 'text_layer')).toBe(true);
    expect(r.image_based).toBe(false);
    expect(r.contains_drawings).toBe(false);
  });

  it('still flags image pages with only a few labels in their text layer (a drawing sheet)', async () => {
    const labels = ['Proposed ground floor plan', 'Scale 1:100', 'Drawing 204/A'];
    const bytes = makePdf([overImage(labels), overImage(labels)]);
    const r = await engine.convert({ bytes, filename: 'plans.pdf' }, { enableOcr: false });
    expect(r.image_based).toBe(true);
    expect(r.contains_drawings).toBe(true);
  });

  it('averages text pages as ratio 0 and the other pages as measured', () => {
    const prose = Array.from({ length: TEXT_PAGE_MIN_WORDS }, (_, i) => `word${i}`).join(' ');
    const text = { image_ratio: 1, method: 'text_layer' as const, text: prose };
    const image = { image_ratio: 1, method: 'text_layer' as const, text: 'Scale 1:100' };
    const scan = { image_ratio: 1, method: 'ocr' as const, text: prose };
    expect(isImageBased([text, image, image], 0.7)).toBe(false); // 2/3 = 0.667
    expect(isImageBased([text, image, image, image], 0.7)).toBe(true); // 3/4
    // an OCR'd page is an image page however much it reads
    expect(isImageBased([scan, scan], 0.7)).toBe(true);
    // one word short of a text page
    const short = { ...text, text: prose.split(' ').slice(1).join(' ') };
    expect(isImageBased([short], 0.7)).toBe(true);
    expect(isImageBased([], 0.7)).toBe(false);
  });
});
