// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import type { BusinessDoc } from './business-docs.js';

/**
 * Fresh variant 19 (issue 26, a blind held-out set) as data: ten documents as a user scans or photographs them —
 * **image-only PDFs, no text layer**. Each is written as HTML + CSS (other documents and layouts than variant 18's),
 * rendered by chromium to a picture at 200–300 DPI, degraded deterministically (grey paper, a rotation of
 * 0.3–1.5°, mild blur, seeded grain; one a 1-bit photocopy, one a narrow thermal till roll) and wrapped as a one-page
 * PDF holding only that picture (fresh-docs-19.generate.ts). The converter's OCR (tesseract) reads them. Written by
 * someone who had not read the offline extractor, committed before its first run.
 *
 * Traps as in variant 18: labels that are synonyms of the keys (Licensor, Organiser, Returnable bond, Purchaser,
 * Keeper, Consideration, Fare, Gratuity, Callout, Dispensed by, Coil table per model, Rated capacity); values below
 * labels (signature blocks, nameplate boxes, a till roll's date line); values with qualifiers expected bare (£180
 * inclusive of heating, 48,213 miles not warranted, 10 ms max., approx. 82 g, 2000 cycles or more); the same number
 * printed twice with different meanings (14 days of notice / 14 March, 120 persons / 120 chairs, 5000 VAC coil to
 * contacts / 1000 VAC open contacts, 1435 rpm / 1500 synchronous, 3.3 A in star / 5.7 A in delta, 3400 mAh typical
 * / 3300 minimum, £9.90 prescription / £19.80 total, 9 ITEMS / 9.50); null beside
 * a look-alike label (Public liability insurance held by the Trust, V5C reference for a VIN, Limitation of liability,
 * CASHBACK AVAILABLE, not VAT registered, NHS exemption box left blank, Serial No. left blank, Storage, Mechanical
 * life heading without a figure, Temporary Event Notice, no outstanding finance, expenses at cost, FRESHWAY CARD NOT
 * PRESENTED, waiting time charged per minute, UN38.3 test summary). The handwritten entries are DejaVu Serif italic:
 * no script font is installed here.
 */
export interface Fresh19Doc extends Omit<BusinessDoc, 'name' | 'pdf'> {
  /** The document's body and its own CSS (fonts and table rules shared are BASE_CSS). */
  html: string;
  /** The paper: its width, and the least height the page is drawn at (a till roll is as long as its content). */
  paper: { widthMm: number; minHeightMm: number; marginMm: number };
  /**
   * How it is scanned: DPI of the picture, paper and ink grey levels (0–255), rotation in degrees, Gaussian blur
   * sigma, grain amplitude (± grey levels, seeded), grey JPEG quality, or a 1-bit threshold (a photocopy).
   */
  scan: {
    dpi: number;
    paper: number;
    ink: number;
    rotate: number;
    blur?: number;
    grain?: number;
    quality?: number;
    bilevel?: number;
  };
}

/** Rules every document shares: borders collapsed, amounts right-aligned, small print. */
const BASE_CSS = `
  * { box-sizing: border-box; }
  html { background: #fff; }
  body { margin: 0; font-size: 11pt; line-height: 1.35; color: #000; }
  h1 { font-size: 18pt; margin: 0 0 6pt; }
  h2 { font-size: 12pt; margin: 12pt 0 4pt; }
  table { border-collapse: collapse; width: 100%; margin: 4pt 0 8pt; }
  th, td { border: 0.8pt solid #444; padding: 3pt 5pt; vertical-align: top; text-align: left; }
  th { background: #eee; font-weight: bold; }
  td.n, th.n { text-align: right; }
  table.plain td, table.plain th { border: none; padding: 2pt 6pt 2pt 0; background: none; }
  .small { font-size: 8.5pt; }
  .row { display: flex; gap: 18pt; }
  .row > div { flex: 1; }
  .label { font-size: 8.5pt; text-transform: uppercase; letter-spacing: 0.4pt; }
  .box { border: 0.8pt solid #333; padding: 5pt 7pt; }
`;

