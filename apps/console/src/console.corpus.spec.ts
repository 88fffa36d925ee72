// SPDX-License-Identifier: AGPL-3.0-or-later
import { dirname } from 'node:path';
import { corpusFile } from '@lectern/testing';
import type { Page } from 'puppeteer-core';
import {
  axeViolations,
  clickButton,
  fill,
  startConsoleStack,
  upload,
  visibleText,
  waitForText,
  type ConsoleStack,
} from './console-stack.testkit.js';

/*
 * The console in real headless chromium in front of the four services, with real documents from ../shared/corpora
 * going in through the console's forms (the file inputs, as a person would): Coventry City Council planning papers,
 * an image-only scan from the same council, and OMRON's servo-motor datasheet. Each test reads what a person sees.
 * One browser and one set of services for the whole file.
 */
const COVENTRY = (...parts: string[]) => corpusFile('uk-planning-policy', 'dataset', 'Coventry', ...parts);
/** Two pages, text layer: uploaded through the Documents page. */
const DECISION = COVENTRY(
  '5. Neighbourhood Plans',
  'Approved Neighbourhood Plans',
  'Willenhall Neighbourhood Plan',
  'Willenhall_Neighbourhood_Plan_Decision_Statement.pdf',
);
/** One page, image only (no text layer): skipped as image_based (SCANNED_PDF_POLICY=skip in the stack). */
const SCAN = COVENTRY(
  '5. Neighbourhood Plans',
  'Approved Neighbourhood Areas',
  'Allesley Neighbourhood Area',
  'Allesley_Neighbourhood_Plan_Area_Application.pdf',
);
/** Two pages, text layer: ingested by path (inside the services' document roots) and searched. */
const KENILWORTH = COVENTRY(
  '2. Supplementary Planning Documents (SPD)',
  'Historic Control Plans',
  'Kenilworth Road control plan',
  'Kenilworth_Road_control_plan.pdf',
);
/** Two adoption statements of the council's development plan, as two revisions of one policy. */
const LOCAL_PLAN = COVENTRY(
  '4. Adopted City Centre Area Action Plan (2011 to 2031)',
  'Coventry_City_Council_Local_Plan_Adoption_Statement.pdf',
);
const AAP = COVENTRY(
  '4. Adopted City Centre Area Action Plan (2011 to 2031)',
  'Coventry_City_Council_AAP_Adoption_Statement.pdf',
);
const DATASHEET = corpusFile('datasheets', 'datasheetminer-benchmark', 'datasheets', 'omron-g-series-servo-motors.pdf');
const REF = 'COV/2017/0001';

type InputLike = { value: string; dispatchEvent(event: Event): boolean };
type TextLike = { innerText: string };

