// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import type { BusinessDoc } from './business-docs.js';

/**
 * Fresh variant 20 (issue 26, a blind held-out set) as data: eight scans from **another pipeline** than variant
 * 19's — no HTML, no browser. Each page is a list of PyMuPDF drawing operations (absolutely positioned text in the
 * built-in Helvetica, Times and Courier faces and their bold forms, tab-aligned columns, ruled boxes and tables),
 * drawn and rasterised by PyMuPDF at 150–300 DPI, degraded deterministically with sharp and a seeded pixel pass
 * (rotation, a keystone, uneven lighting, a coffee ring or a stamp away from the values, grain, JPEG at quality
 * 35–60; one a 1-bit fax with Floyd–Steinberg dithering) and wrapped as a one-page image-only PDF
 * (fresh-docs-20.generate.ts). Written by someone who had not read the offline extractor, committed before its
 * first run; other documents than variants 18 and 19.
 *
 * Traps: synonym labels (Licensor / Occupier / Charge / Commencement for the storage unit, Commissioning agency /
 * Fee / Delivery by, Permit charge / Expires, Operator-less till header, Tariff, Pmax, Liquid temperature, TOTAL for
 * the output power); values below labels (the permit's and the folio's boxed headers, signature blocks); qualifiers
 * expected bare (£14.50 per week payable four-weekly, EUR 0.11 per word excl. VAT, £65.00 per year, £96.00 per night
 * incl. breakfast, 65W MAX, 12 years of product warranty beside 25 years of power output); one number printed twice
 * with different meanings (a notice period of 28 days / 28 February, 14.50 a week / 14 days to return the deposit,
 * pump 4 / 4 nights, 410 W at STC / 308 W at NOCT, Voc 37.4 V / Vmp 31.2 V, £56.38 on three lines, 4.0 m of head /
 * 4.0 m rows, 20V among four output voltages); null beside a look-alike label (Insured value left blank, gate code
 * not written, Rush surcharge not applicable, Visitor permits sold separately, LOYALTY CARD NOT PRESENTED, VAT no.
 * on request, no tourist levy, bifacial gain n/a, Acoustic noise: see installation manual, efficiency marking on the
 * packaging); per-model columns (the pump's CP 40 / CP 60 table and curve; maximum head and weight expected per model).
 *
 * Drawing language, one operation a line (units: PDF points from the page's top-left; fonts helv, hebo, tiro,
 * tibo, cour, cobo):
 *   T x y size font|text         text with its baseline at y
 *   C x y size font|text         text centred on x
 *   RT x y size font|text        text ending at x (right-aligned amounts)
 *   TB x0 y0 x1 y1 size font|text   wrapped paragraph in a box (must fit)
 *   L x0 y0 x1 y1 width          a line
 *   R x0 y0 x1 y1 width          a rectangle outline
 *   F x0 y0 x1 y1 grey           a filled rectangle (grey 0–1)
 */
export interface Fresh20Doc extends Omit<BusinessDoc, 'name' | 'pdf'> {
  /** Page size in points. */
  size: { width: number; height: number };
  /** The drawing operations (see above). */
  page: string;
  /**
   * How it is scanned: DPI, rotation in degrees, keystone (the top edge narrower than the bottom by this share),
   * lighting (the darkest corner's brightness, 0–1, a linear gradient from the opposite corner), a coffee ring
   * or a round stamp (centre and radius in points), grain (± grey levels, seeded), JPEG quality, or a 1-bit fax
   * with dithering.
   */
  scan: {
    dpi: number;
    rotate: number;
    keystone?: number;
    lighting?: number;
    ring?: { x: number; y: number; r: number };
    stamp?: { x: number; y: number; r: number };
    grain?: number;
    quality?: number;
    fax?: boolean;
  };
}

/** The drawing and scan settings' digest: the PDF's /Title, so the spec can tell a stale fixture. */
export const drawDigest = (doc: Fresh20Doc): string =>
  `fresh-20 ${createHash('sha256')
    .update(`${JSON.stringify(doc.size)}\n${JSON.stringify(doc.scan)}\n${doc.page}`)
    .digest('hex')
    .slice(0, 24)}`;