/** A whole HTML page: the paper, the shared rules, the document's own rules and body. */
export const fullHtml = (doc: Fresh19Doc): string => {
  const [, css = '', body = doc.html] = /^<style>([\s\S]*?)<\/style>([\s\S]*)$/.exec(doc.html.trim()) ?? [];
  const { widthMm, minHeightMm, marginMm } = doc.paper;
  const paper = `html, body { width: ${widthMm}mm; } body { min-height: ${minHeightMm}mm; padding: ${marginMm}mm; }`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${htmlDigest(doc)}</title><style>${BASE_CSS}${paper}${css}</style></head><body>${body}</body></html>`;
};

/**
 * What the PDF's title is set to: a digest of the shared rules, the document's HTML, paper and scan settings, so a
 * spec can tell the committed PDF was made from what is written here.
 */
export const htmlDigest = (doc: Fresh19Doc): string =>
  `fresh-19 ${createHash('sha256')
    .update(`${BASE_CSS}\n${JSON.stringify(doc.paper)}\n${JSON.stringify(doc.scan)}\n${doc.html}`)
    .digest('hex')
    .slice(0, 24)}`;

/** The document's file name (also its fixture's). */
export const fresh19Name = (doc: Fresh19Doc): string => `fresh-19-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf`;

const A4 = { widthMm: 210, minHeightMm: 297, marginMm: 16 };
const A5 = { widthMm: 148, minHeightMm: 210, marginMm: 10 };

export const FRESH_19_DOCS: Fresh19Doc[] = [
  // ---------------------------------------------------------------- contracts
  {
    kind: 'contract',
    layout: 'scanned signed room hire agreement village hall grey paper',
    paper: A4,
    scan: { dpi: 200, paper: 228, ink: 28, rotate: 0.8, blur: 0.6, grain: 5, quality: 60 },
    schema: {
      venue_owner: 'Who lets the hall',
      hirer: '',
      event_date: 'Date of the hire',
      hire_fee: '',
      damage_deposit: '',
      access_from: 'Time the hirer may enter',
      vacate_by: 'Time the hall must be empty',
      max_attendance: 'Most people allowed in the hall',
      cancellation_notice: '',
      insurance_policy_number: '',
      temporary_event_notice: 'TEN reference for selling alcohol',
      signed_date: 'Date the agreement was signed',
    },
    expected: {
      venue_owner: 'Ashcombe Village Hall Trust',
      hirer: 'Priya Ramaswamy',
      event_date: '14 March 2027',
      hire_fee: '\u00a3180',
      damage_deposit: '\u00a3100',
      access_from: '18:00',
      vacate_by: '23:30',
      max_attendance: '120',
      cancellation_notice: '14 days',
      insurance_policy_number: null,
      temporary_event_notice: null,
      signed_date: '2 February 2027',
    },
    html: `<style>
      body { font-family: 'Liberation Serif', serif; font-size: 12pt; }
      h1 { text-align: center; font-size: 17pt; letter-spacing: 1pt; }
      .sub { text-align: center; margin-bottom: 10pt; }
      ol { padding-left: 18pt; } ol li { margin-bottom: 5pt; }
      .sig { margin-top: 22pt; }
      .sig .line { border-bottom: 1pt solid #000; height: 26pt; font-family: 'DejaVu Serif', serif; font-style: italic;
                   font-size: 15pt; padding-left: 8pt; }
    </style>
    <h1>ROOM HIRE AGREEMENT</h1>
    <div class="sub">Ashcombe Village Hall · Church Lane · Ashcombe · Devon EX7 0QN · Registered charity 1043377</div>
    <table class="plain">
      <tr><td style="width:32%"><b>Licensor</b></td><td>Ashcombe Village Hall Trust</td></tr>
      <tr><td><b>Organiser</b></td><td>Priya Ramaswamy, 6 Orchard Close, Ashcombe</td></tr>
      <tr><td><b>Date of function</b></td><td>14 March 2027</td></tr>
      <tr><td><b>Rooms</b></td><td>Main hall and kitchen (not the Committee Room)</td></tr>
      <tr><td><b>Purpose</b></td><td>Family birthday party with a hired disco</td></tr>
      <tr><td><b>Access</b></td><td>from 18:00; the premises to be vacated and locked by 23:30</td></tr>
      <tr><td><b>Hire charge</b></td><td>£180 (inclusive of heating and lighting)</td></tr>
      <tr><td><b>Returnable bond</b></td><td>£100, refunded within 7 days if the hall is left clean and undamaged</td></tr>
    </table>
    <h2>Conditions of hire</h2>
    <ol>
      <li>The number of persons in the main hall shall not exceed 120. The hall holds 120 chairs and 16 tables.</li>
      <li>The Organiser may cancel by giving notice in writing of at least 14 days; after that the hire charge is kept.</li>
      <li>Public liability insurance: held by the Trust for the building only. The Organiser is responsible for any
      equipment brought in by the disco.</li>
      <li>Alcohol may not be sold unless the Organiser has given a Temporary Event Notice to the council. No smoking, candles or confetti. Music must end by 23:00.</li>
      <li>The kitchen must be left clean and the rubbish taken away.</li>
    </ol>
    <div class="row sig">
      <div>For the Licensor<div class="line">M. Hartnell</div>Booking secretary</div>
      <div>The Organiser<div class="line">P. Ramaswamy</div>Date<div class="line" style="font-size:13pt">2 February 2027</div></div>
    </div>`,
  },
  {
    kind: 'contract',
    layout: 'phone photo vehicle sale receipt and contract two party boxes',
    paper: A4,
    scan: { dpi: 220, paper: 215, ink: 35, rotate: -1.4, blur: 0.7, grain: 6, quality: 58 },
    schema: {
      seller: '',
      buyer: '',
      vehicle: 'Make and model',
      registration: 'Registration mark',
      mileage: 'Odometer reading',
      sale_price: '',
      deposit_paid: '',
      balance_paid: '',
      sale_date: '',
      vin: 'Vehicle identification number',
      warranty_period: '',
      finance_company: 'Lender with an outstanding loan on the car',
    },
    expected: {
      seller: 'Colin Ashworth',
      buyer: 'Natalia Sobczak',
      vehicle: 'Skoda Octavia 1.6 TDI',
      registration: 'KX19 PLO',
      mileage: '48,213',
      sale_price: '\u00a37,450',
      deposit_paid: '\u00a3500',
      balance_paid: '\u00a36,950',
      sale_date: '19 June 2027',
      vin: null,
      warranty_period: null,
      finance_company: null,
    },
    html: `<style>
      body { font-family: 'DejaVu Sans', sans-serif; font-size: 11pt; }
      h1 { font-size: 19pt; border-bottom: 2pt solid #000; padding-bottom: 4pt; }
      .box { margin-bottom: 8pt; min-height: 70pt; }
      .box .v { font-size: 12pt; margin-top: 3pt; }
    </style>
    <h1>Vehicle Sale Receipt &amp; Agreement</h1>
    <p>Private sale between the two parties named below. Both keep a signed copy.</p>
    <div class="row">
      <div class="box"><div class="label">Seller (registered keeper)</div>
        <div class="v">Colin Ashworth<br>41 Moorside Road<br>Huddersfield HD4 6TE</div></div>
      <div class="box"><div class="label">Purchaser</div>
        <div class="v">Natalia Sobczak<br>12 Kirkgate Mews<br>Wakefield WF1 1HS</div></div>
    </div>
    <h2>The vehicle</h2>
    <table>
      <tr><th style="width:34%">Make / model</th><td>Skoda Octavia 1.6 TDI</td></tr>
      <tr><th>Registration mark</th><td>KX19 PLO</td></tr>
      <tr><th>Colour</th><td>Moon White</td></tr>
      <tr><th>Odometer</th><td>48,213 miles (not warranted)</td></tr>
      <tr><th>V5C document reference</th><td>1184 2290 517</td></tr>
    </table>
    <h2>Payment</h2>
    <table>
      <tr><td>Agreed price</td><td class="n">£7,450</td></tr>
      <tr><td>Less deposit received 12 June 2027 (cash)</td><td class="n">£500</td></tr>
      <tr><td><b>Balance paid today by bank transfer</b></td><td class="n"><b>£6,950</b></td></tr>
    </table>
    <p>The vehicle is sold as seen, tried and approved. The seller confirms there is no outstanding finance on it and
    that the registered keeper details will be sent to the DVLA today.</p>
    <div class="row" style="margin-top:14pt">
      <div><div class="label">Date of sale</div><div style="font-size:12pt">19 June 2027</div></div>
      <div><div class="label">Signed (seller)</div><div style="font-family:'DejaVu Serif';font-style:italic;font-size:15pt">C. Ashworth</div></div>
      <div><div class="label">Signed (purchaser)</div><div style="font-family:'DejaVu Serif';font-style:italic;font-size:15pt">N. Sobczak</div></div>
    </div>`,
  },
  {
    kind: 'contract',
    layout: 'scanned consultancy engagement letter letterhead signed acceptance',
    paper: A4,
    scan: { dpi: 240, paper: 232, ink: 22, rotate: 0.4, blur: 0.5, grain: 4, quality: 60 },
    schema: {
      consultant: 'The firm engaged',
      client: '',
      start_date: '',
      fixed_fee: '',
      hourly_rate: 'Rate for work outside the scope',
      term: 'How long the engagement runs',
      payment_terms: '',
      notice_period: '',
      governing_law: '',
      liability_cap: '',
      success_fee: '',
      accepted_by: 'Who signed the acceptance for the client',
    },
    expected: {
      consultant: 'Calder & Wythe Advisory LLP',
      client: 'Harrowgate Foods plc',
      start_date: '1 September 2027',
      fixed_fee: '\u00a318,500',
      hourly_rate: '\u00a3165',
      term: '4 months',
      payment_terms: '21 days',
      notice_period: '30 days',
      governing_law: 'England and Wales',
      liability_cap: null,
      success_fee: null,
      accepted_by: 'Tomasz Wierzbicki',
    },
    html: `<style>
      body { font-family: 'Liberation Serif', serif; font-size: 11.5pt; }
      .lh { text-align: right; border-bottom: 1pt solid #000; padding-bottom: 6pt; margin-bottom: 14pt; }
      .lh b { font-size: 16pt; letter-spacing: 0.5pt; }
      p { margin: 0 0 8pt; text-align: justify; }
      .acc { border: 1pt solid #000; padding: 8pt; margin-top: 14pt; }
    </style>
    <div class="lh"><b>Calder &amp; Wythe Advisory LLP</b><br>
      <span class="small">14 Park Square East, Leeds LS1 2NE · partners@calderwythe.example</span></div>
    <p>Harrowgate Foods plc<br>Attn: Mr Tomasz Wierzbicki, Operations Director<br>Station Road, Harrogate HG1 1TX</p>
    <p>9 August 2027</p>
    <p><b>Letter of engagement — review of cold-chain logistics</b></p>
    <p>Dear Mr Wierzbicki,</p>
    <p>Thank you for asking us to review your cold-chain logistics. This letter sets out the terms on which we will do so.</p>
    <p><b>Scope and timing.</b> We will map your four distribution routes, assess the depot at Knaresborough and
    recommend changes. The engagement starts on 1 September 2027 and runs for a term of 4 months.</p>
    <p><b>Fees.</b> Our fixed fee for the scope above is £18,500 plus VAT, invoiced in four equal monthly
    instalments. Work you ask for outside the scope is charged at £165 per hour. Invoices are due within 21 days. Expenses are charged at cost.</p>
    <p><b>Ending the engagement.</b> Either of us may end it by written notice of 30 days.</p>
    <p><b>Limitation of liability.</b> Our liability is as set out in our standard terms of business, which you
    have received separately.</p>
    <p><b>Law.</b> This letter is governed by the laws of England and Wales.</p>
    <p>Yours sincerely,<br><span style="font-family:'DejaVu Serif';font-style:italic;font-size:14pt">Eleanor Wythe</span><br>Eleanor Wythe, Partner</p>
    <div class="acc"><b>Acceptance.</b> We accept the terms of this letter.<br><br>
      Signed for Harrowgate Foods plc: <span style="font-family:'DejaVu Serif';font-style:italic;font-size:14pt">T. Wierzbicki</span><br>
      Name: Tomasz Wierzbicki &nbsp;&nbsp; Position: Operations Director &nbsp;&nbsp; Date: 16 August 2027</div>`,
  },
  // ---------------------------------------------------------------- receipts
  {
    kind: 'receipt',
    layout: 'thermal supermarket till receipt narrow roll monospace',
    paper: { widthMm: 80, minHeightMm: 100, marginMm: 4 },
    scan: { dpi: 300, paper: 222, ink: 55, rotate: 1.1, blur: 0.6, grain: 6, quality: 62 },
    schema: {
      store: 'Shop name',
      store_address: '',
      date: '',
      time: '',
      total: 'Amount paid',
      payment_method: '',
      vat_number: '',
      savings: 'Total saved by offers',
      cashback: '',
      card_last_digits: '',
      loyalty_points: 'Points earned on this shop',
      item_count: 'Number of items bought',
    },
    expected: {
      store: 'FRESHWAY',
      store_address: '88 Market Street, Leigh WN7 1DS',
      date: '12/10/2027',
      time: '17:42',
      total: '\u00a323.87',
      payment_method: 'CONTACTLESS',
      vat_number: 'GB 284 1173 52',
      savings: '\u00a32.10',
      cashback: null,
      card_last_digits: '4471',
      loyalty_points: null,
      item_count: '9',
    },
    html: `<style>
      body { font-family: 'DejaVu Sans Mono', monospace; font-size: 10pt; line-height: 1.3; }
      .c { text-align: center; }
      .big { font-size: 15pt; font-weight: bold; letter-spacing: 2pt; }
      .l { display: flex; justify-content: space-between; }
      .hr { border-top: 1pt dashed #000; margin: 4pt 0; }
      .tot { font-size: 12pt; font-weight: bold; }
    </style>
    <div class="c big">FRESHWAY</div>
    <div class="c">Local Superstore<br>88 Market Street<br>Leigh WN7 1DS<br>Tel 01942 555 018</div>
    <div class="c">VAT No: GB 284 1173 52</div>
    <div class="hr"></div>
    <div class="l"><span>SEMI SKIMMED 2L</span><span>1.55</span></div>
    <div class="l"><span>WHOLEMEAL LOAF</span><span>1.35</span></div>
    <div class="l"><span>BANANAS LOOSE</span><span>0.94</span></div>
    <div class="l"><span>&nbsp;0.815 kg @ 1.15/kg</span><span></span></div>
    <div class="l"><span>CHEDDAR MATURE 400G</span><span>3.80</span></div>
    <div class="l"><span>COFFEE BEANS 1KG</span><span>9.50</span></div>
    <div class="l"><span>&nbsp;OFFER SAVING</span><span>-1.50</span></div>
    <div class="l"><span>PASTA FUSILLI 500G</span><span>0.89</span></div>
    <div class="l"><span>PASTA FUSILLI 500G</span><span>0.89</span></div>
    <div class="l"><span>&nbsp;2 FOR 1.18</span><span>-0.60</span></div>
    <div class="l"><span>TOMATOES CHOPPED</span><span>0.65</span></div>
    <div class="l"><span>DISH TABS x30 *</span><span>6.40</span></div>
    <div class="hr"></div>
    <div class="l"><span>9 ITEMS</span><span></span></div>
    <div class="l tot"><span>TOTAL</span><span>£23.87</span></div>
    <div class="l"><span>CONTACTLESS</span><span>£23.87</span></div>
    <div class="l"><span>VISA DEBIT **** 4471</span><span></span></div>
    <div class="l"><span>CHANGE</span><span>£0.00</span></div>
    <div class="hr"></div>
    <div>FRESHWAY CARD NOT PRESENTED</div>
    <div class="l"><span>YOU SAVED TODAY</span><span>£2.10</span></div>
    <div class="small">* VAT 20% INCL 1.07</div>
    <div class="hr"></div>
    <div class="l"><span>12/10/2027</span><span>17:42</span></div>
    <div class="l"><span>ST 0214 TILL 03</span><span>TRN 5581</span></div>
    <div class="c" style="margin-top:5pt">CASHBACK AVAILABLE AT ALL TILLS<br>THANK YOU FOR SHOPPING<br>WITH FRESHWAY</div>`,
  },
  {
    kind: 'receipt',
    layout: 'phone photo taxi receipt small card stamped',
    paper: { widthMm: 100, minHeightMm: 120, marginMm: 6 },
    scan: { dpi: 280, paper: 218, ink: 40, rotate: -0.9, blur: 0.7, grain: 7, quality: 60 },
    schema: {
      company: 'Taxi firm',
      date: '',
      pickup: 'Where the journey began',
      destination: '',
      distance: '',
      fare: '',
      tip: '',
      total: '',
      driver_badge: 'Driver licence or badge number',
      vat_number: '',
      waiting_time: 'Minutes waited',
    },
    expected: {
      company: 'Tayside Cabs',
      date: '03/04/2027',
      pickup: 'Dundee Station',
      destination: 'Ninewells Hospital',
      distance: '5.8 miles',
      fare: '\u00a314.60',
      tip: '\u00a32.00',
      total: '\u00a316.60',
      driver_badge: '2241',
      vat_number: null,
      waiting_time: null,
    },
    html: `<style>
      body { font-family: 'Liberation Sans', sans-serif; font-size: 11pt; }
      .head { text-align: center; border: 1.5pt solid #000; padding: 4pt; margin-bottom: 8pt; }
      .head b { font-size: 17pt; }
      table.plain td { padding: 3pt 4pt 3pt 0; }
      .hand { font-family: 'DejaVu Serif', serif; font-style: italic; font-size: 12.5pt; }
      .stamp { border: 2pt solid #333; transform: rotate(-8deg); display: inline-block; padding: 3pt 8pt;
               font-weight: bold; margin-top: 8pt; }
    </style>
    <div class="head"><b>Tayside Cabs</b><br>24 hours · 01382 555 700<br>Licensed by Dundee City Council</div>
    <table class="plain">
      <tr><td>Date</td><td class="hand">03/04/2027</td></tr>
      <tr><td>From</td><td class="hand">Dundee Station</td></tr>
      <tr><td>To</td><td class="hand">Ninewells Hospital</td></tr>
      <tr><td>Miles</td><td class="hand">5.8 miles</td></tr>
      <tr><td>Fare (meter)</td><td class="hand">£14.60</td></tr>
      <tr><td>Gratuity</td><td class="hand">£2.00</td></tr>
      <tr><td><b>Total paid</b></td><td class="hand"><b>£16.60</b></td></tr>
      <tr><td>Driver badge no.</td><td class="hand">2241</td></tr>
      <tr><td>Vehicle plate no.</td><td class="hand">318</td></tr>
    </table>
    <p class="small">Waiting time is charged at 30p per minute. This firm is not VAT registered. Lost property: call the office and quote the plate number.</p>
    <div class="stamp">PAID</div>`,
  },
  {
    kind: 'receipt',
    layout: 'plumber handwritten style invoice book carbon copy a5',
    paper: A5,
    scan: { dpi: 250, paper: 226, ink: 30, rotate: 0.6, blur: 0.6, grain: 5, quality: 60 },
    schema: {
      trader: 'The plumber',
      customer: '',
      customer_address: '',
      invoice_number: '',
      invoice_date: '',
      labour: '',
      materials: 'Parts supplied',
      total: '',
      vat_amount: '',
      gas_safe_number: '',
      payment_due: 'Days to pay',
    },
    expected: {
      trader: 'Gareth Probert Plumbing & Heating',
      customer: 'Mrs J. Okonkwo',
      customer_address: '7 Heol Las, Bridgend CF31 2PL',
      invoice_number: '0417',
      invoice_date: '8 Jan 2027',
      labour: '\u00a3135.00',
      materials: '\u00a362.40',
      total: '\u00a3197.40',
      vat_amount: null,
      gas_safe_number: '574219',
      payment_due: '7 days',
    },
    html: `<style>
      body { font-family: 'Liberation Sans', sans-serif; font-size: 10pt; }
      .top { display: flex; justify-content: space-between; border-bottom: 1.2pt solid #000; padding-bottom: 4pt; }
      .top b { font-size: 14pt; }
      .hand { font-family: 'DejaVu Serif', serif; font-style: italic; font-size: 13pt; letter-spacing: 0.3pt; }
      .f { border-bottom: 0.8pt dotted #000; margin: 5pt 0; padding-bottom: 1pt; }
      th, td { border-color: #000; }
      td.hand { padding: 4pt 5pt; }
    </style>
    <div class="top"><div><b>Gareth Probert Plumbing &amp; Heating</b><br>Unit 3, Brackla Ind. Est., Bridgend<br>Tel 07700 900 418
      <br>Gas Safe reg. 574219</div><div style="text-align:right"><b>INVOICE</b><br>No. <span class="hand">0417</span></div></div>
    <div class="f">Date <span class="hand">8 Jan 2027</span></div>
    <div class="f">To <span class="hand">Mrs J. Okonkwo</span></div>
    <div class="f">Address <span class="hand">7 Heol Las, Bridgend CF31 2PL</span></div>
    <table>
      <tr><th>Description</th><th class="n" style="width:26%">£</th></tr>
      <tr><td class="hand">Callout + replace leaking combi<br>boiler pressure valve, refill,<br>test &amp; flush rads (3 hrs)</td><td class="n hand">135.00</td></tr>
      <tr><td class="hand">Parts: PRV 3 bar, 2 x TRV heads,<br>inhibitor</td><td class="n hand">62.40</td></tr>
      <tr><td style="text-align:right"><b>Labour</b></td><td class="n hand">£135.00</td></tr>
      <tr><td style="text-align:right"><b>Materials</b></td><td class="n hand">£62.40</td></tr>
      <tr><td style="text-align:right"><b>VAT</b></td><td class="n hand">n/a</td></tr>
      <tr><td style="text-align:right"><b>TOTAL</b></td><td class="n hand"><b>£197.40</b></td></tr>
    </table>
    <p>Payment within 7 days please, by cash or bank transfer (sort code 40-11-62, acc. 31926604).</p>
    <p class="small">Not registered for VAT. 12 month guarantee on workmanship. Thank you for your custom!</p>`,
  },
  {
    kind: 'receipt',
    layout: 'pharmacy receipt prescription charge and counter items grey scan',
    paper: { widthMm: 90, minHeightMm: 110, marginMm: 5 },
    scan: { dpi: 300, paper: 230, ink: 35, rotate: 0.35, blur: 0.6, grain: 5, quality: 60 },
    schema: {
      pharmacy: '',
      address: '',
      date: '',
      prescription_charge: '',
      subtotal: '',
      vat: '',
      total: '',
      amount_tendered: 'Cash handed over',
      change: '',
      pharmacist: 'Who dispensed',
      exemption_category: 'NHS prescription exemption',
    },
    expected: {
      pharmacy: 'Linden Pharmacy',
      address: '5 Linden Parade, Harrow HA1 3BN',
      date: '27/11/2027',
      prescription_charge: '\u00a39.90',
      subtotal: '\u00a319.80',
      vat: '\u00a30.60',
      total: '\u00a319.80',
      amount_tendered: '\u00a320.00',
      change: '\u00a30.20',
      pharmacist: 'R. Desai',
      exemption_category: null,
    },
    html: `<style>
      body { font-family: 'Liberation Sans Narrow', 'Liberation Sans', sans-serif; font-size: 11pt; }
      .c { text-align: center; }
      .l { display: flex; justify-content: space-between; }
      .hr { border-top: 1pt solid #000; margin: 4pt 0; }
    </style>
    <div class="c"><b style="font-size:15pt">Linden Pharmacy</b><br>5 Linden Parade, Harrow HA1 3BN<br>020 7946 0321</div>
    <div class="hr"></div>
    <div class="l"><span>Date 27/11/2027</span><span>Time 10:16</span></div>
    <div class="hr"></div>
    <div class="l"><span>NHS prescription item x1</span><span>£9.90</span></div>
    <div class="l"><span>Paracetamol 500mg 16</span><span>£0.79</span></div>
    <div class="l"><span>Vitamin D3 1000IU 90</span><span>£5.49</span></div>
    <div class="l"><span>Hand cream 75ml *</span><span>£3.62</span></div>
    <div class="hr"></div>
    <div class="l"><span>Subtotal</span><span>£19.80</span></div>
    <div class="l"><span>* VAT @ 20% incl.</span><span>£0.60</span></div>
    <div class="l"><b>TOTAL</b><b>£19.80</b></div>
    <div class="l"><span>Cash</span><span>£20.00</span></div>
    <div class="l"><span>Change</span><span>£0.20</span></div>
    <div class="hr"></div>
    <div>Dispensed by: R. Desai MRPharmS</div>
    <div>Exempt? Category: ______</div>
    <div class="small c" style="margin-top:6pt">Please keep this receipt. Medicines cannot be returned once they have
    left the pharmacy.</div>`,
  },
  // ---------------------------------------------------------------- datasheets
  {
    kind: 'datasheet',
    layout: 'scanned relay datasheet page coil table per model',
    paper: A4,
    scan: { dpi: 260, paper: 234, ink: 25, rotate: -0.5, blur: 0.4, grain: 4, quality: 60 },
    schema: {
      series: '',
      contact_arrangement: '',
      contact_rating: 'Rated load',
      max_switching_voltage: '',
      coil_power: 'Nominal coil power',
      coil_resistance: {},
      pick_up_voltage: {},
      operate_time: '',
      release_time: '',
      dielectric_strength: 'Between coil and contacts',
      mechanical_life: '',
      ul_file_number: '',
    },
    expected: {
      series: 'KR1A',
      contact_arrangement: '1 Form A',
      contact_rating: '16 A at 250 VAC',
      max_switching_voltage: '400;VAC',
      coil_power: '0.53;W',
      coil_resistance: { 'KR1A-05': '47', 'KR1A-12': '272', 'KR1A-24': '1090' },
      pick_up_voltage: { 'KR1A-05': '3.75', 'KR1A-12': '9.00', 'KR1A-24': '18.00' },
      operate_time: '10;ms',
      release_time: '5;ms',
      dielectric_strength: '5000;VAC',
      mechanical_life: null,
      ul_file_number: null,
    },
    html: `<style>
      body { font-family: 'Liberation Sans', sans-serif; font-size: 11pt; }
      .hd { display: flex; justify-content: space-between; align-items: flex-end; border-bottom: 2pt solid #000; }
      .hd .s { font-size: 20pt; font-weight: bold; }
      th, td { text-align: center; }
      table.kv td { text-align: left; }
      td:first-child { white-space: nowrap; }
      table.coil td { font-size: 12pt; padding: 5pt 8pt; }
    </style>
    <div class="hd"><div class="s">KR1A series</div><div>Kestrel Relays · Power PCB relay · page 2 of 4</div></div>
    <h2>Contact data</h2>
    <table class="kv">
      <tr><td style="width:40%">Contact arrangement</td><td>SPST-NO (1 Form A)</td></tr>
      <tr><td>Rated load (resistive)</td><td>16 A at 250 VAC</td></tr>
      <tr><td>Max. switching voltage</td><td>400 VAC</td></tr>
      <tr><td>Max. switching power</td><td>4000 VA</td></tr>
      <tr><td>Contact material</td><td>AgSnO2</td></tr>
    </table>
    <h2>Coil data</h2>
    <p>Nominal coil power 0.53 W. Pick-up and drop-out voltages at 23 C, coil resistance tolerance plus or minus 10 %.</p>
    <table class="coil">
      <thead><tr><th>Model</th><th>Nominal voltage (VDC)</th><th>Coil resistance (ohm)</th><th>Nominal current (mA)</th>
        <th>Pick-up voltage (VDC max.)</th><th>Drop-out voltage (VDC min.)</th></tr></thead>
      <tbody>
        <tr><td>KR1A-05</td><td>5</td><td>47</td><td>106.4</td><td>3.75</td><td>0.50</td></tr>
        <tr><td>KR1A-12</td><td>12</td><td>272</td><td>44.1</td><td>9.00</td><td>1.20</td></tr>
        <tr><td>KR1A-24</td><td>24</td><td>1090</td><td>22.0</td><td>18.00</td><td>2.40</td></tr>
      </tbody>
    </table>
    <h2>General data</h2>
    <table class="kv">
      <tr><td style="width:40%">Operate time (at nominal voltage)</td><td>10 ms max.</td></tr>
      <tr><td>Release time</td><td>5 ms max.</td></tr>
      <tr><td>Dielectric strength, coil to contacts</td><td>5000 VAC, 1 min</td></tr>
      <tr><td>Dielectric strength, open contacts</td><td>1000 VAC, 1 min</td></tr>
      <tr><td>Insulation resistance</td><td>1000 Mohm at 500 VDC</td></tr>
      <tr><td>Ambient temperature</td><td>-40 to +85 C</td></tr>
    </table>
    <h2>Mechanical life</h2>
    <p>See page 4, life curves. Approvals: UL and VDE pending for the 24 V coil.</p>`,
  },
  {
    kind: 'datasheet',
    layout: 'battery cell spec sheet key value tables grey scan',
    paper: A4,
    scan: { dpi: 200, paper: 224, ink: 20, rotate: 0.5, blur: 0.3, grain: 3, quality: 65 },
    schema: {
      model: '',
      chemistry: '',
      nominal_voltage: '',
      capacity: 'Typical capacity',
      max_discharge_current: 'Continuous discharge current',
      charge_voltage: 'Charge cut-off voltage',
      discharge_cutoff: '',
      cycle_life: '',
      weight: '',
      diameter: '',
      self_discharge: '',
      internal_resistance: 'AC impedance at 1 kHz',
      operating_temperature_discharge: 'Discharge temperature range',
    },
    expected: {
      model: 'LF26650-34',
      chemistry: 'LiFePO4',
      nominal_voltage: '3.2;V',
      capacity: '3400;mAh',
      max_discharge_current: '10;A',
      charge_voltage: '3.65;V',
      discharge_cutoff: '2.5;V',
      cycle_life: '2000 cycles',
      weight: '82;g',
      diameter: '26.2;mm',
      self_discharge: null,
      internal_resistance: null,
      operating_temperature_discharge: '-20 to 60 C',
    },
    html: `<style>
      body { font-family: 'Liberation Sans', sans-serif; font-size: 12pt; }
      .band { border: 2pt solid #000; padding: 6pt 10pt; margin-bottom: 8pt; }
      .band b { font-size: 18pt; letter-spacing: 0.5pt; }
      .kv { width: auto; }
      .kv td { border: none; padding: 3pt 24pt 3pt 0; font-size: 12pt; word-spacing: 4pt; }
      .kv td:first-child { width: 62mm; }
      .row { display: block; }
    </style>
    <div class="band"><b>LF26650-34</b> &nbsp; Cylindrical cell specification<br>Brightwell Energy Co. · Doc. BE-CS-118 rev. 2</div>
    <div class="row">
      <div>
        <h2>Electrical</h2>
        <table class="kv">
          <tr><td>Chemistry</td><td>LiFePO4</td></tr>
          <tr><td>Nominal voltage</td><td>3.2 V</td></tr>
          <tr><td>Rated capacity (typical)</td><td>3400 mAh</td></tr>
          <tr><td>Minimum capacity</td><td>3300 mAh</td></tr>
          <tr><td>Standard charge (CC/CV)</td><td>1.7 A</td></tr>
          <tr><td>Charge cut-off</td><td>3.65 V</td></tr>
          <tr><td>Discharge cut-off</td><td>2.5 V</td></tr>
          <tr><td>Max. continuous discharge</td><td>10 A</td></tr>
          <tr><td>Pulse discharge (10 s)</td><td>20 A</td></tr>
        </table>
      </div>
      <div>
        <h2>Mechanical</h2>
        <table class="kv">
          <tr><td>Diameter</td><td>26.2 mm max.</td></tr>
          <tr><td>Height</td><td>65.5 mm max.</td></tr>
          <tr><td>Weight</td><td>approx. 82 g</td></tr>
          <tr><td>Terminal</td><td>flat top, nickel plated</td></tr>
        </table>
        <h2>Environment</h2>
        <table class="kv env">
          <tr><td>Charge temperature</td><td>0 to 45 C</td></tr>
          <tr><td>Discharge temperature</td><td>-20 to 60 C</td></tr>
          <tr><td>Storage (1 month)</td><td>-20 to 45 C at 50 % SOC</td></tr>
        </table>
      </div>
    </div>
    <h2>Cycle life</h2>
    <p>2000 cycles or more at 1C charge / 1C discharge, 25 C, to 80 % of the rated capacity.</p>
    <h2>Safety</h2>
    <p>Overcharge, short-circuit, crush and nail penetration tests: see the UN38.3 test summary supplied with each
    shipment. Do not charge below 0 C.</p>`,
  },
  {
    kind: 'datasheet',
    layout: 'photocopied motor nameplate style spec table 1-bit',
    paper: A4,
    scan: { dpi: 300, paper: 240, ink: 20, rotate: -0.7, blur: 0.7, grain: 10, bilevel: 140 },
    schema: {
      manufacturer: '',
      model: 'Type designation',
      rated_power: '',
      rated_voltage: '',
      rated_current: '',
      rated_speed: '',
      frequency: '',
      power_factor: '',
      efficiency_class: '',
      ip_rating: 'Degree of protection',
      insulation_class: '',
      weight: '',
      serial_number: '',
    },
    expected: {
      manufacturer: 'Brennholt Antriebe GmbH',
      model: 'BA3-90L-4',
      rated_power: '1.5;kW',
      rated_voltage: '400;V',
      rated_current: '3.3;A',
      rated_speed: '1435;rpm',
      frequency: '50;Hz',
      power_factor: '0.81',
      efficiency_class: 'IE3',
      ip_rating: 'IP55',
      insulation_class: 'F',
      weight: '14;kg',
      serial_number: null,
    },
    html: `<style>
      body { font-family: 'DejaVu Sans', sans-serif; font-size: 11pt; }
      .plate { border: 3pt double #000; padding: 8pt; margin: 10pt 0; }
      .plate table td { border: 1.2pt solid #000; padding: 4pt 6pt; }
      .plate .k { font-size: 8.5pt; display: block; }
      .plate .v { font-size: 13pt; font-weight: bold; word-spacing: 3pt; }
    </style>
    <h1>Brennholt Antriebe GmbH</h1>
    <div>Three-phase induction motors · Spec sheet 90L frame · copy for service file</div>
    <div class="plate">
      <table>
        <tr><td colspan="2"><span class="k">Type</span><span class="v">BA3-90L-4</span></td>
            <td colspan="2"><span class="k">Serial No.</span><span class="v">&nbsp;</span></td></tr>
        <tr><td><span class="k">Output</span><span class="v">1.5 kW</span></td>
            <td><span class="k">Voltage (Y)</span><span class="v">400 V</span></td>
            <td><span class="k">Current</span><span class="v">3.3 A</span></td>
            <td><span class="k">Frequency</span><span class="v">50 Hz</span></td></tr>
        <tr><td><span class="k">Speed</span><span class="v">1435 rpm</span></td>
            <td><span class="k">cos phi</span><span class="v">0.81</span></td>
            <td><span class="k">Eff. class</span><span class="v">IE3</span></td>
            <td><span class="k">Duty</span><span class="v">S1</span></td></tr>
        <tr><td><span class="k">Enclosure</span><span class="v">IP55</span></td>
            <td><span class="k">Ins. cl.</span><span class="v">F</span></td>
            <td><span class="k">Mass</span><span class="v">14 kg</span></td>
            <td><span class="k">Frame</span><span class="v">90L</span></td></tr>
      </table>
    </div>
    <h2>Notes</h2>
    <p>Four-pole motor; synchronous speed 1500 rpm at 50 Hz. Output 1.5 kW (2 HP). Connect in delta for 230 V
    supplies (current 5.7 A). Bearings 6205-2Z both ends. Ambient -20 to 40 C, altitude up to 1000 m.</p>`,
  },
];