const setValue = async (page: Page, label: string, value: string) => {
  const input = await page.waitForSelector(`xpath/.//label[contains(., ${JSON.stringify(label)})]//input`);
  await input!.evaluate((el, v) => {
    const i = el as unknown as InputLike;
    i.value = v;
    i.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
};
const highlightBoxes = (page: Page) =>
  page.$$eval('.page-frame .highlight', (boxes) =>
    boxes.map((b) => {
      const r = b.getBoundingClientRect();
      return { width: r.width, height: r.height };
    }),
  );

describe('console in a browser, with real documents', () => {
  let stack: ConsoleStack;
  let page: Page;

  beforeAll(async () => {
    stack = await startConsoleStack({
      // What the fake LLM reads from the OMRON datasheet (one search and one read per field).
      fields: [
        // "ip" (its synonyms: enclosure, protection, ingress) is what the evidence check needs the snippet to name
        {
          key: 'ip',
          query: 'IP65 as standard shaft oil seal',
          line: /(IP\d\d) as standard/,
          quote: /IP\d\d as standard and shaft oil seal available/,
        },
      ],
      documentRoots: [dirname(KENILWORTH)],
    });
    page = await stack.open();
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });
  afterEach(() => {
    expect(stack.problems).toEqual([]);
  });

  it('Documents: a council paper uploaded through the file input is ingested and listed; a real scan is skipped with its reason', async () => {
    await page.goto(`${stack.url}/#/documents`);
    await fill(page, 'Application reference', REF);
    await clickButton(page, 'Show documents');
    await waitForText(page, `Documents of ${REF}`);
    await upload(page, 'File to upload', DECISION);
    await clickButton(page, 'Ingest');
    await waitForText(page, /Ingested \S+: \d+ chunks \(text_layer\)/, 120_000);
    await upload(page, 'File to upload', SCAN);
    await clickButton(page, 'Ingest');
    await waitForText(page, /Skipped: .*\(reason: image_based\)/, 120_000);
    await page.reload();
    await fill(page, 'Application reference', REF);
    await clickButton(page, 'Show documents');
    await fill(page, 'or a file already on the server', KENILWORTH);
    await clickButton(page, 'Ingest');
    await waitForText(page, /Ingested \S+: \d+ chunks/, 120_000);
    await waitForText(page, '2 document(s)');
    const text = await visibleText(page);
    expect(text).toContain('Willenhall_Neighbourhood_Plan_Decision_Statement.pdf');
    expect(text).toContain('Kenilworth_Road_control_plan.pdf');
    expect(text).not.toContain('Allesley_Neighbourhood_Plan_Area_Application.pdf');
    expect(await axeViolations(page)).toEqual([]);

    // the uploaded decision statement's page 2, drawn from the original kept at upload
    const uploaded = await page.waitForSelector(
      "xpath/.//tr[contains(., 'Willenhall_Neighbourhood_Plan_Decision_Statement.pdf')]//a",
    );
    await uploaded!.click();
    await page.waitForSelector('.page-frame img[alt^="Page 1 of"]');
    await (await page.waitForSelector("xpath/.//a[contains(., 'Next page')]"))!.click();
    // found and read in one step: the page image can be drawn anew between a wait and a later read
    const width = (await (
      await page.waitForFunction(() => {
        const img = (
          globalThis as unknown as { document: { querySelector(s: string): { naturalWidth: number } | null } }
        ).document.querySelector('.page-frame img[alt^="Page 2 of"]');
        return img && img.naturalWidth > 0 ? img.naturalWidth : null;
      })
    ).jsonValue()) as number;
    expect(width).toBeGreaterThan(300);
    await page.goto(`${stack.url}/#/documents`);
    await fill(page, 'Application reference', REF);
    await clickButton(page, 'Show documents');
    await waitForText(page, '2 document(s)');

    // the control plan's first page, drawn, with its chunks' text beside it
    const link = await page.waitForSelector("xpath/.//tr[contains(., 'Kenilworth_Road_control_plan.pdf')]//a");
    await link!.click();
    await page.waitForSelector('.page-frame img[alt^="Page 1 of"]');
    await waitForText(page, 'Styvechale Common');
    const size = await page.$eval('.page-frame img', (img) => ({
      w: (img as unknown as { naturalWidth: number }).naturalWidth,
      h: (img as unknown as { naturalHeight: number }).naturalHeight,
    }));
    expect(size.w).toBeGreaterThan(300);
    expect(await axeViolations(page)).toEqual([]);
  }, 240_000);

  it('Search: a result shows its citation and page span, and opens its page with the passage highlighted', async () => {
    await page.goto(`${stack.url}/#/search`);
    await fill(page, 'Search for', 'ancient Styvechale Common and War Memorial Park');
    await fill(page, 'Application reference', REF);
    await clickButton(page, 'Search');
    await waitForText(page, /\d+ result\(s\)/);
    const results = await page.$$eval('.results .result', (items) =>
      items.map((i) => (i as unknown as TextLike).innerText),
    );
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]).toContain(`Kenilworth_Road_control_plan.pdf (${REF}`);
    expect(results[0]).toMatch(/\bp\. 1\b|pp\. 1–2/);
    expect(results[0]).toContain('Styvechale Common');
    expect(await axeViolations(page)).toEqual([]);
    const open = await page.waitForSelector(
      "xpath/(.//li[contains(@class,'result')])[1]//a[contains(., 'Open the page')]",
    );
    await open!.click();
    await page.waitForSelector('.page-frame img[alt^="Page 1 of"]');
    await page.waitForSelector('.page-frame .highlight', { timeout: 30_000 });
    const boxes = await highlightBoxes(page);
    expect(boxes.length).toBeGreaterThan(0);
    for (const b of boxes) expect(b.width * b.height).toBeGreaterThan(20);
    expect(await axeViolations(page)).toEqual([]);
  }, 120_000);

  it('Policies: two real revisions on the timeline with their dates; the later supersedes; search follows the date', async () => {
    await page.goto(`${stack.url}/#/policies`);
    await page.$eval('summary', (s) => (s as unknown as { click(): void }).click());
    await fill(page, 'Source (slug)', 'COVENTRY_DPD');
    await fill(page, 'Title', 'Coventry development plan');
    await clickButton(page, 'Register policy');
    await waitForText(page, 'Coventry development plan: revisions');
    const uploadRevision = async (file: string, label: string, from: string) => {
      await upload(page, 'Revision file', file);
      await fill(page, 'Version label', label);
      await setValue(page, 'In force from', from);
      await clickButton(page, 'Upload revision');
      await waitForText(page, `${label} is active`, 120_000);
    };
    await uploadRevision(LOCAL_PLAN, 'Local Plan 2017', '2017-12-06');
    await uploadRevision(AAP, 'City Centre AAP 2017', '2018-01-01');
    await waitForText(page, 'Local Plan 2017 is now superseded, in force until 2017-12-31');
    const timeline = await page.$$eval('.timeline .revision', (items) =>
      items.map((i) => (i as unknown as TextLike).innerText),
    );
    expect(timeline).toHaveLength(2);
    expect(timeline[0]).toMatch(/Local Plan 2017[\s\S]*superseded[\s\S]*2017-12-06 to 2017-12-31/);
    expect(timeline[1]).toMatch(/City Centre AAP 2017[\s\S]*active[\s\S]*2018-01-01 to now/);
    expect(await axeViolations(page)).toEqual([]);

    // the results of a date show only the revision in force on it (the next search replaces them)
    const searchOn = async (date: string, label: string) => {
      await setValue(page, 'As in force on', date);
      await fill(page, 'Search the policy for', 'Development Plan Document strategic planning policies');
      await clickButton(page, 'Search as in force');
      await page.waitForFunction(
        (want: string) =>
          (globalThis as unknown as { document: { querySelector(s: string): { innerText: string } | null } }).document
            .querySelector('[aria-label="Policy results"] .result')
            ?.innerText.includes(want) ?? false,
        { timeout: 30_000 },
        label,
      );
      return page.$$eval('[aria-label="Policy results"] .result', (items) =>
        items.map((i) => (i as unknown as TextLike).innerText),
      );
    };
    const early = await searchOn('2017-12-08', 'Local Plan 2017');
    expect(early.length).toBeGreaterThan(0);
    for (const r of early) expect(r).toContain('Local Plan 2017');
    // each result names its section and its page
    expect(early[0]).toMatch(/Preamble · Local Plan 2017 · p\. 1/);
    expect(early.join('\n')).toContain('The Local Plan adoption date is 6th December 2017');
    const later = await searchOn('2020-01-01', 'City Centre AAP 2017');
    for (const r of later) {
      expect(r).toContain('City Centre AAP 2017');
      expect(r).not.toContain('Local Plan 2017');
    }
  }, 300_000);

  it('Extraction: a real datasheet, its value in the result tree, and the evidence boxed on its page', async () => {
    await page.goto(`${stack.url}/#/extraction`);
    await upload(page, 'Document', DATASHEET);
    await page.$eval('textarea', (el) => {
      const t = el as unknown as InputLike;
      t.value = JSON.stringify({ ip: '', brake_torque_at_zero_speed: '' });
      t.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await clickButton(page, 'Extract');
    await waitForText(page, /omron-g-series-servo-motors\.pdf: succeeded/, 180_000);
    await waitForText(page, /\bip\s+IP65/);
    // the value the fake model did not find stands out
    expect(
      await page.$$eval('.value.warned, .value.ungrounded', (v) => v.map((e) => (e as unknown as TextLike).innerText)),
    ).toEqual([expect.stringContaining('brake_torque_at_zero_speed')]);
    expect(await axeViolations(page)).toEqual([]);
    const value = await page.waitForSelector(
      "xpath/.//div[contains(@class,'value')][starts-with(normalize-space(.), 'ip')]//button",
    );
    await value!.click();
    await page.waitForSelector('.page-frame .highlight', { timeout: 30_000 });
    expect((await highlightBoxes(page)).length).toBeGreaterThan(0);
    expect(await visibleText(page)).toMatch(/Page 1 of omron-g-series-servo-motors\.pdf/);
    expect(await axeViolations(page)).toEqual([]);
  }, 240_000);
});
