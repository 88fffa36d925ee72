# SPDX-License-Identifier: AGPL-3.0-or-later
"""Fresh variant 21's five positioned-text PDFs, drawn with PyMuPDF the way invoicing/ERP systems print: every
text run placed at an absolute position with page.insert_text (no table structure; columns made by x positions
only, labels and values as separate runs), amounts right-aligned (x computed from fitz.get_text_length), rules drawn
with draw_line, labels above their values in small grey capitals, a two-page bill whose totals are on page 2.
Written into libs/testing/fixtures/fresh-21/ (committed); each PDF's title is a digest of this file, which
fresh-docs-21.spec.ts checks (a PDF not drawn again after this file changed fails); no new file ID, so drawing them
again without a change leaves the files byte for byte the same. Run by hand:

  /usr/bin/python3 libs/testing/src/fresh-docs-21.generate.py
"""
import hashlib
import os

import fitz

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'fixtures', 'fresh-21')
with open(__file__, 'rb') as f:
    DIGEST = 'fresh-21 ' + hashlib.sha256(f.read()).hexdigest()[:24]

GREY = (0.42, 0.42, 0.42)
BLACK = (0, 0, 0)


class Pen:
    def __init__(self, page):
        self.page = page

    def text(self, x, y, s, size=9.5, font='helv', color=BLACK):
        self.page.insert_text((x, y), s, fontsize=size, fontname=font, color=color)

    def bold(self, x, y, s, size=9.5):
        self.text(x, y, s, size, 'hebo')

    def right(self, xr, y, s, size=9.5, font='helv'):
        w = fitz.get_text_length(s, fontname=font, fontsize=size)
        self.text(xr - w, y, s, size, font)

    def centre(self, xc, y, s, size=9.5, font='helv'):
        w = fitz.get_text_length(s, fontname=font, fontsize=size)
        self.text(xc - w / 2, y, s, size, font)

    def above(self, x, y, label, value, size=10):
        """A label in small grey capitals, its value under it."""
        self.text(x, y, label.upper(), 6.5, 'helv', GREY)
        self.text(x, y + 12, value, size)

    def rule(self, x0, y, x1, width=0.6):
        self.page.draw_line((x0, y), (x1, y), color=BLACK, width=width)


def save(doc, name):
    doc.set_metadata({'title': DIGEST, 'producer': 'PyMuPDF', 'creator': 'fresh-21 ERP print'})
    doc.save(os.path.join(OUT, name), garbage=3, deflate=True, no_new_id=True)
    print(name)


