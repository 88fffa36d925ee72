// SPDX-License-Identifier: AGPL-3.0-or-later
import { createHash } from 'node:crypto';
import type { BusinessDoc } from './business-docs.js';

/**
 * Fresh variant 18 (issue 26, a blind held-out set) as data: twelve documents written as HTML + CSS, the way a word
 * processor or a web shop makes them, rendered to PDF by chromium (fresh-docs-18.generate.ts) with real layout —
 * proportional fonts (Liberation Sans/Serif/Sans Narrow, DejaVu Sans/Serif/Sans Condensed), CSS tables with borders,
 * colspan/rowspan headers, right-aligned amounts, two-column flex blocks, letterheads with a logo box, small print
 * and a running header/footer line. Written by someone who had not read the offline extractor, committed before
 * its first run.
 *
 * Schemas as users write them (bare names, some descriptions, per-model fields as `{}`); labels that are synonyms
 * of the keys (Consultant, Occupiers, Licensee, Hirer, Covers, Account holder, Reg. No.); values below labels;
 * labels without colons; section headings that look like labels; values with qualifiers expected bare (£540 per
 * day excluding VAT, Premium (24x7)); the same number printed twice with different meanings (30 days of work / 30
 * days' notice, 250 users / 250 GB, 89 days / 89 m³); null beside a look-alike label (Confidentiality period,
 * Break and renewal, Discount column of dashes, Guarantee, Tip line left blank, Gift options, Direct Debit,
 * MOT, Ripple rejection, Calibration, Protection, Leakage current, Service life).
 */
export interface Fresh18Doc extends Omit<BusinessDoc, 'name' | 'pdf'> {
  /** The document's body and its own CSS (the page, fonts and table rules are BASE_CSS). */
  html: string;
  format: 'A4' | 'Letter';
  /** A running header and footer line (chromium's header/footer templates), for some documents. */
  header?: string;
  footer?: string;
}

/** Rules every document shares: borders collapsed, amounts right-aligned, small print. */
const BASE_CSS = `
  * { box-sizing: border-box; }
  body { margin: 0; font-size: 10pt; line-height: 1.35; color: #111; }
  h1 { font-size: 17pt; margin: 0 0 6pt; }
  h2 { font-size: 11.5pt; margin: 12pt 0 4pt; }
  table { border-collapse: collapse; width: 100%; margin: 4pt 0 8pt; }
  th, td { border: 0.6pt solid #666; padding: 3pt 5pt; vertical-align: top; text-align: left; }
  th { background: #e8e8e8; font-weight: bold; }
  td.n, th.n { text-align: right; }
  table.plain td, table.plain th { border: none; padding: 1.5pt 4pt 1.5pt 0; background: none; }
  .small { font-size: 7.5pt; color: #444; }
  .row { display: flex; gap: 18pt; }
  .row > div { flex: 1; }
  .logo { width: 46pt; height: 46pt; border: 2pt solid #234; display: flex; align-items: center;
          justify-content: center; font-weight: bold; font-size: 14pt; color: #234; }
  .lh { display: flex; gap: 12pt; align-items: center; border-bottom: 1.2pt solid #234; padding-bottom: 6pt;
        margin-bottom: 10pt; }
  .label { font-size: 7.5pt; text-transform: uppercase; letter-spacing: 0.4pt; color: #555; }
  .box { border: 0.8pt solid #333; padding: 5pt 7pt; }
`;

/** A whole HTML page: the font stack, the shared rules, the document's own rules and body. */
export const fullHtml = (doc: Fresh18Doc): string => {
  const [, css = '', body = doc.html] = /^<style>([\s\S]*?)<\/style>([\s\S]*)$/.exec(doc.html.trim()) ?? [];
  return `<!doctype html><html><head><meta charset="utf-8"><title>${htmlDigest(doc)}</title><style>${BASE_CSS}${css}</style></head><body>${body}</body></html>`;
};

/**
 * What the PDF's title is set to: a digest of the shared rules and the document's HTML, page size, header and
 * footer, so a spec can tell the committed PDF was rendered from the HTML written here.
 */
export const htmlDigest = (doc: Fresh18Doc): string =>
  `fresh-18 ${createHash('sha256')
    .update(`${BASE_CSS}\n${doc.format}\n${doc.header ?? ''}\n${doc.footer ?? ''}\n${doc.html}`)
    .digest('hex')
    .slice(0, 24)}`;

/** The document's file name (also its fixture's). */
export const fresh18Name = (doc: Fresh18Doc): string => `fresh-18-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf`;