/** The document's file name (also its fixture's). */
export const fresh20Name = (doc: Fresh20Doc): string => `fresh-20-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf`;

const A4 = { width: 595, height: 842 };

export const FRESH_20_DOCS: Fresh20Doc[] = [
  // ---------------------------------------------------------------- contracts
  {
    kind: 'contract',
    layout: 'self storage unit licence agreement ruled particulars box',
    size: A4,
    scan: { dpi: 200, rotate: 0.6, lighting: 0.78, ring: { x: 470, y: 760, r: 48 }, grain: 6, quality: 50 },
    schema: {
      provider: 'Company letting the storage unit',
      customer: 'Person renting the unit',
      unit_number: '',
      unit_size: 'Floor area of the unit',
      weekly_rent: 'Rent charged per week',
      deposit: '',
      start_date: '',
      notice_period: '',
      insurance_cover: 'Amount of goods insurance taken out',
      gate_code: 'Access code for the site gate',
    },
    expected: {
      provider: 'Keepsafe Storage Ltd',
      customer: 'Tomasz Wieczorek',
      unit_number: 'B-117',
      unit_size: '35 sq ft',
      weekly_rent: '£14.50',
      deposit: '£58.00',
      start_date: '1 February 2027',
      notice_period: '28 days',
      insurance_cover: null,
      gate_code: null,
    },
    page: `
C 297 70 18 hebo|STORAGE LICENCE AGREEMENT
C 297 90 9 helv|Keepsafe Storage Ltd · Unit 4, Tanners Way Industrial Estate · Leicester LE4 9HD · Co. No. 08812236
R 50 110 545 300 1
L 50 140 545 140 0.6
L 50 170 545 170 0.6
L 50 200 545 200 0.6
L 50 230 545 230 0.6
L 50 260 545 260 0.6
L 200 110 200 300 0.6
T 58 130 10 hebo|Licensor
T 210 130 11 helv|Keepsafe Storage Ltd
T 58 160 10 hebo|Occupier
T 210 160 11 helv|Tomasz Wieczorek, 22 Brindley Road, Leicester LE3 1QS
T 58 190 10 hebo|Unit
T 210 190 11 helv|B-117 (ground floor, drive-up)
T 58 220 10 hebo|Floor area
T 210 220 11 helv|35 sq ft (approx. 5 ft x 7 ft)
T 58 250 10 hebo|Charge
T 210 250 11 helv|£14.50 per week, payable four-weekly in advance
T 58 285 10 hebo|Commencement
T 210 285 11 helv|1 February 2027
T 50 330 11 hebo|1. Security deposit
TB 50 336 545 380 10.5 tiro|The Occupier pays a security deposit of £58.00 (4 weeks' charge) on signing. It is returned within 14 days of the Occupier vacating and leaving the unit clean and empty.
T 50 400 11 hebo|2. Ending this licence
TB 50 406 545 450 10.5 tiro|Either party may end this licence by written notice. Notice period: 28 days. Notice given by the Occupier on or after 28 February takes effect at the end of the next four-weekly period.
T 50 470 11 hebo|3. Insurance
TB 50 476 545 520 10.5 tiro|Goods are stored at the Occupier's risk. Insurance cover is to be arranged by the Occupier; the Licensor does not insure stored goods. Insured value: ______________
T 50 540 11 hebo|4. Access
TB 50 546 545 590 10.5 tiro|Access 06:00-22:00 daily. The gate keypad code is issued at the office on the first visit and is not written on this agreement.
T 50 640 10 helv|Signed for the Licensor
L 50 680 260 680 0.8
T 52 675 13 tiro|R. Mistry
T 50 695 9 helv|Site manager
T 320 640 10 helv|Signed by the Occupier
L 320 680 545 680 0.8
T 322 675 13 tiro|T. Wieczorek
T 320 695 9 helv|Date: 27 January 2027
`,
  },
  {
    kind: 'contract',
    layout: 'freelance translation contract letter tab aligned schedule',
    size: A4,
    scan: { dpi: 300, rotate: -0.4, keystone: 0.03, lighting: 0.82, grain: 5, quality: 45 },
    schema: {
      agency: 'Company commissioning the translation',
      translator: '',
      source_language: '',
      target_language: '',
      word_count: 'Number of source words',
      rate_per_word: '',
      delivery_date: 'Deadline for the translation',
      rush_surcharge: 'Extra charge for urgent delivery',
      payment_terms: 'Days to pay the invoice',
    },
    expected: {
      agency: 'Lingua Bridge GmbH',
      translator: 'Aoife Brennan',
      source_language: 'German',
      target_language: 'English',
      word_count: '12,400',
      rate_per_word: 'EUR 0.11',
      delivery_date: '19 April 2027',
      rush_surcharge: null,
      payment_terms: '30 days',
    },
    page: `
T 60 70 16 tibo|Lingua Bridge GmbH
T 60 86 9 helv|Schillerstraße 41 · 60313 Frankfurt am Main · Germany
L 60 96 535 96 1
T 60 130 11 tiro|Aoife Brennan
T 60 144 11 tiro|14 Sundays Well Road, Cork, Ireland
RT 535 130 11 tiro|Frankfurt, 2 April 2027
T 60 180 12 tibo|Translation order PO-2027-0388
TB 60 192 535 250 11 tiro|Dear Ms Brennan, we are pleased to commission you as an independent translator for the project below, on the terms of our framework agreement of 2025 and this letter.
T 60 280 11 tibo|Schedule
R 60 288 535 430 0.8
T 70 308 10.5 hebo|Commissioning agency
T 230 308 10.5 helv|Lingua Bridge GmbH
T 70 326 10.5 hebo|Translator
T 230 326 10.5 helv|Aoife Brennan
T 70 344 10.5 hebo|Language pair
T 230 344 10.5 helv|German > English
T 70 362 10.5 hebo|Volume
T 230 362 10.5 helv|12,400 source words (CAT count)
T 70 380 10.5 hebo|Fee
T 230 380 10.5 helv|EUR 0.11 per word, excl. VAT
T 70 398 10.5 hebo|Delivery by
T 230 398 10.5 helv|19 April 2027, 17:00 CET
T 70 416 10.5 hebo|Rush surcharge
T 230 416 10.5 helv|see rate card (not applicable)
TB 60 450 535 520 11 tiro|Invoices are payable within 30 days of receipt. Files are delivered through the agency portal. The translator keeps the source text confidential and deletes it 30 days after delivery.
T 60 600 11 tiro|For Lingua Bridge GmbH
T 60 640 14 tiro|Katrin Vogel
L 60 646 250 646 0.8
T 60 660 9 helv|Project management
T 330 600 11 tiro|Accepted by the translator
T 330 640 14 tiro|A. Brennan
L 330 646 535 646 0.8
`,
  },
  {
    kind: 'contract',
    layout: 'residents parking permit agreement boxed form 150 dpi',
    size: A4,
    scan: { dpi: 150, rotate: 1.0, lighting: 0.85, stamp: { x: 470, y: 120, r: 40 }, grain: 4, quality: 60 },
    schema: {
      issuer: 'Body issuing the permit',
      permit_holder: '',
      vehicle_registration: '',
      permit_number: '',
      zone: 'Parking zone',
      valid_from: 'Start date',
      valid_until: 'End date',
      annual_fee: '',
      visitor_vouchers: 'Number of visitor vouchers included',
    },
    expected: {
      issuer: 'Harborough District Council',
      permit_holder: 'Daniel Okonkwo',
      vehicle_registration: 'KX19 LMV',
      permit_number: 'RP-40219',
      zone: 'Zone C',
      valid_from: '01/04/2027',
      valid_until: '31/03/2028',
      annual_fee: '£65.00',
      visitor_vouchers: null,
    },
    page: `
T 50 60 15 hebo|Harborough District Council
T 50 78 10 helv|Parking Services · Resident Permit Agreement
R 50 100 545 150 1
T 58 116 8 helv|PERMIT HOLDER
T 58 138 12 helv|Daniel Okonkwo
T 300 116 8 helv|ADDRESS
T 300 138 11 helv|9 Coventry Road, Market Harborough
R 50 150 545 200 1
L 215 150 215 200 1
L 380 150 380 200 1
T 58 166 8 helv|VEHICLE REGISTRATION
T 58 188 12 cobo|KX19 LMV
T 223 166 8 helv|PERMIT NO.
T 223 188 12 cobo|RP-40219
T 388 166 8 helv|ZONE
T 388 188 12 helv|Zone C (Northampton Road)
R 50 200 545 250 1
L 215 200 215 250 1
L 380 200 380 250 1
T 58 216 8 helv|VALID FROM
T 58 238 12 helv|01/04/2027
T 223 216 8 helv|EXPIRES
T 223 238 12 helv|31/03/2028
T 388 216 8 helv|PERMIT CHARGE
T 388 238 12 helv|£65.00 per year
T 50 290 11 hebo|Conditions
TB 50 298 545 420 10 helv|1. The permit is valid only for the vehicle shown and must be displayed in the windscreen. 2. It allows parking in marked resident bays of the zone shown; it does not allow parking on yellow lines or in pay and display bays. 3. Visitor permits are sold separately and are not part of this agreement. 4. A replacement permit costs £10.00. 5. The Council may withdraw the permit if the holder moves out of the zone.
T 50 470 10 helv|Holder's signature
T 60 500 14 tiro|D. Okonkwo
L 50 506 260 506 0.8
T 320 470 10 helv|Date
T 330 500 12 helv|12/03/2027
L 320 506 545 506 0.8
`,
  },
  // ---------------------------------------------------------------- receipts
  {
    kind: 'receipt',
    layout: 'fuel station till receipt courier narrow roll',
    size: { width: 230, height: 520 },
    scan: { dpi: 300, rotate: 0.9, lighting: 0.8, grain: 5, quality: 45 },
    schema: {
      station: 'Operator of the filling station',
      date: '',
      fuel: 'Fuel grade bought',
      litres: 'Volume dispensed',
      price_per_litre: '',
      total: 'Amount paid',
      vat: 'VAT included in the total',
      pump: 'Pump number',
      loyalty_points: 'Points earned on a loyalty card',
    },
    expected: {
      station: 'Marsden Fuels Ltd',
      date: '03/03/2027',
      fuel: 'Unleaded',
      litres: '38.64',
      price_per_litre: '1.459',
      total: '£56.38',
      vat: '£9.40',
      pump: '4',
      loyalty_points: null,
    },
    page: `
C 115 40 12 cobo|MARSDEN FUELS LTD
C 115 54 8 cour|A629 Service Station
C 115 65 8 cour|Halifax Road, Huddersfield
C 115 76 8 cour|VAT No. GB 287 4410 93
L 15 86 215 86 0.5
T 15 102 9 cour|03/03/2027          07:42
T 15 116 9 cour|TILL 2   TRANS 00841
L 15 126 215 126 0.5
T 15 142 10 cobo|PUMP 4   UNLEADED
T 15 157 10 cour|38.64 L  @ 1.459 /L
RT 215 170 9 cour|£56.38
L 15 180 215 180 0.5
T 15 196 10 cobo|TOTAL
RT 215 196 10 cobo|£56.38
T 15 212 9 cour|CARD CONTACTLESS
RT 215 212 9 cour|£56.38
L 15 222 215 222 0.5
T 15 238 8 cour|VAT 20%
RT 215 238 8 cour|£9.40
T 15 250 8 cour|NET
RT 215 250 8 cour|£46.98
L 15 262 215 262 0.5
C 115 280 8 cour|LOYALTY CARD NOT PRESENTED
C 115 292 8 cour|ASK FOR A REWARDS CARD
C 115 316 8 cour|AUTH 044127  AID A0000000031010
C 115 340 9 cobo|THANK YOU - DRIVE SAFELY
`,
  },
  {
    kind: 'receipt',
    layout: 'hotel guest folio header boxes nights times rate charges table',
    size: A4,
    scan: {
      dpi: 200,
      rotate: -0.7,
      keystone: 0.025,
      lighting: 0.75,
      ring: { x: 120, y: 720, r: 55 },
      grain: 5,
      quality: 55,
    },
    schema: {
      hotel: '',
      guest: 'Guest name',
      room: 'Room number',
      arrival: '',
      departure: '',
      nights: 'Number of nights',
      nightly_rate: 'Room price per night',
      total: 'Total charged',
      city_tax: 'Tourist tax',
      company_vat_number: 'Guest company VAT number',
    },
    expected: {
      hotel: 'The Harbourside Hotel',
      guest: 'Ingrid Solberg',
      room: '212',
      arrival: '08.03.2027',
      departure: '12.03.2027',
      nights: '4',
      nightly_rate: '£96.00',
      total: '£421.50',
      city_tax: null,
      company_vat_number: null,
    },
    page: `
C 297 60 18 tibo|The Harbourside Hotel
C 297 76 9 tiro|Quay Street · Falmouth · Cornwall TR11 3HH · reception@harbourside.example
C 297 100 12 hebo|GUEST FOLIO  No. 27-03114
R 50 115 545 165 0.8
L 175 115 175 165 0.8
L 300 115 300 165 0.8
L 420 115 420 165 0.8
T 56 128 7.5 helv|GUEST
T 56 152 11 helv|Ingrid Solberg
T 181 128 7.5 helv|ROOM
T 181 152 11 helv|212 (Sea view)
T 306 128 7.5 helv|ARRIVAL
T 306 152 11 helv|08.03.2027
T 426 128 7.5 helv|DEPARTURE
T 426 152 11 helv|12.03.2027
T 56 188 9 helv|Company: Nordkyst Marine AS - VAT no. on request
F 50 205 545 222 0.88
R 50 205 545 420 0.8
T 56 217 9 hebo|Date
T 130 217 9 hebo|Description
RT 400 217 9 hebo|Qty
RT 470 217 9 hebo|Price
RT 538 217 9 hebo|Amount
T 56 240 10 helv|08.03.2027
T 130 240 10 helv|Accommodation, B&B (4 nights)
RT 400 240 10 helv|4
RT 470 240 10 helv|96.00
RT 538 240 10 helv|384.00
T 56 260 10 helv|09.03.2027
T 130 260 10 helv|Restaurant - dinner
RT 400 260 10 helv|1
RT 470 260 10 helv|29.50
RT 538 260 10 helv|29.50
T 56 280 10 helv|10.03.2027
T 130 280 10 helv|Parking
RT 400 280 10 helv|2
RT 470 280 10 helv|4.00
RT 538 280 10 helv|8.00
L 50 380 545 380 0.8
T 300 398 10 hebo|Total
RT 538 398 10 hebo|£421.50
T 300 413 9 helv|Paid by Visa ****7731
RT 538 413 9 helv|-£421.50
T 56 450 10 helv|Room tariff: £96.00 per night incl. breakfast. Balance due: £0.00
T 56 466 9 helv|Prices include VAT at 20% (£70.25). No tourist levy applies in Cornwall.
C 297 800 8 helv|Thank you for staying with us · The Harbourside Hotel Ltd · Registered in England 05512870
`,
  },
  // ---------------------------------------------------------------- datasheets
  {
    kind: 'datasheet',
    layout: 'solar panel module label stc and noct values ruled table',
    size: A4,
    scan: { dpi: 250, rotate: 0.3, lighting: 0.8, stamp: { x: 470, y: 760, r: 45 }, grain: 4, quality: 55 },
    schema: {
      manufacturer: '',
      model: '',
      max_power: 'Rated power at STC',
      open_circuit_voltage: 'Voc at STC',
      short_circuit_current: 'Isc at STC',
      max_power_voltage: 'Vmp at STC',
      cell_count: 'Number of cells',
      weight: '',
      bifacial_gain: 'Rear-side power gain',
      warranty: 'Product warranty',
    },
    expected: {
      manufacturer: 'Helion Photovoltaic Co.',
      model: 'HP-410M',
      max_power: '410',
      open_circuit_voltage: '37.4',
      short_circuit_current: '13.85',
      max_power_voltage: '31.2',
      cell_count: '108',
      weight: '21.5 kg',
      bifacial_gain: null,
      warranty: '12 years',
    },
    page: `
T 50 65 20 hebo|HP-410M
T 50 85 11 helv|Monocrystalline PV module · Helion Photovoltaic Co.
L 50 97 545 97 1.5
T 50 125 12 hebo|Electrical data
F 50 135 545 152 0.88
R 50 135 545 315 0.8
L 300 135 300 315 0.6
L 420 135 420 315 0.6
T 56 147 9 hebo|Parameter
T 306 147 9 hebo|STC*
T 426 147 9 hebo|NOCT**
T 56 170 11 helv|Maximum power Pmax (W)
T 306 170 11 helv|410
T 426 170 11 helv|308
T 56 192 11 helv|Voltage at Pmax, Vmp (V)
T 306 192 11 helv|31.2
T 426 192 11 helv|29.1
T 56 214 11 helv|Current at Pmax, Imp (A)
T 306 214 11 helv|13.14
T 426 214 11 helv|10.58
T 56 236 11 helv|Open-circuit voltage Voc (V)
T 306 236 11 helv|37.4
T 426 236 11 helv|35.2
T 56 258 11 helv|Short-circuit current Isc (A)
T 306 258 11 helv|13.85
T 426 258 11 helv|11.17
T 56 280 11 helv|Module efficiency (%)
T 306 280 11 helv|21.0
T 426 280 11 helv|-
T 56 302 11 helv|Power tolerance (W)
T 306 302 11 helv|0 / +5
T 426 302 11 helv|-
T 50 330 8 helv|* STC: 1000 W/m², cell 25 °C, AM 1.5   ** NOCT: 800 W/m², ambient 20 °C, wind 1 m/s
T 50 370 12 hebo|Mechanical data
T 56 392 10 helv|Cells
T 220 392 10 helv|108 half-cells (6 x 18), monocrystalline
T 56 410 10 helv|Dimensions
T 220 410 10 helv|1722 x 1134 x 30 mm
T 56 428 10 helv|Weight
T 220 428 10 helv|21.5 kg
T 56 446 10 helv|Glass
T 220 446 10 helv|3.2 mm tempered, anti-reflective
T 56 464 10 helv|Backsheet
T 220 464 10 helv|White, single-glass module (bifacial gain: n/a)
T 50 500 12 hebo|Warranty
T 56 522 10 helv|Product: 12 years · Linear power output: 25 years (84.8 % of Pmax at year 25)
`,
  },
  {
    kind: 'datasheet',
    layout: 'circulating pump curve table two models side by side fax',
    size: A4,
    scan: { dpi: 200, rotate: 0.5, fax: true },
    schema: {
      manufacturer: '',
      series: 'Pump series',
      max_head: {},
      weight: {},
      max_flow_cp60: 'Maximum flow of the CP 60 model',
      power_cp40: 'Power input of the CP 40',
      max_fluid_temperature: '',
      max_pressure: 'Maximum system pressure',
      connection: 'Pipe connection',
      noise_level: 'Sound pressure level',
    },
    expected: {
      manufacturer: 'Aquadur Pumpen AG',
      series: 'Circo',
      max_head: { 'CP 40': '4.0', 'CP 60': '6.0' },
      weight: { 'CP 40': '1.9', 'CP 60': '2.1' },
      max_flow_cp60: '3.6',
      power_cp40: '5-28 W',
      max_fluid_temperature: '110 °C',
      max_pressure: '10 bar',
      connection: 'DN 25',
      noise_level: null,
    },
    page: `
T 50 62 18 tibo|Aquadur Pumpen AG
T 50 80 10 tiro|Circulating pumps for heating systems - Circo series
L 50 90 545 90 1.5
T 50 120 12 tibo|Performance: head (m) against flow (m³/h)
R 50 130 420 330 1
F 50 130 420 155 0.85
L 50 155 420 155 1
L 170 130 170 330 1
L 295 130 295 330 1
T 60 147 10 tibo|Flow (m³/h)
T 180 147 10 tibo|CP 40 head
T 305 147 10 tibo|CP 60 head
T 60 175 10.5 tiro|0.0
T 180 175 10.5 tiro|4.0 m
T 305 175 10.5 tiro|6.0 m
T 60 200 10.5 tiro|0.5
T 180 200 10.5 tiro|3.6 m
T 305 200 10.5 tiro|5.7 m
T 60 225 10.5 tiro|1.0
T 180 225 10.5 tiro|3.0 m
T 305 225 10.5 tiro|5.1 m
T 60 250 10.5 tiro|1.5
T 180 250 10.5 tiro|2.2 m
T 305 250 10.5 tiro|4.3 m
T 60 275 10.5 tiro|2.0
T 180 275 10.5 tiro|1.2 m
T 305 275 10.5 tiro|3.2 m
T 60 300 10.5 tiro|2.6 (CP 40 max.)
T 180 300 10.5 tiro|0.0 m
T 305 300 10.5 tiro|2.0 m
T 60 322 10.5 tiro|3.6 (CP 60 max.)
T 180 322 10.5 tiro|-
T 305 322 10.5 tiro|0.0 m
T 50 370 12 tibo|Technical data
R 50 380 545 520 1
L 50 400 545 400 1
L 250 380 250 520 1
L 400 380 400 520 1
T 60 395 10 tibo|Model
T 260 395 10 tibo|CP 40
T 410 395 10 tibo|CP 60
T 60 418 10.5 tiro|Power input P1
T 260 418 10.5 tiro|5-28 W
T 410 418 10.5 tiro|8-45 W
T 60 440 10.5 tiro|Maximum head (m)
T 260 440 10.5 tiro|4.0
T 410 440 10.5 tiro|6.0
T 60 462 10.5 tiro|Maximum flow (m³/h)
T 260 462 10.5 tiro|2.6
T 410 462 10.5 tiro|3.6
T 60 484 10.5 tiro|Speed settings
T 260 484 10.5 tiro|3 + auto
T 410 484 10.5 tiro|3 + auto
T 60 506 10.5 tiro|Weight (kg)
T 260 506 10.5 tiro|1.9
T 410 506 10.5 tiro|2.1
T 50 560 12 tibo|Common to both models
T 60 582 10.5 tiro|Liquid temperature: +2 to 110 °C
T 60 600 10.5 tiro|System pressure: 10 bar max. (PN 10)
T 60 618 10.5 tiro|Pipe connection: DN 25 union, 180 mm port to port
T 60 636 10.5 tiro|Enclosure IP44, insulation class F
T 60 654 10.5 tiro|Acoustic noise: see installation manual
`,
  },
  {
    kind: 'datasheet',
    layout: 'laptop charger label rating box and approvals phone photo',
    size: { width: 420, height: 300 },
    scan: { dpi: 300, rotate: -1.1, keystone: 0.04, lighting: 0.7, grain: 8, quality: 38 },
    schema: {
      brand: '',
      model: 'Model number of the adapter',
      input_voltage: 'Input voltage range',
      input_frequency: '',
      output_voltage: '',
      output_current: '',
      output_power: 'Rated output power',
      efficiency_level: 'Energy efficiency level mark',
      country_of_origin: 'Where it was made',
    },
    expected: {
      brand: 'VOLTERA',
      model: 'VA-65C',
      input_voltage: '100-240V~',
      input_frequency: '50/60Hz',
      output_voltage: '20V',
      output_current: '3.25A',
      output_power: '65W',
      efficiency_level: null,
      country_of_origin: 'China',
    },
    page: `
R 10 10 410 290 1.5
T 25 45 20 hebo|VOLTERA
T 25 62 9 helv|USB-C Notebook Power Adapter
RT 395 45 11 hebo|MODEL: VA-65C
R 25 75 395 175 1
T 35 95 10 helv|INPUT:
T 110 95 10 helv|100-240V~ 50/60Hz 1.6A
T 35 115 10 helv|OUTPUT:
T 110 115 10 helv|5V 3A / 9V 3A / 15V 3A
T 110 131 10 hebo|20V 3.25A
T 35 151 10 helv|TOTAL:
T 110 151 10 helv|65W MAX
T 110 167 8 helv|Standby power: < 0.1 W
T 25 195 8 helv|Use only indoors. Do not open: no user-serviceable parts inside.
T 25 208 8 helv|Energy efficiency marking on the retail packaging.
R 25 222 70 262 1
C 47 247 12 hebo|CE
R 80 222 125 262 1
C 102 247 12 hebo|UKCA
R 135 222 180 262 1
C 157 247 10 hebo|RoHS
T 200 240 9 helv|S/N 2309A0417736
T 200 255 9 helv|MADE IN CHINA
`,
  },
];