def equipment_lease():
    doc = fitz.open()
    p = Pen(doc.new_page(width=595, height=842))
    p.bold(40, 60, 'TARNWELL LEASING PLC', 15)
    p.text(40, 74, '2 Donegall Square West, Belfast BT1 6JA', 8, color=GREY)
    p.right(555, 60, 'HIRE AGREEMENT (FIXED TERM)', 11, 'hebo')
    p.right(555, 74, 'Regulated by the terms overleaf', 8)
    p.rule(40, 84, 555, 1.2)
    p.above(40, 104, 'Agreement no.', 'TL-EQ-27-0583')
    p.above(200, 104, 'Commencement', '1 June 2027')
    p.above(360, 104, 'Term', '48 months')
    p.above(40, 140, 'Owner', 'Tarnwell Leasing plc')
    p.above(300, 140, 'Hirer', 'Oakhurst Joinery Ltd')
    p.text(300, 164, '14 Mill Road, Lisburn BT27 4SQ', 8.5)
    p.above(40, 190, 'Goods hired', 'Homag Centateq P-110 CNC machining centre, serial 0-271-44-9137')
    p.rule(40, 214, 555)
    p.bold(40, 230, 'RENTAL SCHEDULE', 9)
    p.text(40, 246, 'Description', 8, color=GREY)
    p.right(400, 246, 'Number', 8)
    p.right(555, 246, 'Amount', 8)
    rows = [
        ('Advance rental (3 x monthly, payable on signing)', '1', '\u00a36,435.00'),
        ('Monthly rentals thereafter', '45', '\u00a32,145.00'),
        ('Documentation fee (with the first rental)', '1', '\u00a3195.00'),
        ('Option to purchase fee (at the end of the term)', '1', '\u00a395.00'),
    ]
    y = 262
    for d, n, a in rows:
        p.text(40, y, d)
        p.right(400, y, n)
        p.right(555, y, a)
        y += 15
    p.rule(40, y - 6, 555, 0.4)
    p.text(40, y + 8, 'Total amount payable', 9.5, 'hebo')
    p.right(555, y + 8, '\u00a3103,155.00', 9.5, 'hebo')
    y += 34
    p.text(40, y, 'All amounts exclude VAT, which is added at the rate in force on the date each rental falls due.', 8.5)
    p.text(40, y + 12, 'Late rentals carry interest at 3% a year above the Bank of England base rate.', 8.5)
    y += 40
    p.bold(40, y, 'GUARANTEE AND INDEMNITY (if applicable)', 9)
    p.text(40, y + 16, 'Guarantor name', 8, color=GREY)
    p.rule(130, y + 17, 340, 0.4)
    p.text(360, y + 16, 'Signature', 8, color=GREY)
    p.rule(410, y + 17, 555, 0.4)
    y += 46
    p.text(40, y, 'This agreement is governed by the law of Northern Ireland.', 8.5)
    p.above(40, y + 30, 'Signed for the owner', 'Ciaran Doherty, Credit Manager', 9)
    p.above(300, y + 30, 'Signed for the hirer', 'Ruth Adair, Director', 9)
    save(doc, 'fresh-21-contract-equipment-hire-erp-print-labels-above-values-rental-schedule.pdf')


def licence_order_form():
    doc = fitz.open()
    p = Pen(doc.new_page(width=612, height=792))
    p.bold(50, 56, 'Brightfold Software Ltd', 13)
    p.right(562, 56, 'ORDER FORM', 13, 'hebo')
    p.right(562, 70, 'No. OF-2027-0912', 9)
    p.rule(50, 80, 562, 1)
    # two columns of label/value pairs, placed by x only
    left = [('Customer', 'Meriden County Council'), ('Contact', 'Gareth Pryce, ICT Manager'),
            ('Billing address', 'Council House, Meriden CV7 7LD')]
    right = [('Order date', '12 May 2027'), ('Subscription start', '1 July 2027'), ('Initial term', '24 months')]
    y = 100
    for (l1, v1), (l2, v2) in zip(left, right):
        p.text(50, y, l1, 8.5, color=GREY)
        p.text(135, y, v1, 9.5)
        p.text(330, y, l2, 8.5, color=GREY)
        p.text(425, y, v2, 9.5)
        y += 15
    p.rule(50, y, 562, 0.5)
    y += 16
    p.text(50, y, 'Item', 8, 'hebo')
    p.right(350, y, 'Quantity', 8, 'hebo')
    p.right(440, y, 'Unit / year', 8, 'hebo')
    p.right(500, y, 'Discount', 8, 'hebo')
    p.right(562, y, 'Per year', 8, 'hebo')
    p.rule(50, y + 4, 562, 0.4)
    items = [
        ('Brightfold Casework Cloud - named user', '180', '\u00a3325.00', '-', '\u00a358,500.00'),
        ('Document storage (pooled) 500 GB', '1', '\u00a34,500.00', '-', '\u00a34,500.00'),
    ]
    y += 18
    for it in items:
        p.text(50, y, it[0])
        for x, v in zip((350, 440, 500, 562), it[1:]):
            p.right(x, y, v)
        y += 15
    p.rule(380, y - 5, 562, 0.4)
    p.text(380, y + 8, 'Annual subscription fee', 9, 'hebo')
    p.right(562, y + 8, '\u00a363,000.00', 9.5, 'hebo')
    p.text(380, y + 22, 'VAT', 9)
    p.right(562, y + 22, 'added at 20%', 9)
    y += 50
    p.bold(50, y, 'Terms', 10)
    terms = [
        'Fees are invoiced annually in advance and payable within 30 days of the invoice date.',
        'The subscription renews for successive 12 month periods unless either party gives at least',
        '60 days notice before the end of the current term.',
        'Support: Standard (business hours, UK). Service levels are described in the Brightfold SLA schedule.',
        'This Order Form and the Brightfold Master Subscription Terms are governed by the law of England and Wales.',
    ]
    for t in terms:
        y += 14
        p.text(50, y, t, 9)
    y += 40
    p.text(50, y, 'Accepted for the customer', 8, color=GREY)
    p.text(330, y, 'Accepted for Brightfold', 8, color=GREY)
    p.rule(50, y + 24, 280, 0.4)
    p.rule(330, y + 24, 562, 0.4)
    p.text(50, y + 36, 'Sian Howells, Head of Procurement', 9)
    p.text(330, y + 36, 'Marcus Lindqvist, Sales Director', 9)
    save(doc, 'fresh-21-contract-software-licence-order-form-erp-print-x-columns-quantity-table.pdf')