export const FRESH_18_DOCS: Fresh18Doc[] = [
  // ---------------------------------------------------------------- contracts
  {
    kind: 'contract',
    layout: 'freelance services agreement serif schedule table',
    format: 'A4',
    footer: 'Pendlebury Analytics Ltd — Services Agreement PA/FS/2027/06 — Confidential',
    schema: {
      client: 'The company engaging the freelancer',
      contractor: '',
      effective_date: '',
      governing_law: '',
      day_rate: 'Daily fee',
      total_days: 'Number of days of work in the schedule',
      notice_period: '',
      payment_terms: 'How many days the client has to pay an invoice',
      non_compete_period: '',
      insurance_amount: 'Professional indemnity cover required',
    },
    expected: {
      client: 'Pendlebury Analytics Ltd',
      contractor: 'Oksana Vralova',
      effective_date: '3 May 2027',
      governing_law: 'Scotland',
      day_rate: '\u00a3540',
      total_days: '30',
      notice_period: '30 days',
      payment_terms: '14 days',
      non_compete_period: null,
      insurance_amount: null,
    },
    html: `<style>
      body { font-family: 'Liberation Serif', serif; font-size: 10.5pt; }
      h1 { text-align: center; letter-spacing: 1pt; }
      .parties td { border: none; padding: 2pt 6pt 2pt 0; }
      ol li { margin-bottom: 4pt; }
    </style>
    <h1>SERVICES AGREEMENT</h1>
    <p style="text-align:center">Reference PA/FS/2027/06</p>
    <table class="parties plain">
      <tr><td style="width:28%"><b>Client</b></td><td>Pendlebury Analytics Ltd, 9 Melville Street, Edinburgh EH3 7PE</td></tr>
      <tr><td><b>Consultant</b></td><td>Oksana Vralova, trading as Vralova Data Studio</td></tr>
      <tr><td><b>Commencement Date</b></td><td>3 May 2027</td></tr>
    </table>
    <h2>1. Services</h2>
    <p>The Consultant shall provide the data engineering services described in the Schedule below, working remotely
    and on site in Edinburgh when reasonably requested by the Client.</p>
    <h2>2. Fees</h2>
    <p>The Client shall pay the Consultant <b>£540 per day (excluding VAT)</b> for each day worked. The Consultant
    invoices monthly in arrears. Invoices are payable within 14 days of receipt.</p>
    <h2>3. Termination</h2>
    <p>Either party may end this Agreement by giving written notice of 30 days to the other.</p>
    <h2>4. Confidentiality</h2>
    <p>Confidentiality period: 3 years after termination. Nothing in this Agreement restricts the Consultant from
    working for other clients during or after the term.</p>
    <h2>5. Insurance</h2>
    <p>The Consultant maintains her own professional insurance and shall produce evidence of it on request.</p>
    <h2>6. Law</h2>
    <p>This Agreement is governed by the law of Scotland and the parties submit to the exclusive jurisdiction of the
    Scottish courts.</p>
    <h2>Schedule — Deliverables</h2>
    <table>
      <thead><tr><th style="width:8%">No.</th><th>Deliverable</th><th class="n" style="width:16%">Days</th><th style="width:22%">Target</th></tr></thead>
      <tbody>
        <tr><td>1</td><td>Audit of the existing reporting pipeline</td><td class="n">10</td><td>31 May 2027</td></tr>
        <tr><td>2</td><td>Migration of the warehouse models to dbt</td><td class="n">12</td><td>2 July 2027</td></tr>
        <tr><td>3</td><td>Documentation and handover workshops</td><td class="n">8</td><td>23 July 2027</td></tr>
        <tr><td colspan="2" style="text-align:right"><b>Total days</b></td><td class="n"><b>30</b></td><td></td></tr>
      </tbody>
    </table>
    <div class="row" style="margin-top:18pt">
      <div>Signed for the Client<br><br>______________________<br>H. Pendlebury, Director</div>
      <div>Signed by the Consultant<br><br>______________________<br>O. Vralova</div>
    </div>`,
  },
  {
    kind: 'contract',
    layout: 'residential tenancy summary letterhead logo two-column boxes labels above values',
    format: 'A4',
    schema: {
      landlord: '',
      tenant: '',
      property_address: '',
      monthly_rent: '',
      deposit: '',
      start_date: '',
      term: '',
      rent_due_day: 'Day of the month the rent is paid',
      break_clause: '',
      council_tax_band: '',
    },
    expected: {
      landlord: 'Margaret Ellery-Shaw',
      tenant: 'Dmitri Palmer and Aiyana Brooks',
      property_address: 'Flat 4, 27 Weaver Row, Bristol BS3 1QJ',
      monthly_rent: '\u00a31,275',
      deposit: '\u00a31,471',
      start_date: '1 August 2027',
      term: '12 months',
      rent_due_day: '1st',
      break_clause: null,
      council_tax_band: null,
    },
    html: `<style>
      body { font-family: 'DejaVu Sans', sans-serif; font-size: 9.5pt; }
      .cell { border: 0.8pt solid #999; padding: 4pt 6pt; margin-bottom: 6pt; min-height: 30pt; }
      .cell .v { font-size: 10.5pt; margin-top: 2pt; }
    </style>
    <div class="lh"><div class="logo">HL</div><div><div style="font-size:14pt;font-weight:bold">Hotwells Lettings</div>
      <div class="small">Residential lettings and management · 3 Cumberland Basin, Bristol · 0117 496 0231</div></div></div>
    <h1>Tenancy Summary</h1>
    <p class="small">This summary sets out the key terms of the assured shorthold tenancy agreement. It does not replace it.</p>
    <div class="row">
      <div>
        <div class="cell"><div class="label">Landlord</div><div class="v">Margaret Ellery-Shaw</div></div>
        <div class="cell"><div class="label">Occupiers</div><div class="v">Dmitri Palmer and Aiyana Brooks</div></div>
        <div class="cell"><div class="label">Maximum occupants</div><div class="v">2</div></div>
      </div>
      <div>
        <div class="cell"><div class="label">Term begins</div><div class="v">1 August 2027</div></div>
        <div class="cell"><div class="label">Fixed term</div><div class="v">12 months</div></div>
        <div class="cell"><div class="label">Rent</div><div class="v">£1,275 per calendar month</div></div>
        <div class="cell"><div class="label">Tenancy deposit</div><div class="v">£1,471</div></div>
      </div>
    </div>
    <div class="cell"><div class="label">The Property</div><div class="v">Flat 4, 27 Weaver Row<br>Bristol BS3 1QJ</div></div>
    <h2>Rent</h2>
    <p>Rent is paid monthly in advance by standing order on the 1st of each month to the agent's client account.</p>
    <h2>Deposit protection</h2>
    <p>The deposit is registered with the Tenancy Deposit Scheme within 30 days of receipt.</p>
    <h2>Break and renewal</h2>
    <p>There is no break clause in this tenancy. It may be renewed for a further term by agreement.</p>
    <h2>Bills</h2>
    <p>Council tax: payable by the tenants directly to Bristol City Council. Gas, electricity, water and broadband are the
    tenants' responsibility.</p>
    <p class="small">Hotwells Lettings is a member of The Property Ombudsman. Client money protection provided by Propertymark.</p>`,
  },
  {
    kind: 'contract',
    layout: 'software licence order form colspan fee table header footer lines',
    format: 'Letter',
    header: 'QUILLON SYSTEMS GMBH · ORDER FORM Q-2027-0614',
    footer: 'Subject to the Quillon Master Subscription Terms v4.2 · Page 1 of 1',
    schema: {
      licensor: '',
      customer: '',
      order_date: '',
      product: '',
      number_of_users: 'Named users licensed',
      annual_fee: 'Yearly subscription fee',
      subscription_term: '',
      renewal_notice: 'Notice needed to stop the renewal',
      governing_law: '',
      support_level: '',
      payment_terms: '',
      uptime_commitment: '',
      discount: '',
    },
    expected: {
      licensor: 'Quillon Systems GmbH',
      customer: 'Harrow & Vale Logistics plc',
      order_date: '14 June 2027',
      product: 'Quillon Route Optimiser Enterprise',
      number_of_users: '250',
      annual_fee: '\u20ac48,750.00',
      subscription_term: '36 months',
      renewal_notice: '90 days',
      governing_law: 'Germany',
      support_level: 'Premium',
      payment_terms: 'annually in advance',
      uptime_commitment: null,
      discount: null,
    },
    html: `<style>
      body { font-family: 'Liberation Sans', sans-serif; font-size: 9.5pt; }
      h1 { font-size: 15pt; color: #0b3a6b; }
      .kv td:first-child { width: 30%; color: #333; font-weight: bold; background: #f3f6fa; }
    </style>
    <h1>Order Form</h1>
    <div class="row">
      <div><div class="label">Supplier</div>Quillon Systems GmbH<br>Leopoldstraße 31<br>80802 München, Germany</div>
      <div><div class="label">Licensee</div>Harrow &amp; Vale Logistics plc<br>Unit 6, Kingsway Park<br>Derby DE22 3FT, United Kingdom</div>
    </div>
    <table class="kv">
      <tr><td>Order Form date</td><td>14 June 2027</td></tr>
      <tr><td>Subscription term</td><td>36 months from the Start Date, renewing for further 12-month periods</td></tr>
      <tr><td>Support plan</td><td>Premium (24x7)</td></tr>
      <tr><td>Hosting region</td><td>EU (Frankfurt), 250 GB document storage included</td></tr>
      <tr><td>Invoicing</td><td>annually in advance</td></tr>
    </table>
    <h2>Fees</h2>
    <table>
      <thead>
        <tr><th rowspan="2">Item</th><th colspan="2" style="text-align:center">Quantity</th><th rowspan="2" class="n">Unit price</th><th rowspan="2" class="n">Discount</th><th rowspan="2" class="n">Annual amount</th></tr>
        <tr><th class="n">Units</th><th>Unit</th></tr>
      </thead>
      <tbody>
        <tr><td>Quillon Route Optimiser Enterprise</td><td class="n">250</td><td>named users</td><td class="n">€195.00</td><td class="n">—</td><td class="n">€48,750.00</td></tr>
        <tr><td>Implementation services (one-off)</td><td class="n">1</td><td>package</td><td class="n">€6,000.00</td><td class="n">—</td><td class="n">€6,000.00</td></tr>
        <tr><td colspan="5" style="text-align:right"><b>Total first year</b></td><td class="n"><b>€54,750.00</b></td></tr>
      </tbody>
    </table>
    <h2>Service levels</h2>
    <p>Service credits and availability reporting are described in the Quillon Service Description, which is not part
    of this Order Form.</p>
    <h2>Renewal</h2>
    <p>Either party may give notice of non-renewal at least 90 days before the end of the then-current term.</p>
    <h2>Governing law</h2>
    <p>This Order Form is governed by the laws of Germany. Place of jurisdiction is Munich.</p>
    <div class="row" style="margin-top:14pt">
      <div class="box">For Quillon Systems GmbH<br><br>Name: Katrin Vogel<br>Title: Head of Sales, UK</div>
      <div class="box">For the Licensee<br><br>Name: Simon Achebe<br>Title: Chief Operating Officer</div>
    </div>`,
  },
  {
    kind: 'contract',
    layout: 'equipment lease serif particulars and rental payment table',
    format: 'A4',
    footer: 'Brackenfield Asset Finance Ltd · Registered in England No. 08841127 · Agreement BAF/L/55190',
    schema: {
      lessor: '',
      lessee: '',
      equipment: 'What is leased',
      lease_start: '',
      number_of_payments: 'How many rentals in total',
      quarterly_rental: '',
      initial_rental: 'Advance payment on signing',
      purchase_option_fee: '',
      balloon_payment: '',
      guarantor: '',
      late_payment_interest: '',
      governing_law: '',
    },
    expected: {
      lessor: 'Brackenfield Asset Finance Ltd',
      lessee: 'Corran Print Works Ltd',
      equipment: 'Heidelberg Speedmaster SX 52 press',
      lease_start: '1 October 2027',
      number_of_payments: '20',
      quarterly_rental: '\u00a34,860.00',
      initial_rental: '\u00a314,580.00',
      purchase_option_fee: '\u00a3150.00',
      balloon_payment: null,
      guarantor: null,
      late_payment_interest: '4% above base rate',
      governing_law: 'England and Wales',
    },
    html: `<style>
      body { font-family: 'DejaVu Serif', serif; font-size: 9pt; }
      h1 { font-size: 14pt; border-bottom: 1pt solid #000; padding-bottom: 3pt; }
      .part td:first-child { width: 34%; font-style: italic; }
    </style>
    <h1>Equipment Lease Agreement</h1>
    <p>Agreement number BAF/L/55190</p>
    <table class="part">
      <tr><td>Owner</td><td>Brackenfield Asset Finance Ltd, 40 Colmore Row, Birmingham B3 2QD</td></tr>
      <tr><td>Hirer</td><td>Corran Print Works Ltd, 12 Mill Lane, Stockport SK4 1AA</td></tr>
      <tr><td>Goods</td><td>Heidelberg Speedmaster SX 52 press, serial no. 550 417, with coating unit</td></tr>
      <tr><td>Commencement</td><td>1 October 2027</td></tr>
      <tr><td>Primary period</td><td>60 months</td></tr>
      <tr><td>Option to purchase fee</td><td>£150.00 (payable with the final rental)</td></tr>
    </table>
    <h2>Rentals</h2>
    <table>
      <thead><tr><th>Rental</th><th>Due</th><th class="n">Amount (excl. VAT)</th></tr></thead>
      <tbody>
        <tr><td>Advance rental (3 rentals)</td><td>on signing</td><td class="n">£14,580.00</td></tr>
        <tr><td>Followed by 17 quarterly rentals</td><td>1 January, April, July and October</td><td class="n">£4,860.00</td></tr>
        <tr><td>Total number of rentals</td><td></td><td class="n">20</td></tr>
        <tr><td>Final rental</td><td>1 July 2032</td><td class="n">£4,860.00</td></tr>
      </tbody>
    </table>
    <p class="small">All rentals are subject to VAT at the rate in force on the due date. The quarterly rental is
    fixed for the primary period.</p>
    <h2>Late payment</h2>
    <p>Interest on overdue sums accrues daily at 4% above base rate until paid.</p>
    <h2>Guarantee</h2>
    <p>No guarantee or indemnity is required for this agreement.</p>
    <h2>Law</h2>
    <p>This agreement is governed by the laws of England and Wales.</p>
    <div class="row" style="margin-top:16pt">
      <div>Signed for the Owner ____________________</div>
      <div>Signed for the Hirer ____________________</div>
    </div>`,
  },
  // ---------------------------------------------------------------- receipts
  {
    kind: 'receipt',
    layout: 'restaurant bill narrow centred service charge',
    format: 'A4',
    schema: {
      restaurant: '',
      address: '',
      date: '',
      table_number: '',
      covers: 'Number of guests',
      subtotal: '',
      service_charge: '',
      vat_amount: '',
      total: '',
      tip: '',
      loyalty_points: '',
      payment_method: '',
    },
    expected: {
      restaurant: 'Osteria Lupa Nera',
      address: '14 Canal Street, Manchester M1 3HE',
      date: '09/07/2027',
      table_number: '12',
      covers: '4',
      subtotal: '\u00a3142.50',
      service_charge: '\u00a317.81',
      vat_amount: '\u00a326.72',
      total: '\u00a3160.31',
      tip: null,
      loyalty_points: null,
      payment_method: 'Visa',
    },
    html: `<style>
      body { font-family: 'Liberation Sans Narrow', 'Liberation Sans', sans-serif; font-size: 10pt; }
      .slip { width: 72mm; margin: 0 auto; border: 0.5pt dashed #888; padding: 10pt; }
      .c { text-align: center; }
      .slip table td { border: none; padding: 1pt 0; }
      .rule { border-top: 0.8pt dashed #333; margin: 4pt 0; }
    </style>
    <div class="slip">
      <div class="c" style="font-size:15pt;font-weight:bold">Osteria Lupa Nera</div>
      <div class="c">14 Canal Street<br>Manchester M1 3HE</div>
      <div class="c small">VAT Reg. GB 318 4471 06</div>
      <div class="rule"></div>
      <table>
        <tr><td>Table 12</td><td class="n">Covers 4</td></tr>
        <tr><td>09/07/2027</td><td class="n">20:41</td></tr>
        <tr><td>Server Giulia</td><td class="n">Bill 0533</td></tr>
      </table>
      <div class="rule"></div>
      <table>
        <tr><td>2 Burrata</td><td class="n">19.00</td></tr>
        <tr><td>1 Vitello tonnato</td><td class="n">11.50</td></tr>
        <tr><td>2 Tagliatelle al ragù</td><td class="n">34.00</td></tr>
        <tr><td>2 Branzino</td><td class="n">48.00</td></tr>
        <tr><td>1 Nero d'Avola 75cl</td><td class="n">30.00</td></tr>
      </table>
      <div class="rule"></div>
      <table>
        <tr><td>Food &amp; drink</td><td class="n">£142.50</td></tr>
        <tr><td>Discretionary service 12.5%</td><td class="n">£17.81</td></tr>
        <tr><td><b>TOTAL</b></td><td class="n"><b>£160.31</b></td></tr>
        <tr><td class="small">Incl. VAT 20%</td><td class="n small">£26.72</td></tr>
      </table>
      <div class="rule"></div>
      <div>Paid VISA CONTACTLESS **** 4417</div>
      <div>Tip ____________</div>
      <div class="rule"></div>
      <div class="c small">Join the Lupa Club at lupanera.example for a birthday dessert.<br>Grazie e a presto!</div>
    </div>`,
  },
  {
    kind: 'receipt',
    layout: 'online order confirmation addresses side by side shipping and discount lines',
    format: 'Letter',
    schema: {
      retailer: '',
      order_number: '',
      order_date: '',
      delivery_address: '',
      items_subtotal: '',
      discount: '',
      shipping: '',
      sales_tax: '',
      order_total: '',
      estimated_delivery: '',
      gift_wrap: '',
    },
    expected: {
      retailer: 'Fernleaf Home Co.',
      order_number: 'FH-2027-118436',
      order_date: 'March 2, 2027',
      delivery_address: '58 Orchard Lane, Ithaca, NY 14850',
      items_subtotal: '$212.40',
      discount: '-$21.24',
      shipping: '$8.95',
      sales_tax: '$15.29',
      order_total: '$215.40',
      estimated_delivery: 'March 9, 2027',
      gift_wrap: null,
    },
    html: `<style>
      body { font-family: 'DejaVu Sans', sans-serif; font-size: 9pt; }
      .brand { font-size: 18pt; color: #2f6b3a; font-weight: bold; }
      .items th { background: #2f6b3a; color: #fff; }
      .sum { width: 45%; margin-left: auto; }
      .sum td { border: none; padding: 2pt 4pt; }
      .sum tr.t td { border-top: 1pt solid #000; font-weight: bold; font-size: 10.5pt; }
    </style>
    <div class="brand">Fernleaf Home Co.</div>
    <p>Thanks for your order, Priya! We'll email you when it ships.</p>
    <p><b>Order # FH-2027-118436</b><br>Placed on March 2, 2027<br>Arriving by March 9, 2027</p>
    <div class="row">
      <div><b>Shipping to</b><br>Priya Raman<br>58 Orchard Lane, Ithaca, NY 14850</div>
      <div><b>Billing address</b><br>Priya Raman<br>410 College Ave, Apt 3, Ithaca, NY 14853</div>
    </div>
    <p><b>Payment</b> Mastercard ending 2291</p>
    <table class="items">
      <thead><tr><th>Item</th><th class="n">Qty</th><th class="n">Price</th><th class="n">Total</th></tr></thead>
      <tbody>
        <tr><td>Linen duvet cover, queen, sage</td><td class="n">1</td><td class="n">$129.00</td><td class="n">$129.00</td></tr>
        <tr><td>Stoneware mugs, set of 4</td><td class="n">1</td><td class="n">$44.00</td><td class="n">$44.00</td></tr>
        <tr><td>Beeswax candle, tall</td><td class="n">2</td><td class="n">$19.70</td><td class="n">$39.40</td></tr>
      </tbody>
    </table>
    <table class="sum">
      <tr><td>Subtotal</td><td class="n">$212.40</td></tr>
      <tr><td>Promo SPRING10 (10% off)</td><td class="n">-$21.24</td></tr>
      <tr><td>Shipping (Standard, 5-7 days)</td><td class="n">$8.95</td></tr>
      <tr><td>Estimated tax</td><td class="n">$15.29</td></tr>
      <tr class="t"><td>Order total</td><td class="n">$215.40</td></tr>
    </table>
    <p><b>Gift options</b><br>None selected for this order.</p>
    <p class="small">Returns accepted within 30 days of delivery. Fernleaf Home Co., 200 Water Street, Portland, ME 04101.</p>`,
  },
  {
    kind: 'receipt',
    layout: 'water bill summary box charges table condensed font',
    format: 'A4',
    header: 'Tamsin Valley Water · Your water and sewerage bill',
    footer: 'Tamsin Valley Water Ltd, Weir House, Tavistock PL19 8AB · Registered in England 02366690',
    schema: {
      supplier: '',
      account_number: '',
      customer_name: '',
      bill_date: '',
      billing_period: '',
      previous_balance: '',
      water_used: 'Consumption in cubic metres',
      sewerage_charge: '',
      current_charges: '',
      amount_due: '',
      due_date: 'Pay by',
      direct_debit_reference: '',
      meter_serial: '',
    },
    expected: {
      supplier: 'Tamsin Valley Water',
      account_number: '7730 0418 2261',
      customer_name: 'Mr Farid Haddad',
      bill_date: '22 May 2027',
      billing_period: '14 February 2027 to 13 May 2027',
      previous_balance: '\u00a30.00',
      water_used: '89;m\u00b3',
      sewerage_charge: '\u00a396.15',
      current_charges: '\u00a3187.40',
      amount_due: '\u00a3187.40',
      due_date: '12 June 2027',
      direct_debit_reference: null,
      meter_serial: 'W16K220947',
    },
    html: `<style>
      body { font-family: 'DejaVu Sans Condensed', 'DejaVu Sans', sans-serif; font-size: 9pt; }
      .summary { border: 1.5pt solid #0a5c8a; padding: 6pt 9pt; width: 62mm; }
      .summary h2 { margin: 0 0 4pt; color: #0a5c8a; }
      .summary table td { border: none; padding: 1.5pt 0; }
      .big { font-size: 13pt; font-weight: bold; }
    </style>
    <div class="lh"><div class="logo" style="border-radius:23pt">TV</div>
      <div><div style="font-size:15pt;font-weight:bold;color:#0a5c8a">Tamsin Valley Water</div>
      <div class="small">Customer services 0345 600 4121 · tamsinvalley.example</div></div></div>
    <div class="row">
      <div>
        Mr Farid Haddad<br>2 Lydford Close<br>Tavistock<br>PL19 0DS
        <p><span class="label">Account holder</span><br>Mr Farid Haddad</p>
        <p><span class="label">Account number</span><br>7730 0418 2261</p>
        <p><span class="label">Bill date</span><br>22 May 2027</p>
      </div>
      <div class="summary">
        <h2>Your bill at a glance</h2>
        <table>
          <tr><td>Balance from last bill</td><td class="n">£0.00</td></tr>
          <tr><td>Charges this bill</td><td class="n">£187.40</td></tr>
          <tr><td class="big">Amount to pay</td><td class="n big">£187.40</td></tr>
        </table>
        <p>Please pay by 12 June 2027</p>
      </div>
    </div>
    <h2>Your charges</h2>
    <p>Billing period 14 February 2027 to 13 May 2027 (89 days)</p>
    <table>
      <thead><tr><th>Service</th><th>Basis</th><th class="n">Charge</th></tr></thead>
      <tbody>
        <tr><td>Water supply</td><td>89 m³ at £0.7534 per m³</td><td class="n">£67.05</td></tr>
        <tr><td>Sewerage</td><td>89 m³ at 95% return, £1.1372 per m³</td><td class="n">£96.15</td></tr>
        <tr><td>Standing charges</td><td>water and sewerage, 89 days</td><td class="n">£24.20</td></tr>
        <tr><td colspan="2"><b>Total charges this period</b></td><td class="n"><b>£187.40</b></td></tr>
      </tbody>
    </table>
    <h2>Your meter</h2>
    <table>
      <thead><tr><th>Meter serial</th><th class="n">Previous reading</th><th class="n">Current reading</th><th class="n">Used</th></tr></thead>
      <tbody><tr><td>W16K220947</td><td class="n">01142 (actual)</td><td class="n">01231 (actual)</td><td class="n">89 m³</td></tr></tbody>
    </table>
    <h2>Direct Debit</h2>
    <p>Spread the cost: set up a monthly Direct Debit online or by calling us. It only takes five minutes.</p>`,
  },
  {
    kind: 'receipt',
    layout: 'car service invoice parts table and labour table vat summary',
    format: 'A4',
    schema: {
      garage: '',
      invoice_number: '',
      invoice_date: '',
      vehicle_registration: '',
      mileage: '',
      parts_total: '',
      labour_hours: '',
      labour_total: '',
      vat: '',
      total_due: '',
      mot_expiry: '',
      technician: '',
    },
    expected: {
      garage: 'Kestrel Motor Works',
      invoice_number: 'KMW-30917',
      invoice_date: '2027-04-19',
      vehicle_registration: 'LK19 XZD',
      mileage: '48,213 miles',
      parts_total: '\u00a3236.40',
      labour_hours: '2.2',
      labour_total: '\u00a3198.00',
      vat: '\u00a386.88',
      total_due: '\u00a3521.28',
      mot_expiry: null,
      technician: 'D. Mensah',
    },
    html: `<style>
      body { font-family: 'Liberation Sans', sans-serif; font-size: 9pt; }
      .inv { font-size: 20pt; color: #a33; font-weight: bold; text-align: right; }
      .meta td { border: none; padding: 1pt 6pt 1pt 0; }
      .tot { width: 42%; margin-left: auto; }
    </style>
    <div class="row">
      <div><div style="font-size:15pt;font-weight:bold">Kestrel Motor Works</div>
        Unit 3, Sandhill Trading Estate<br>Leeds LS17 8EW<br>0113 269 4410</div>
      <div><div class="inv">INVOICE</div>
        <table class="meta" style="width:auto;margin-left:auto">
          <tr><td>Invoice No.</td><td>KMW-30917</td></tr>
          <tr><td>Date</td><td>2027-04-19</td></tr>
          <tr><td>Reg. No.</td><td>LK19 XZD</td></tr>
          <tr><td>Odometer</td><td>48,213 miles</td></tr>
        </table></div>
    </div>
    <p><b>Customer</b> Ms Harriet Lowe, 22 Ash Grove, Leeds LS6 2HU · Vehicle Skoda Octavia Estate 2.0 TDI</p>
    <h2>Parts</h2>
    <table>
      <thead><tr><th>Part no.</th><th>Description</th><th class="n">Qty</th><th class="n">Unit</th><th class="n">Amount</th></tr></thead>
      <tbody>
        <tr><td>04E115561H</td><td>Oil filter</td><td class="n">1</td><td class="n">12.40</td><td class="n">12.40</td></tr>
        <tr><td>G052195M2</td><td>Engine oil 5W-30, litre</td><td class="n">5</td><td class="n">9.80</td><td class="n">49.00</td></tr>
        <tr><td>5Q0698151B</td><td>Front brake pads (set)</td><td class="n">1</td><td class="n">68.00</td><td class="n">68.00</td></tr>
        <tr><td>5Q0615301F</td><td>Front brake discs (pair)</td><td class="n">1</td><td class="n">107.00</td><td class="n">107.00</td></tr>
        <tr><td colspan="4" style="text-align:right">Parts subtotal</td><td class="n">£236.40</td></tr>
      </tbody>
    </table>
    <h2>Labour</h2>
    <table>
      <thead><tr><th>Operation</th><th class="n">Hours</th><th class="n">Rate</th><th class="n">Amount</th></tr></thead>
      <tbody>
        <tr><td>Interim service</td><td class="n">1.0</td><td class="n">90.00</td><td class="n">90.00</td></tr>
        <tr><td>Replace front discs and pads</td><td class="n">1.2</td><td class="n">90.00</td><td class="n">108.00</td></tr>
        <tr><td>Total labour</td><td class="n">2.2</td><td></td><td class="n">£198.00</td></tr>
      </tbody>
    </table>
    <table class="tot">
      <tr><td>Net</td><td class="n">£434.40</td></tr>
      <tr><td>VAT @ 20%</td><td class="n">£86.88</td></tr>
      <tr><th>Total due</th><th class="n">£521.28</th></tr>
    </table>
    <p>Work carried out by D. Mensah. Next service due at 58,000 miles or in 12 months.</p>
    <p class="small">MOT testing is not included in this visit. Parts carry a 12-month warranty. Payment due on collection.</p>`,
  },
  // ---------------------------------------------------------------- datasheets
  {
    kind: 'datasheet',
    layout: 'ldo regulator electrical characteristics rowspan conditions',
    format: 'A4',
    header: 'NVR1733 · 500 mA low-dropout regulator',
    footer: 'Norvane Semiconductor · NVR1733 datasheet rev. C · Subject to change without notice',
    schema: {
      part_number: '',
      output_voltage: '',
      output_current: 'Maximum load current',
      dropout_voltage: 'Dropout at full load',
      quiescent_current: '',
      input_voltage: 'Input voltage range',
      max_input_voltage: 'Absolute maximum input voltage',
      line_regulation: '',
      psrr: 'PSRR at 1 kHz',
      thermal_shutdown: '',
      operating_temperature: '',
      output_noise: '',
      enable_threshold: '',
      package: '',
    },
    expected: {
      part_number: 'NVR1733',
      output_voltage: '3.3;V',
      output_current: '500;mA',
      dropout_voltage: '240;mV',
      quiescent_current: '25;\u00b5A',
      input_voltage: '2.5 V to 16 V',
      max_input_voltage: '18;V',
      line_regulation: '0.02;%/V',
      psrr: '62;dB',
      thermal_shutdown: '165;\u00b0C',
      operating_temperature: '-40 to 125 \u00b0C',
      output_noise: null,
      enable_threshold: null,
      package: 'SOT-23-5',
    },
    html: `<style>
      body { font-family: 'DejaVu Sans', sans-serif; font-size: 8.5pt; }
      h1 { font-size: 20pt; margin-bottom: 0; }
      .sub { font-size: 11pt; color: #555; margin-bottom: 8pt; }
      ul { margin: 2pt 0 6pt 14pt; padding: 0; }
      td.c, th.c { text-align: center; }
    </style>
    <h1>NVR1733</h1>
    <div class="sub">500 mA, 3.3 V fixed output, low-dropout linear regulator</div>
    <div class="row">
      <div>
        <h2>Features</h2>
        <ul>
          <li>Wide input range: 2.5 V to 16 V</li>
          <li>Low quiescent current 25 µA</li>
          <li>Thermal shutdown and current limit</li>
          <li>Stable with 1 µF ceramic output capacitor</li>
          <li>Package SOT-23-5</li>
        </ul>
      </div>
      <div>
        <h2>Absolute maximum ratings</h2>
        <table>
          <tr><th>Parameter</th><th class="n">Min</th><th class="n">Max</th><th>Unit</th></tr>
          <tr><td>VIN to GND</td><td class="n">-0.3</td><td class="n">18</td><td>V</td></tr>
          <tr><td>EN to GND</td><td class="n">-0.3</td><td class="n">VIN + 0.3</td><td>V</td></tr>
          <tr><td>Junction temperature</td><td class="n">-40</td><td class="n">150</td><td>°C</td></tr>
        </table>
      </div>
    </div>
    <h2>Electrical characteristics</h2>
    <p class="small">VIN = 5 V, IOUT = 1 mA, CIN = COUT = 1 µF, TJ = 25 °C unless otherwise noted.</p>
    <table>
      <thead><tr><th>Parameter</th><th>Conditions</th><th class="n">Min</th><th class="n">Typ</th><th class="n">Max</th><th class="c">Unit</th></tr></thead>
      <tbody>
        <tr><td>Output voltage</td><td>IOUT = 1 mA</td><td class="n">3.234</td><td class="n">3.3</td><td class="n">3.366</td><td class="c">V</td></tr>
        <tr><td>Output current</td><td>continuous</td><td class="n"></td><td class="n"></td><td class="n">500</td><td class="c">mA</td></tr>
        <tr><td rowspan="2">Dropout voltage</td><td>IOUT = 100 mA</td><td class="n"></td><td class="n">60</td><td class="n">90</td><td class="c" rowspan="2">mV</td></tr>
        <tr><td>IOUT = 500 mA</td><td class="n"></td><td class="n">240</td><td class="n">330</td></tr>
        <tr><td>Quiescent current</td><td>IOUT = 0 mA</td><td class="n"></td><td class="n">25</td><td class="n">40</td><td class="c">µA</td></tr>
        <tr><td>Line regulation</td><td>VIN = 4.3 V to 16 V</td><td class="n"></td><td class="n">0.02</td><td class="n">0.1</td><td class="c">%/V</td></tr>
        <tr><td>Load regulation</td><td>IOUT = 1 mA to 500 mA</td><td class="n"></td><td class="n">0.4</td><td class="n">1.0</td><td class="c">%</td></tr>
        <tr><td rowspan="2">Ripple rejection</td><td>f = 100 Hz</td><td class="n"></td><td class="n">70</td><td class="n"></td><td class="c" rowspan="2">dB</td></tr>
        <tr><td>f = 1 kHz</td><td class="n"></td><td class="n">62</td><td class="n"></td></tr>
        <tr><td>Current limit</td><td>VOUT = 0.9 × VOUT(nom)</td><td class="n">550</td><td class="n">800</td><td class="n"></td><td class="c">mA</td></tr>
        <tr><td rowspan="2">Thermal shutdown</td><td>TJ rising</td><td class="n"></td><td class="n">165</td><td class="n"></td><td class="c" rowspan="2">°C</td></tr>
        <tr><td>hysteresis</td><td class="n"></td><td class="n">20</td><td class="n"></td></tr>
      </tbody>
    </table>
    <h2>Recommended operating conditions</h2>
    <table>
      <tr><td>Input voltage</td><td>2.5 V to 16 V</td></tr>
      <tr><td>Operating junction temperature</td><td>-40 to 125 °C</td></tr>
    </table>
    <p class="small">The EN pin is internally pulled up; leave it open or tie it to VIN for always-on operation.</p>`,
  },
  {
    kind: 'datasheet',
    layout: 'humidity sensor family one column per model',
    format: 'Letter',
    schema: {
      series: '',
      humidity_accuracy: {},
      temperature_accuracy: {},
      interface: {},
      supply_voltage: '',
      response_time: '',
      average_current: 'Average supply current at one measurement per second',
      package: '',
      operating_range: 'Operating temperature',
      calibration_certificate: '',
    },
    expected: {
      series: 'RHT-20',
      humidity_accuracy: { 'RHT-21': '3;%RH', 'RHT-25': '2;%RH', 'RHT-31': '1.5;%RH' },
      temperature_accuracy: { 'RHT-21': '0.5;\u00b0C', 'RHT-25': '0.3;\u00b0C', 'RHT-31': '0.2;\u00b0C' },
      interface: { 'RHT-21': 'I2C', 'RHT-25': 'I2C', 'RHT-31': 'SPI' },
      supply_voltage: '1.8 to 5.5 V',
      response_time: '8;s',
      average_current: '1.7;\u00b5A',
      package: 'DFN 2.5 x 2.5 mm',
      operating_range: '-40 to 125 \u00b0C',
      calibration_certificate: null,
    },
    html: `<style>
      body { font-family: 'Liberation Sans', sans-serif; font-size: 9pt; }
      .band { background: #1d3557; color: #fff; padding: 8pt 10pt; margin-bottom: 8pt; }
      .band h1 { margin: 0; font-size: 16pt; }
      .models th { text-align: center; }
      .models td.m { text-align: center; }
    </style>
    <div class="band"><h1>RHT-20 series</h1>Digital relative humidity and temperature sensors</div>
    <p>The RHT-20 family combines a capacitive humidity element and a band-gap temperature sensor with a calibrated
    digital output. All variants share the same footprint and supply range.</p>
    <h2>Variant comparison</h2>
    <table class="models">
      <thead><tr><th style="text-align:left">Parameter</th><th>RHT-21</th><th>RHT-25</th><th>RHT-31</th></tr></thead>
      <tbody>
        <tr><td>Humidity accuracy, typical, ± (%RH)</td><td class="m">3</td><td class="m">2</td><td class="m">1.5</td></tr>
        <tr><td>Temperature accuracy, typical, ± (°C)</td><td class="m">0.5</td><td class="m">0.3</td><td class="m">0.2</td></tr>
        <tr><td>Digital interface</td><td class="m">I2C</td><td class="m">I2C</td><td class="m">SPI</td></tr>
        <tr><td>Humidity resolution (%RH)</td><td class="m">0.04</td><td class="m">0.01</td><td class="m">0.01</td></tr>
      </tbody>
    </table>
    <h2>Common specifications</h2>
    <table class="plain">
      <tr><td style="width:40%">Supply voltage</td><td>1.8 to 5.5 V</td></tr>
      <tr><td>Average current (1 Hz)</td><td>1.7 µA</td></tr>
      <tr><td>Response time (τ63%)</td><td>8 s</td></tr>
      <tr><td>Operating temperature</td><td>-40 to 125 °C</td></tr>
      <tr><td>Package</td><td>DFN 2.5 x 2.5 mm</td></tr>
    </table>
    <h2>Calibration</h2>
    <p>Each sensor is individually calibrated and tested; calibration coefficients are stored in on-chip memory.</p>
    <p class="small">Accuracy figures apply at 25 °C and 20 to 80 %RH. Long exposure to high humidity may cause a
    temporary offset that recovers at normal conditions.</p>`,
  },
  {
    kind: 'datasheet',
    layout: 'dc fan range table colspan airflow units rowspan voltage',
    format: 'A4',
    footer: 'Axion Air Movement · AX8025 series · 2027-03',
    schema: {
      series: '',
      frame_size: '',
      rated_voltage: '',
      speed: {},
      airflow: {},
      noise: {},
      bearing: '',
      life_expectancy: 'L10 life at 40 °C',
      operating_temperature: '',
      ip_rating: '',
    },
    expected: {
      series: 'AX8025',
      frame_size: '80 x 80 x 25 mm',
      rated_voltage: '12;V',
      speed: { AX8025L: '2200;rpm', AX8025M: '2900;rpm', AX8025H: '3500;rpm' },
      airflow: { AX8025L: '42.5;m\u00b3/h', AX8025M: '56.1;m\u00b3/h', AX8025H: '67.9;m\u00b3/h' },
      noise: { AX8025L: '24;dB(A)', AX8025M: '30;dB(A)', AX8025H: '35;dB(A)' },
      bearing: 'dual ball',
      life_expectancy: '70,000 h',
      operating_temperature: '-10 to 70 \u00b0C',
      ip_rating: null,
    },
    html: `<style>
      body { font-family: 'DejaVu Sans Condensed', 'DejaVu Sans', sans-serif; font-size: 8.5pt; }
      th, td { text-align: center; }
      .kv td { text-align: left; }
    </style>
    <div class="lh"><div class="logo">AX</div><div><div style="font-size:16pt;font-weight:bold">AX8025 series DC axial fans</div>
      <div>80 x 80 x 25 mm · 12 V DC · dual ball bearing</div></div></div>
    <h2>Performance</h2>
    <table>
      <thead>
        <tr><th rowspan="2">Model</th><th rowspan="2">Rated voltage (V)</th><th rowspan="2">Speed (rpm)</th><th colspan="2">Max. airflow</th><th rowspan="2">Static pressure (Pa)</th><th rowspan="2">Noise (dB(A))</th><th rowspan="2">Power (W)</th></tr>
        <tr><th>(m³/h)</th><th>(CFM)</th></tr>
      </thead>
      <tbody>
        <tr><td>AX8025L</td><td rowspan="3">12</td><td>2200</td><td>42.5</td><td>25.0</td><td>24</td><td>24</td><td>0.84</td></tr>
        <tr><td>AX8025M</td><td>2900</td><td>56.1</td><td>33.0</td><td>38</td><td>30</td><td>1.44</td></tr>
        <tr><td>AX8025H</td><td>3500</td><td>67.9</td><td>40.0</td><td>55</td><td>35</td><td>2.16</td></tr>
      </tbody>
    </table>
    <h2>General</h2>
    <table class="kv">
      <tr><td style="width:35%">Operating voltage range</td><td>7 to 13.8 V</td></tr>
      <tr><td>Bearing</td><td>dual ball</td></tr>
      <tr><td>Life expectancy (L10, 40 °C)</td><td>70,000 h</td></tr>
      <tr><td>Operating temperature</td><td>-10 to 70 °C</td></tr>
      <tr><td>Protection</td><td>impedance protected, locked-rotor auto restart</td></tr>
      <tr><td>Weight</td><td>78 g</td></tr>
    </table>
    <p class="small">Noise measured at 1 m in free air. Airflow and pressure at rated voltage, 25 °C.</p>`,
  },
  {
    kind: 'datasheet',
    layout: 'din power supply input and output sections serif rowspan efficiency',
    format: 'A4',
    schema: {
      model: '',
      output_voltage: '',
      output_current: '',
      rated_power: '',
      voltage_adjustment: 'Output voltage adjustment range',
      ripple_noise: '',
      input_voltage_range: 'AC input range',
      input_frequency: '',
      efficiency: 'Typical efficiency at 230 VAC',
      inrush_current: '',
      mtbf: '',
    },
    expected: {
      model: 'PSU-150-24',
      output_voltage: '24;V',
      output_current: '6.25;A',
      rated_power: '150;W',
      voltage_adjustment: '21.6 to 28.8 V',
      ripple_noise: '120;mVp-p',
      input_voltage_range: '90 to 264 VAC',
      input_frequency: '47 to 63 Hz',
      efficiency: '91;%',
      inrush_current: null,
      mtbf: null,
    },
    html: `<style>
      body { font-family: 'Liberation Serif', serif; font-size: 9.5pt; }
      h1 { font-family: 'Liberation Sans', sans-serif; }
      .spec th[scope=rowgroup] { background: #334; color: #fff; text-align: left; }
      .spec td:first-child { width: 36%; }
    </style>
    <h1>PSU-150-24</h1>
    <p><i>150 W single-output DIN-rail power supply, 24 V</i></p>
    <table class="spec">
      <tr><th scope="rowgroup" colspan="3">OUTPUT</th></tr>
      <tr><td>DC voltage</td><td colspan="2">24 V</td></tr>
      <tr><td>Rated current</td><td colspan="2">6.25 A</td></tr>
      <tr><td>Rated power</td><td colspan="2">150 W</td></tr>
      <tr><td>Voltage adj. range</td><td colspan="2">21.6 to 28.8 V</td></tr>
      <tr><td>Ripple &amp; noise (max.)</td><td colspan="2">120 mVp-p (20 MHz bandwidth)</td></tr>
      <tr><td>Line regulation</td><td colspan="2">±0.5 %</td></tr>
      <tr><th scope="rowgroup" colspan="3">INPUT</th></tr>
      <tr><td>Voltage range</td><td colspan="2">90 to 264 VAC</td></tr>
      <tr><td>Frequency range</td><td colspan="2">47 to 63 Hz</td></tr>
      <tr><td rowspan="2">Efficiency (typ.)</td><td>115 VAC</td><td>89 %</td></tr>
      <tr><td>230 VAC</td><td>91 %</td></tr>
      <tr><td>Leakage current</td><td colspan="2">&lt; 0.75 mA at 240 VAC</td></tr>
      <tr><th scope="rowgroup" colspan="3">PROTECTION</th></tr>
      <tr><td>Overload</td><td colspan="2">105 to 150 % rated output power, hiccup mode</td></tr>
      <tr><td>Over voltage</td><td colspan="2">30 to 34 V</td></tr>
      <tr><th scope="rowgroup" colspan="3">ENVIRONMENT</th></tr>
      <tr><td>Working temperature</td><td colspan="2">-25 to 70 °C (derate above 50 °C)</td></tr>
      <tr><td>Service life</td><td colspan="2">5 years at 40 °C, full load</td></tr>
    </table>
    <p class="small">All parameters measured at 230 VAC input, rated load and 25 °C ambient unless otherwise stated.
    Ripple measured with a 12 inch twisted pair terminated with 0.1 µF and 47 µF capacitors.</p>`,
  },
];
