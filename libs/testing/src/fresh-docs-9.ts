// SPDX-License-Identifier: AGPL-3.0-or-later
import { page, type BusinessDoc } from './business-docs.js';

/**
 * Fresh variant 9 (issue 26, a blind held-out set): written by someone who had not read the offline extractor, and
 * committed before its first run. Layouts and wordings none of variants 1-8 use: an electricity bill (account box
 * beside the customer's address, a charges table with the total as its last row, a Direct Debit date in a
 * sentence), a freelance consulting agreement with recitals ("BETWEEN: (1) ... (2) ...", "RECITALS (A) ...", an
 * agreement date and a separate start date), an employment offer letter (letter date, start date, salary and
 * probation in prose), a credit note (its number, the invoice it corrects, European amounts, a day-first slashed
 * date), a fuel receipt (no heading, litres "@" a pence-per-litre price, two-digit-year date), a US pharmacy receipt
 * (Rx number, "LAST, FIRST" patient, month-first date, insurance and copay lines), a software licence whose values
 * sit in "Schedule 1" below the clauses; an LDO regulator with a "Test conditions" column and two rows of the same
 * parameter under different conditions, a relay's coil data with three models in columns and the units in their own
 * column (per-model dicts), and a battery pack whose values sit in prose. Schemas as users write them: some fields
 * with a description, some bare; ten fields the document does not state (expected null). `expected` is what the page
 * prints for the value ("value;unit" where the value is one number and a unit).
 */