def utility_bill():
    doc = fitz.open()
    p = Pen(doc.new_page(width=595, height=842))
    p.bold(40, 58, 'Severnside Energy', 16)
    p.text(40, 72, 'PO Box 3312, Gloucester GL1 9ZX  |  0345 600 2210', 8, color=GREY)
    p.right(555, 58, 'Your electricity bill', 12, 'hebo')
    p.right(555, 72, 'Page 1 of 2', 8)
    p.rule(40, 82, 555, 1)
    p.text(40, 110, 'Ms Priya Lakhani', 10)
    p.text(40, 123, '27 Alder Close', 10)
    p.text(40, 136, 'Cheltenham GL52 3NF', 10)
    for i, (l, v) in enumerate([('Account number', 'SE-4471-2290-06'), ('Bill date', '05/04/2027'),
                                ('Billing period', '03/01/2027 - 02/04/2027'), ('Tariff', 'Severnside Fixed 12')]):
        p.text(330, 110 + 13 * i, l, 8.5, color=GREY)
        p.right(555, 110 + 13 * i, v, 9.5)
    p.rule(40, 176, 555, 0.5)
    p.bold(40, 194, 'Meter readings', 10)
    hdr = [(40, 'Meter serial'), (180, 'Previous (A)'), (280, 'Present (A)'), (390, 'Units used')]
    for x, s in hdr:
        p.text(x, 212, s, 8, color=GREY)
    p.text(40, 228, 'E17Z04812')
    p.text(180, 228, '41882')
    p.text(280, 228, '43017')
    p.text(390, 228, '1135 kWh')
    p.text(40, 256, 'A = actual reading.  Next reading due around 02/07/2027.', 8.5)
    p.bold(40, 290, 'Your tariff', 10)
    p.text(40, 306, 'Unit rate', 9, color=GREY)
    p.text(160, 306, '24.50p per kWh')
    p.text(40, 320, 'Standing charge', 9, color=GREY)
    p.text(160, 320, '53.22p per day')
    p.text(40, 334, 'Gas', 9, color=GREY)
    p.text(160, 334, 'not supplied by Severnside Energy')
    p.text(40, 372, 'Warm Home Discount: you may qualify - see www.severnside-energy.example/whd', 8.5)
    p.text(40, 800, 'Continued overleaf - your charges and the amount to pay are on page 2.', 8, color=GREY)
    # page 2: the charges and the totals
    p = Pen(doc.new_page(width=595, height=842))
    p.text(40, 50, 'Severnside Energy  -  Account SE-4471-2290-06', 8, color=GREY)
    p.right(555, 50, 'Page 2 of 2', 8)
    p.rule(40, 58, 555, 0.6)
    p.bold(40, 84, 'Your charges', 11)
    lines = [
        ('Electricity 1135 kWh at 24.50p', '\u00a3278.08'),
        ('Standing charge 90 days at 53.22p', '\u00a347.90'),
    ]
    y = 106
    for d, a in lines:
        p.text(40, y, d)
        p.right(555, y, a)
        y += 15
    p.rule(400, y - 6, 555, 0.4)
    p.text(40, y + 6, 'Charges before VAT')
    p.right(555, y + 6, '\u00a3325.98')
    p.text(40, y + 21, 'VAT at 5%')
    p.right(555, y + 21, '\u00a316.30')
    p.rule(40, y + 30, 555, 0.8)
    p.text(40, y + 44, 'Total charges for this period', 10, 'hebo')
    p.right(555, y + 44, '\u00a3342.28', 10, 'hebo')
    y += 80
    p.text(40, y, 'Balance from your last bill')
    p.right(555, y, '\u00a3298.14')
    p.text(40, y + 15, 'Payment received 12/01/2027, thank you')
    p.right(555, y + 15, '\u00a3298.14')
    p.rule(40, y + 24, 555, 1.2)
    p.text(40, y + 40, 'AMOUNT TO PAY', 11, 'hebo')
    p.right(555, y + 40, '\u00a3342.28', 11, 'hebo')
    p.text(40, y + 56, 'Please pay by 19/04/2027.', 9.5)
    p.text(40, y + 90, 'Pay by bank transfer: sort code 40-11-62, account 83920415, reference SE-4471-2290-06.', 8.5)
    p.text(40, y + 102, 'Direct Debit: set one up at www.severnside-energy.example/dd', 8.5)
    save(doc, 'fresh-21-receipt-electricity-bill-two-pages-totals-on-page-two-erp-print.pdf')


