// SPDX-License-Identifier: AGPL-3.0-or-later
import { chunkByLocator } from '@lectern/chunking';
import { schemaFields } from '../schema-fields.js';
import { locateSnippet, valueOccurs } from './text-match.js';
import { verifyEvidence } from './verify-evidence.js';

const MARKDOWN = `# MOD 8~15KTL3-X2(Pro) Three-Phase Hybrid Solar Inverter

The MOD series is a three-phase hybrid inverter for homes and small businesses with batteries.

## PV DC Input

| Model | MOD 8KTL3-X2(Pro) | MOD 10KTL3-X2(Pro) |
| --- | --- | --- |
| Max. DC Voltage | 1100V | 1100V |
| No. of MPP Trackers | 2 | 2 |
| Max. recommended PV power | 12000W | 15000W |
| MPPT voltage range | 140~1000V | 140~1000V |

## Protection

Protection class: IP66. Surge protection on the DC and AC sides is built in as standard equipment.
`;

describe('text matching', () => {
  it('locates a snippet exactly, then normalised, then fuzzily, and refuses a foreign one', () => {
    const chunk = '| Max. DC Voltage | 1100V | 1100V |';
    expect(locateSnippet('Max. DC Voltage | 1100V', chunk)).toBe('exact');
    expect(locateSnippet('max. dc   voltage  1100v', chunk)).toBe('normalized');
    expect(locateSnippet('Max DC Voltage: 1100V', chunk)).toBe('fuzzy');
    expect(locateSnippet('Max. AC output power 8000W', chunk)).toBeUndefined();
    expect(locateSnippet('', chunk)).toBeUndefined();
  });

  it('finds a value in the text literally or by its numbers, never an invented one', () => {
    expect(valueOccurs('1100V', '| Max. DC Voltage | 1,100 V |')).toBe(true);
    expect(valueOccurs('140-1000V', 'MPPT voltage range 140~1000V')).toBe(true);
    expect(valueOccurs(2, 'No. of MPP Trackers | 2')).toBe(true);
    expect(valueOccurs('1500V', '| Max. DC Voltage | 1100V |')).toBe(false);
    expect(valueOccurs(3, 'No. of MPP Trackers | 2')).toBe(false);
    expect(valueOccurs('three-phase hybrid', 'A Three-Phase Hybrid Solar Inverter')).toBe(true);
    expect(valueOccurs('single-phase', 'A Three-Phase Hybrid Solar Inverter')).toBe(false);
    // a thousands separator followed at once by a unit (the normaliser writes "3,000 min-1" as "3,000min-1")
    expect(valueOccurs('3,000min-1', '| Rated speed | min-1 |  | 3,000 |  |  |')).toBe(true);
    expect(valueOccurs('1,100V', '| Max. DC Voltage | 1100 V |')).toBe(true);
    expect(valueOccurs('4,000min-1', '| Rated speed | min-1 |  | 3,000 |  |  |')).toBe(false);
    expect(valueOccurs('1,2345V', '| Max. DC Voltage | 12345 V |')).toBe(false);
  });
});