export const freshVariant9Docs = (): BusinessDoc[] => {
  const docs: Omit<BusinessDoc, 'name'>[] = [
    {
      kind: 'receipt',
      layout: 'electricity bill',
      schema: {
        supplier_name: '',
        customer_name: 'Account holder',
        account_number: '',
        statement_date: 'The date the bill was issued',
        amount_due: 'Total amount to pay for this bill',
        direct_debit_date: 'When the payment will be collected',
        electricity_used: 'Units consumed in the billing period',
        supplier_vat_number: '',
      },
      expected: {
        supplier_name: 'Northern Lights Energy',
        customer_name: 'Mrs Helen Ashworth',
        account_number: '7731 0042 9156',
        statement_date: '24 November 2025',
        amount_due: '\u00a3123.46',
        direct_debit_date: '8 December 2025',
        electricity_used: '412;kWh',
        supplier_vat_number: null,
      },
      pdf: page([
        { heading: 'Northern Lights Energy' },
        { text: ['PO Box 4120, Leeds LS1 9ZZ', 'Customer service 0345 600 1234'] },
        { heading: 'Your electricity bill' },
        {
          columns: [
            ['Mrs Helen Ashworth', '18 Rowan Close', 'Ilkley LS29 8QT'],
            ['Account number  7731 0042 9156', 'Bill date  24 November 2025', 'Period  21 Oct 2025 to 20 Nov 2025'],
          ],
        },
        {
          table: [
            ['Meter', 'Previous', 'Current', 'Units used'],
            ['E12Z004417', '31882', '32294', '412 kWh'],
          ],
        },
        {
          table: [
            ['Electricity 412 kWh @ 24.50p', '\u00a3100.94'],
            ['Standing charge 31 days', '\u00a316.64'],
            ['VAT at 5%', '\u00a35.88'],
            ['Total amount due', '\u00a3123.46'],
          ],
        },
        {
          text: [
            'We will collect \u00a3123.46 by Direct Debit on or after 8 December 2025.',
            'Your next meter reading is due in February.',
          ],
        },
      ]),
    },
    {
      kind: 'contract',
      layout: 'freelance agreement with recitals',
      schema: {
        parties: [],
        agreement_date: 'Date the agreement was signed',
        start_date: 'Date the services start',
        engagement_period: '',
        day_rate: 'Fee per day',
        governing_law: '',
        non_compete_period: '',
      },
      expected: {
        parties: ['Halden Marine Systems Limited', 'Corin Adeyemi'],
        agreement_date: '3rd March 2026',
        start_date: '16 March 2026',
        engagement_period: 'six months',
        day_rate: 'GBP 650',
        governing_law: 'England and Wales',
        non_compete_period: null,
      },
      pdf: page([
        { heading: 'FREELANCE CONSULTING AGREEMENT' },
        { text: ['THIS AGREEMENT is made on 3rd March 2026', 'BETWEEN:'] },
        {
          text: [
            '(1) Halden Marine Systems Limited, a company registered in England under number 08817264,',
            'whose registered office is at 7 Quayside, Southampton SO14 2AQ (the "Client"); and',
            '(2) Corin Adeyemi of 52 Tern Street, Bristol BS3 4NL (the "Consultant").',
          ],
        },
        { heading: 'RECITALS' },
        {
          text: [
            '(A) The Client designs navigation software for commercial shipping.',
            '(B) The Consultant is an independent data engineer.',
            '(C) The Client wishes to engage the Consultant on the terms of this Agreement.',
          ],
        },
        {
          text: [
            'IT IS AGREED as follows:',
            '1. Services. The Consultant shall migrate the Client\'s voyage data platform (the "Services").',
            '2. Duration. The engagement starts on 16 March 2026 and shall continue for a fixed period of',
            'six months, unless ended earlier under clause 6.',
            '3. Fees. The Client shall pay the Consultant GBP 650 per day worked, invoiced monthly.',
            '6. Termination. Either party may end this Agreement on two weeks written notice.',
            '9. Law. This Agreement is governed by the law of England and Wales.',
          ],
        },
      ]),
    },
    {
      kind: 'contract',
      layout: 'employment offer letter',
      schema: {
        employer_name: '',
        candidate_name: 'Person the job is offered to',
        job_title: '',
        start_date: 'First day of employment',
        annual_salary: '',
        probation_period: '',
        notice_period: '',
        governing_law: '',
      },
      expected: {
        employer_name: 'Brightwater Clinical Research Ltd',
        candidate_name: 'Sofia Marchetti',
        job_title: 'Senior Data Analyst',
        start_date: '6 April 2026',
        annual_salary: '\u00a348,500',
        probation_period: 'six months',
        notice_period: 'one month',
        governing_law: null,
      },
      pdf: page([
        { heading: 'Brightwater Clinical Research Ltd' },
        { text: ['Unit 9, Cambridge Science Park, Cambridge CB4 0FW'] },
        { text: ['10 February 2026', 'Private and confidential', 'Sofia Marchetti', '27 Mill Road', 'Ely CB7 4DN'] },
        { text: ['Dear Sofia,'] },
        { heading: 'Offer of employment' },
        {
          text: [
            'I am delighted to offer you the position of Senior Data Analyst in our Biostatistics team,',
            'reporting to Dr Owen Pryce. Your first day of employment will be 6 April 2026.',
            'Your starting salary will be \u00a348,500 per annum, paid monthly in arrears. You will work',
            '37.5 hours per week, Monday to Friday, and receive 27 days of annual leave plus bank holidays.',
            'The first six months of your employment will be a probationary period. After it, the notice',
            'period on either side is one month, given in writing.',
            'Please sign and return the enclosed copy of this letter by 24 February 2026.',
          ],
        },
        { text: ['Yours sincerely,', 'Rachel Donnelly, Head of People'] },
      ]),
    },
    {
      kind: 'receipt',
      layout: 'credit note',
      schema: {
        issuer: 'Company issuing the credit note',
        credit_note_number: '',
        issue_date: '',
        original_invoice_number: 'The invoice this credit note corrects',
        vat_amount: '',
        total_credit: 'Total amount credited including VAT',
        customer_vat_number: '',
      },
      expected: {
        issuer: 'Vantage Office Interiors BV',
        credit_note_number: 'CN-2026-0031',
        issue_date: '12/01/2026',
        original_invoice_number: 'INV-2025-1187',
        vat_amount: 'EUR 139,65',
        total_credit: 'EUR 804,65',
        customer_vat_number: null,
      },
      pdf: page([
        { heading: 'CREDIT NOTE' },
        {
          columns: [
            ['Issued by', 'Vantage Office Interiors BV', 'Keizersgracht 221', '1016 DV Amsterdam'],
            [
              'Credit note no.  CN-2026-0031',
              'Date of issue  12/01/2026',
              'Relates to invoice  INV-2025-1187',
              'Customer no.  C-40562',
            ],
          ],
        },
        {
          table: [
            ['Description', 'Qty', 'Credit (EUR)'],
            ['Ergonomic chair, returned', '2', '620,00'],
            ['Delivery charge refund', '1', '45,00'],
          ],
        },
        {
          text: [
            'Net credit EUR 665,00',
            'VAT 21% EUR 139,65',
            'Total credit EUR 804,65',
            'Reason: goods returned damaged in transit. The amount will be refunded to your account.',
          ],
        },
      ]),
    },
    {
      kind: 'receipt',
      layout: 'fuel receipt',
      schema: {
        station_name: '',
        station_address: '',
        transaction_date: '',
        fuel_type: '',
        fuel_quantity: 'Litres of fuel dispensed',
        price_per_litre: '',
        total_paid: '',
        vehicle_registration: '',
      },
      expected: {
        station_name: 'KESTREL FUELS',
        station_address: '112 Dunkeld Road, Perth PH1 5AS',
        transaction_date: '27/11/25',
        fuel_type: 'DIESEL',
        fuel_quantity: '48.37;L',
        price_per_litre: '145.9;p/L',
        total_paid: 'GBP 77.56',
        vehicle_registration: null,
      },
      pdf: page([
        { text: ['KESTREL FUELS', '112 Dunkeld Road', 'Perth PH1 5AS', 'VAT REG 318 4471 26'] },
        { text: ['PUMP 06   DIESEL', '48.37 L @ 145.9 p/L', 'FUEL TOTAL   GBP 70.57'] },
        {
          text: [
            'Screenwash 5L   GBP 6.99',
            'TOTAL   GBP 77.56',
            'MASTERCARD ****3318 CONTACTLESS',
            'AUTH CODE 09T4KQ',
            '27/11/25   07:52   TRN 004431',
          ],
        },
        { text: ['THANK YOU FOR YOUR CUSTOM'] },
      ]),
    },
    {
      kind: 'receipt',
      layout: 'pharmacy receipt',
      schema: {
        pharmacy_name: '',
        pharmacy_address: '',
        fill_date: 'Date the prescription was filled',
        prescription_number: 'Rx number',
        patient_name: '',
        medication: '',
        amount_paid: 'Amount the patient paid',
        prescriber: 'Prescribing doctor',
      },
      expected: {
        pharmacy_name: 'Maple Street Pharmacy',
        pharmacy_address: '410 Maple Street, Burlington, VT 05401',
        fill_date: '11/28/2025',
        prescription_number: '6604418',
        patient_name: 'KOWALSKI, ANNA',
        medication: 'Atorvastatin 20 mg tab',
        amount_paid: '$10.00',
        prescriber: null,
      },
      pdf: page([
        { heading: 'Maple Street Pharmacy' },
        { text: ['410 Maple Street, Burlington, VT 05401', 'Ph (802) 555-0148'] },
        {
          text: [
            'Rx # 6604418   Filled 11/28/2025',
            'Patient: KOWALSKI, ANNA',
            'Atorvastatin 20 mg tab   Qty 30   Days supply 30',
          ],
        },
        {
          table: [
            ['Retail price', '$62.30'],
            ['Insurance paid', '$52.30'],
            ['Copay', '$10.00'],
          ],
        },
        {
          text: ['Amount paid $10.00   VISA ****7720', 'Ask your pharmacist about lower-cost generic options.'],
        },
      ]),
    },
    {
      kind: 'contract',
      layout: 'licence with schedule',
      schema: {
        licensor: '',
        licensee: '',
        software_name: 'Product licensed',
        number_of_users: '',
        effective_date: '',
        licence_period: '',
        licence_fee: '',
        governing_law: '',
        support_hours: '',
      },
      expected: {
        licensor: 'Tessellate Systems Pte. Ltd.',
        licensee: 'Orla Freight Forwarding Ltd',
        software_name: 'RouteWise Planner 5',
        number_of_users: 40,
        effective_date: '2 March 2026',
        licence_period: '36 months',
        licence_fee: 'SGD 28,800',
        governing_law: 'Republic of Singapore',
        support_hours: null,
      },
      pdf: page([
        { heading: 'END USER SOFTWARE LICENCE AGREEMENT' },
        {
          text: [
            'This Agreement is made between the Licensor and the Licensee named in Schedule 1 and takes',
            'effect on the Commencement Date stated there.',
          ],
        },
        {
          text: [
            '1. Grant. The Licensor grants the Licensee a non-exclusive, non-transferable licence to use',
            'the Software for the number of Named Users in Schedule 1 during the Licence Period.',
            '2. Fees. The Licensee shall pay the Licence Fee yearly in advance within 30 days of invoice.',
            '3. Law. This Agreement and any non-contractual obligations arising from it are governed by',
            'the laws of the Republic of Singapore.',
          ],
        },
        { heading: 'Schedule 1 - Licence Details' },
        {
          table: [
            ['Licensor', 'Tessellate Systems Pte. Ltd.'],
            ['Licensee', 'Orla Freight Forwarding Ltd'],
            ['Software', 'RouteWise Planner 5'],
            ['Named Users', '40'],
            ['Commencement Date', '2 March 2026'],
            ['Licence Period', '36 months'],
            ['Licence Fee', 'SGD 28,800 per year'],
          ],
        },
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'test conditions table',
      schema: {
        max_input_voltage: '',
        output_voltage: '',
        max_output_current: '',
        dropout_voltage: 'Dropout voltage at full load (500 mA)',
        quiescent_current: '',
        ripple_rejection: 'PSRR',
        thermal_shutdown_temperature: '',
        package: '',
        esd_rating: '',
      },
      expected: {
        max_input_voltage: '16;V',
        output_voltage: '3.3;V',
        max_output_current: '500;mA',
        dropout_voltage: '350;mV',
        quiescent_current: '45;\u00b5A',
        ripple_rejection: '68;dB',
        thermal_shutdown_temperature: '160;\u00b0C',
        package: 'SOT-223',
        esd_rating: null,
      },
      pdf: page([
        { heading: 'LDX3350 500 mA low-dropout regulator' },
        {
          text: [
            'Fixed 3.3 V output with low quiescent current, for battery-powered and USB-powered designs.',
            'Available in a 3-pin SOT-223 package.',
          ],
        },
        { heading: 'Electrical characteristics' },
        { text: ['TA = 25 \u00b0C, VIN = 5 V, unless otherwise noted.'] },
        {
          table: [
            ['Parameter', 'Symbol', 'Test conditions', 'Value', 'Unit'],
            ['Input voltage', 'VIN', 'absolute max.', '16', 'V'],
            ['Output voltage', 'VOUT', 'IOUT = 10 mA', '3.3', 'V'],
            ['Output current', 'IOUT', 'maximum', '500', 'mA'],
            ['Dropout voltage', 'VDO', 'IOUT = 100 mA', '90', 'mV'],
            ['Dropout voltage', 'VDO', 'IOUT = 500 mA', '350', 'mV'],
            ['Quiescent current', 'IQ', 'IOUT = 0 mA', '45', '\u00b5A'],
            ['Line regulation', 'LNR', 'VIN 4.3 V to 16 V', '0.02', '%/V'],
            ['Ripple rejection', 'PSRR', 'f = 1 kHz', '68', 'dB'],
            ['Thermal shutdown', 'TSD', 'junction', '160', '\u00b0C'],
          ],
        },
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'relay coil data three models',
      schema: {
        coil_resistance_per_model: {},
        nominal_current_per_model: {},
        must_operate_voltage_per_model: {},
        rated_load: 'Contact rating',
        contact_material: '',
        operate_time: '',
        weight: '',
        insulation_resistance: '',
      },
      expected: {
        coil_resistance_per_model: { 'RX2-05D': '70;ohm', 'RX2-12D': '400;ohm', 'RX2-24D': '1600;ohm' },
        nominal_current_per_model: { 'RX2-05D': '71.4;mA', 'RX2-12D': '30;mA', 'RX2-24D': '15;mA' },
        must_operate_voltage_per_model: { 'RX2-05D': '3.75;V', 'RX2-12D': '9;V', 'RX2-24D': '18;V' },
        rated_load: '10 A at 250 V AC',
        contact_material: 'AgSnO2',
        operate_time: '10;ms',
        weight: '12;g',
        insulation_resistance: null,
      },
      pdf: page([
        { heading: 'RX2 series miniature power relay' },
        { text: ['1 Form C (SPDT) contact, 10 A switching, flux-tight housing for wave soldering.'] },
        { heading: 'Coil data (at 23 \u00b0C)' },
        {
          table: [
            ['Parameter', 'Unit', 'RX2-05D', 'RX2-12D', 'RX2-24D'],
            ['Nominal voltage', 'V DC', '5', '12', '24'],
            ['Coil resistance', 'ohm', '70', '400', '1600'],
            ['Nominal current', 'mA', '71.4', '30', '15'],
            ['Must operate', 'V DC', '3.75', '9', '18'],
            ['Must release', 'V DC', '0.5', '1.2', '2.4'],
            ['Coil power', 'mW', '360', '360', '360'],
          ],
        },
        { heading: 'Contact data' },
        {
          table: [
            ['Contact arrangement', '1 Form C'],
            ['Rated load', '10 A at 250 V AC'],
            ['Contact material', 'AgSnO2'],
            ['Mechanical life', '10,000,000 operations'],
            ['Operate time', 'max. 10 ms'],
          ],
        },
        { text: ['Weight: approx. 12 g'] },
      ]),
    },
    {
      kind: 'datasheet',
      layout: 'values in prose',
      schema: {
        nominal_voltage: '',
        rated_capacity: '',
        max_continuous_discharge_current: '',
        charge_time: 'Time for a full charge',
        weight: '',
        dimensions: '',
        discharge_temperature_range: '',
        charge_temperature_range: '',
        ip_rating: '',
      },
      expected: {
        nominal_voltage: '3.7;V',
        rated_capacity: '5200;mAh',
        max_continuous_discharge_current: '10;A',
        charge_time: '2.5 hours',
        weight: '96;g',
        dimensions: '37 x 19 x 69 mm',
        discharge_temperature_range: '-20 \u00b0C to +60 \u00b0C',
        charge_temperature_range: '0 \u00b0C to +45 \u00b0C',
        ip_rating: null,
      },
      pdf: page([
        { heading: 'PowerCell PC-2P 18650 battery pack' },
        { heading: 'Product overview' },
        {
          text: [
            'The PC-2P is a rechargeable lithium-ion pack built from two 18650 cells in parallel. It has',
            'a nominal voltage of 3.7 V and a rated capacity of 5200 mAh, and it delivers a continuous',
            'discharge current of up to 10 A. A full charge at the standard current of 2.6 A takes about',
            '2.5 hours. The pack weighs 96 g and measures 37 x 19 x 69 mm.',
            'It can be discharged at ambient temperatures from -20 \u00b0C to +60 \u00b0C,',
            'and charged from 0 \u00b0C to +45 \u00b0C.',
            'After 500 cycles it keeps at least 80 % of its rated capacity.',
            'Built-in protection: overcharge, over-discharge, overcurrent and short circuit.',
          ],
        },
      ]),
    },
  ];
  return docs.map((doc) => ({ ...doc, name: `fresh-9-${doc.kind}-${doc.layout.replace(/\s+/g, '-')}.pdf` }));
};