def restaurant_bill():
    doc = fitz.open()
    w = 230
    p = Pen(doc.new_page(width=w, height=520))
    p.centre(w / 2, 36, 'BRASSERIE CALVI', 13, 'hebo')
    p.centre(w / 2, 50, '7 Harbour Street, Whitby YO21 3PU', 7.5)
    p.centre(w / 2, 60, 'VAT reg. 318 4420 57', 7.5)
    p.rule(14, 68, w - 14, 0.4)
    p.text(14, 82, 'Date 21/08/2027', 8)
    p.right(w - 14, 82, '20:47', 8)
    p.text(14, 94, 'Table T9', 8)
    p.right(w - 14, 94, 'Guests 3', 8)
    p.text(14, 106, 'Served by: Ines', 8)
    p.rule(14, 113, w - 14, 0.4)
    items = [
        ('1', 'Moules marinieres', '\u00a316.50'),
        ('1', 'Fish soup', '\u00a39.80'),
        ('1', 'Duck confit', '\u00a322.00'),
        ('1', 'Whitby crab linguine', '\u00a319.50'),
        ('2', 'Creme brulee', '\u00a315.00'),
        ('1', 'Picpoul de Pinet 50cl', '\u00a313.60'),
    ]
    y = 128
    for q, d, a in items:
        p.text(14, y, q, 8.5)
        p.text(30, y, d, 8.5)
        p.right(w - 14, y, a, 8.5)
        y += 12
    p.rule(14, y - 4, w - 14, 0.4)
    y += 8
    for label, amount, font in [('Food & drink', '\u00a396.40', 'helv'),
                                ('Service 12.5%', '\u00a312.05', 'helv'),
                                ('TOTAL', '\u00a3108.45', 'hebo')]:
        p.text(14, y, label, 9, font)
        p.right(w - 14, y, amount, 9, font)
        y += 13
    p.text(14, y + 4, 'incl. VAT 20%', 7.5)
    p.right(w - 14, y + 4, '\u00a318.08', 7.5)
    y += 24
    p.text(14, y, 'Paid Mastercard **** 6631', 8)
    p.right(w - 14, y, '\u00a3108.45', 8)
    y += 14
    p.text(14, y, 'Gratuity', 8)
    p.rule(60, y + 1, w - 14, 0.3)
    y += 24
    p.centre(w / 2, y, 'Service is shared among all our staff.', 7)
    p.centre(w / 2, y + 10, 'Merci et a bientot!', 7)
    save(doc, 'fresh-21-receipt-restaurant-bill-erp-print-narrow-right-aligned-amounts-service-charge.pdf')