describe('verifyEvidence', () => {
  const { chunks } = chunkByLocator(MARKDOWN);
  const read = async (locator: string) => chunks.find((c) => c.locator === locator)?.content;
  const table = chunks.find((c) => c.kind === 'table')!;
  const intro = chunks.find((c) => c.content.includes('hybrid inverter for homes'))!;
  const protection = chunks.find((c) => c.content.includes('IP66'))!;
  const schema = {
    product: { product_type: '', series_name: '' },
    pv: { max_dc_voltage: '', number_of_mppts: 0, max_pv_power_per_model: {} },
    ip: '',
    thd: '',
  };

  it('grounds true values, flags an invented value, a wrong locator and missing evidence, and gives nulls the null evidence', async () => {
    const data = {
      product: { product_type: 'three-phase hybrid inverter', series_name: 'MOD 9KTL3' },
      pv: {
        max_dc_voltage: '1100V',
        number_of_mppts: 2,
        max_pv_power_per_model: { 'MOD 8KTL3-X2(Pro)': '12000W', 'MOD 10KTL3-X2(Pro)': '15000W' },
      },
      ip: 'IP66',
      thd: null,
    };
    const evidence = {
      product: {
        product_type: { locator: intro.locator, snippet: 'three-phase hybrid inverter for homes' },
        series_name: { locator: intro.locator, snippet: 'The MOD series' },
      },
      pv: {
        max_dc_voltage: {
          locator: table.locator,
          snippet: 'Max. DC Voltage | 1100V',
          match: 'table_cell',
          confidence: 0.9,
        },
        number_of_mppts: { locator: 'h1-c1', snippet: 'No. of MPP Trackers | 2' },
        max_pv_power_per_model: {
          'MOD 8KTL3-X2(Pro)': { locator: table.locator, snippet: 'Max. recommended PV power | 12000W' },
          'MOD 10KTL3-X2(Pro)': { locator: table.locator, snippet: 'Max. recommended PV power | 12000W | 15000W' },
        },
      },
    };
    const result = await verifyEvidence(schemaFields(schema), data, evidence, read);
    expect(result.evidence).toEqual({
      product: {
        // the value is in the snippet and the snippet in the chunk, but nothing names a product type: not grounded
        product_type: {
          locator: intro.locator,
          snippet: 'three-phase hybrid inverter for homes',
          grounded: false,
          snippet_match: 'exact',
          match: 'agent',
          confidence: 0.2,
          warning: 'the snippet does not name the field (product_type) or its synonyms',
        },
        series_name: expect.objectContaining({
          grounded: false,
          warning: expect.stringMatching(/MOD 9KTL3.*does not occur/),
        }),
      },
      pv: {
        max_dc_voltage: {
          locator: table.locator,
          snippet: 'Max. DC Voltage | 1100V',
          grounded: true,
          snippet_match: 'exact',
          match: 'table_cell',
          confidence: 0.9,
        },
        number_of_mppts: expect.objectContaining({
          grounded: false,
          warning: expect.stringMatching(/snippet was not found in chunk h1-c1/),
        }),
        max_pv_power_per_model: {
          'MOD 8KTL3-X2(Pro)': expect.objectContaining({ grounded: true }),
          'MOD 10KTL3-X2(Pro)': expect.objectContaining({ grounded: true }),
        },
      },
      ip: {
        locator: null,
        snippet: null,
        grounded: false,
        warning: 'no evidence was given for this value',
        match: 'agent',
        confidence: 0.2,
      },
      thd: { locator: null, snippet: null, warning: 'Not found in document' },
    });
    expect(result.warnings).toEqual([
      expect.stringMatching(/^Field 'product.product_type' is not grounded/),
      expect.stringMatching(/^Field 'product.series_name' is not grounded/),
      expect.stringMatching(/^Field 'pv.number_of_mppts' is not grounded/),
      expect.stringMatching(/^Field 'ip' is not grounded/),
      "Field 'thd' not found in document",
    ]);
    expect(result.counts).toEqual({ values: 7, grounded: 3 });
    expect(protection.locator).toMatch(/^h\d+-c\d+$/);
  });

  it('refuses a locator that is not one, or one the document lacks', async () => {
    const fields = schemaFields({ protection_class: '' });
    const bad = await verifyEvidence(
      fields,
      { protection_class: 'IP66' },
      { protection_class: { locator: '../../etc', snippet: 'IP66' } },
      read,
    );
    expect(bad.evidence).toEqual({
      protection_class: expect.objectContaining({
        grounded: false,
        warning: expect.stringMatching(/is not a locator/),
      }),
    });
    const missing = await verifyEvidence(
      fields,
      { protection_class: 'IP66' },
      { protection_class: { locator: 'h99-c1', snippet: 'IP66' } },
      read,
    );
    expect(missing.evidence).toEqual({
      protection_class: expect.objectContaining({
        grounded: false,
        warning: 'there is no chunk h99-c1 in the document',
      }),
    });
    const ok = await verifyEvidence(
      fields,
      { protection_class: 'IP66' },
      { protection_class: { locator: protection.locator, snippet: 'Protection class: IP66' } },
      read,
    );
    expect(ok.evidence).toEqual({
      protection_class: {
        locator: protection.locator,
        snippet: 'Protection class: IP66',
        grounded: true,
        snippet_match: 'exact',
        match: 'agent',
        confidence: 0.8,
      },
    });
    // the value is in the chunk but not in the snippet given for it: not grounded
    const elsewhere = await verifyEvidence(
      fields,
      { protection_class: 'IP66' },
      { protection_class: { locator: protection.locator, snippet: 'Protection class:' } },
      read,
    );
    expect(elsewhere.evidence).toEqual({
      protection_class: expect.objectContaining({
        grounded: false,
        warning: 'the value IP66 does not occur in the snippet',
      }),
    });
  });
});

// Issue 26, round 5: a value's unit names its quantity ("160 °C" on a "Thermal shutdown" row is a temperature)
describe('verifyEvidence: the value’s unit names the quantity the label leaves out', () => {
  const md =
    '# Limits\n\n| Parameter | Value | Unit |\n| --- | --- | --- |\n| Shutdown | 150 | °C |\n| Standby | 4 | W |\n';
  const { chunks } = chunkByLocator(md);
  const table = chunks.find((c) => c.kind === 'table')!;
  const read = async (locator: string) => chunks.find((c) => c.locator === locator)?.content;
  it('grounds a temperature on a row without the word, and not a row of another quantity', async () => {
    const result = await verifyEvidence(
      schemaFields({ shutdown_temperature: '', standby_temperature: '' }),
      { shutdown_temperature: '150 °C', standby_temperature: '4 W' },
      {
        shutdown_temperature: { locator: table.locator, snippet: '| Shutdown | 150 | °C |' },
        standby_temperature: { locator: table.locator, snippet: '| Standby | 4 | W |' },
      },
      read,
    );
    expect(result.evidence).toMatchObject({
      shutdown_temperature: { grounded: true },
      standby_temperature: { grounded: false },
    });
  });
});