def sensor_datasheet():
    doc = fitz.open()
    p = Pen(doc.new_page(width=595, height=842))
    p.text(40, 44, 'KESTREL MICROSYSTEMS', 8, 'hebo')
    p.right(555, 44, 'Datasheet  DS-BPX310-01', 8)
    p.rule(40, 50, 555, 0.6)
    p.bold(40, 78, 'BPX-310', 20)
    p.text(40, 96, 'Digital barometric pressure sensor', 12)
    p.bold(40, 124, 'Key features', 10)
    feats = [
        'Pressure range: 300 to 1100 hPa',
        'Interfaces: I2C and SPI',
        'Operating temperature range: -40 to 85 \u00b0C',
        'Package: LGA-10, 2.0 x 2.0 x 0.75 mm',
    ]
    for i, f in enumerate(feats):
        p.text(52, 140 + 13 * i, '- ' + f, 9)
    p.bold(40, 210, 'Electrical characteristics', 10)
    p.text(40, 222, 'VDD = 1.8 V, TA = 25 \u00b0C unless stated otherwise', 7.5, color=GREY)
    cols = [(40, 'Parameter', 'l'), (195, 'Symbol', 'l'), (245, 'Conditions', 'l'),
            (420, 'Min', 'r'), (465, 'Typ', 'r'), (510, 'Max', 'r'), (520, 'Unit', 'l')]
    y = 240
    for x, s, a in cols:
        (p.right if a == 'r' else p.text)(x, y, s, 8, 'hebo')
    p.rule(40, y + 4, 555, 0.5)
    rows = [
        ('Supply voltage', 'VDD', '', '1.71', '1.8', '3.60', 'V'),
        ('Supply current', 'IDD', 'normal mode, 1 Hz', '', '2.7', '4.0', '\u00b5A'),
        ('Sleep current', 'IDDSL', '', '', '0.1', '0.3', '\u00b5A'),
        ('Absolute accuracy', 'Pabs', '0 to 65 \u00b0C', '', '0.5', '1.0', 'hPa'),
        ('Relative accuracy', 'Prel', '700 to 900 hPa, 25 to 40 \u00b0C', '', '0.06', '', 'hPa'),
        ('Noise in pressure', 'PN', 'highest resolution', '', '1.2', '', 'Pa'),
        ('Solder drift', 'Psold', 'after reflow', '', '0.8', '', 'hPa'),
        ('Start-up time', 'tstart', 'to first conversion', '', '', '2', 'ms'),
    ]
    y += 18
    for r in rows:
        p.text(40, y, r[0], 8.5)
        p.text(195, y, r[1], 8.5)
        p.text(245, y, r[2], 7.5)
        for x, v in zip((420, 465, 510), r[3:6]):
            if v:
                p.right(x, y, v, 8.5)
        p.text(520, y, r[6], 8.5)
        y += 14
    p.rule(40, y - 6, 555, 0.5)
    y += 18
    p.bold(40, y, 'Absolute maximum ratings', 10)
    y += 16
    for l, v in [('Supply voltage VDD', '-0.3 to 4.25 V'), ('Storage temperature', '-45 to 85 \u00b0C'),
                 ('Overpressure', '20000 hPa')]:
        p.text(40, y, l, 8.5)
        p.right(555, y, v, 8.5)
        y += 13
    p.text(40, 812, 'Kestrel Microsystems reserves the right to change these specifications.', 7, color=GREY)
    save(doc, 'fresh-21-datasheet-pressure-sensor-erp-print-min-typ-max-columns-by-x.pdf')


os.makedirs(OUT, exist_ok=True)
equipment_lease()
licence_order_form()
utility_bill()
restaurant_bill()
sensor_datasheet()
