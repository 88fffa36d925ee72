// SPDX-License-Identifier: AGPL-3.0-or-later
import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Hostile and broken documents, built by the tests themselves (nothing hostile is committed): truncated,
 * encrypted, empty, mislabelled, ZIP bombs (honest and lying directories), huge pages and page counts, deep
 * nesting, huge declared image dimensions. Each is small on disk and expensive only to a reader that trusts it.
 */

/** Adler-32 of `bytes` as its two sums (zlib's trailer is `s << 16 | a`), continuing from `from`. */
const ADLER_BASE = 65521;
const adler32 = (bytes: Buffer, from = { a: 1, s: 0 }): { a: number; s: number } => {
  let { a, s } = from;
  for (const b of bytes) {
    a = (a + b) % ADLER_BASE;
    s = (s + a) % ADLER_BASE;
  }
  return { a, s };
};
/** The Adler-32 sums after appending `times` copies of a block of `length` bytes with sums `block` (from a=1, s=0). */
const adler32Repeat = (
  from: { a: number; s: number },
  block: { a: number; s: number },
  length: number,
  times: number,
): { a: number; s: number } => {
  let { a, s } = from;
  for (let i = 0; i < times; i++) {
    // zlib's adler32_combine: s grows by the block's own s plus length * (a before the block - 1)
    s = (s + block.s + (length % ADLER_BASE) * ((a + ADLER_BASE - 1) % ADLER_BASE)) % ADLER_BASE;
    a = (a + block.a + ADLER_BASE - 1) % ADLER_BASE;
  }
  return { a, s };
};

/**
 * Raw DEFLATE (or zlib, for PNG) of `total` bytes of `fill` (each `row.every` bytes starting with `row.byte`), at
 * level 9, in bounded memory. The data is a piece of about 1 MiB (whole rows) repeated: each piece is deflated with a
 * full flush (the compressor's history reset, the output byte-aligned), so every whole piece packs to the same bytes,
 * deflated once and repeated, then the last partial piece and an empty final block. The stream inflates to exactly
 * the same bytes as one deflated in a single pass, at about the same size, without deflating a gigabyte on each run.
 */
const deflateRepeated = async (
  total: number,
  fill: number,
  format: 'raw' | 'zlib',
  row?: { every: number; byte: number },
): Promise<Buffer> => {
  const unit = row ? row.every : 1;
  const piece = Buffer.alloc(unit * Math.max(1, Math.floor((1024 * 1024) / unit)), fill);
  if (row) for (let at = 0; at < piece.length; at += unit) piece[at] = row.byte;
  const flushed = (bytes: Buffer): Buffer =>
    deflateRawSync(bytes, { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  const whole = Math.floor(total / piece.length);
  const tail = piece.subarray(0, total - whole * piece.length);
  const packed = whole > 0 ? flushed(piece) : Buffer.alloc(0);
  const parts: Buffer[] = [];
  if (format === 'zlib') parts.push(Buffer.from([0x78, 0xda])); // deflate, 32 KiB window, level 9
  for (let i = 0; i < whole; i++) parts.push(packed);
  if (tail.length > 0) parts.push(flushed(tail));
  parts.push(Buffer.from([0x03, 0x00])); // an empty final block (fixed Huffman: header bits, end-of-block code)
  if (format === 'zlib') {
    const sums = adler32(tail, adler32Repeat({ a: 1, s: 0 }, adler32(piece), piece.length, whole));
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(((sums.s << 16) | sums.a) >>> 0, 0);
    parts.push(trailer);
  }
  return Buffer.concat(parts);
};

interface ZipEntrySpec {
  name: string;
  /** The entry's bytes (deflated here), or an already deflated stream with the size it inflates to. */
  data?: Buffer;
  deflated?: { bytes: Buffer; size: number; crc: number };
  /** The uncompressed size written in the headers (default: the true one). */
  declaredSize?: number;
}

/** A ZIP written by hand: the tests need control over the sizes its headers declare. */
export const zipArchive = (entries: ZipEntrySpec[]): Buffer => {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const packed = entry.deflated?.bytes ?? deflateRawSync(entry.data ?? Buffer.alloc(0), { level: 9 });
    const crc = entry.deflated?.crc ?? crc32(entry.data ?? Buffer.alloc(0));
    const size = entry.declaredSize ?? entry.deflated?.size ?? entry.data?.length ?? 0;
    const nameBuf = Buffer.from(entry.name);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(size, 22);
    head.writeUInt16LE(nameBuf.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(packed.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(nameBuf.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(head, nameBuf, packed);
    central.push(dir, nameBuf);
    offset += head.length + nameBuf.length + packed.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
};

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/** A DOCX whose ZIP directory says `word/document.xml` is 4 KB while it inflates to `inflatesTo` bytes (about 1 MB on disk per GB). */
export const lyingDocx = async (inflatesTo = 1024 * 1024 * 1024): Promise<Buffer> => {
  const bytes = await deflateRepeated(inflatesTo, 0x20, 'raw');
  return zipArchive([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', deflated: { bytes, size: inflatesTo, crc: 0 }, declaredSize: 4096 },
  ]);
};

/** A DOCX whose directory honestly declares a 64 MB entry packed 1000:1 (the classic bomb). */
export const honestZipBomb = (): Buffer =>
  zipArchive([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: 'word/document.xml', data: Buffer.alloc(64 * 1024 * 1024, 0x20) },
  ]);

const pngChunk = (type: string, data: Buffer): Buffer => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

/** A valid greyscale PNG of `width` x `height` white pixels: about 1 MB on disk for 20000 x 20000 (400 MP). */
export const hugePng = async (width = 20_000, height = 20_000): Promise<Buffer> => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  // each row: filter byte 0, then `width` white pixels
  const idat = await deflateRepeated((width + 1) * height, 0xff, 'zlib', { every: width + 1, byte: 0 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
};

/** A JPEG header declaring `width` x `height` pixels, followed by a little scan data. */
export const hugeJpegHeader = (width = 20_000, height = 20_000): Buffer => {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x01,
    0x01,
    0x11,
    0x00,
  ]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    Buffer.from([0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]),
    sof,
    Buffer.from([0xff, 0xda, 0x00, 0x02]),
    Buffer.alloc(4096, 0x55),
    Buffer.from([0xff, 0xd9]),
  ]);
};

/** HTML nesting `depth` divs (about 11 bytes a level: 1.1 MB at 100 000). */
export const deepHtml = (depth = 100_000): Buffer =>
  Buffer.from(`<html><body>${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}</body></html>`);

/**
 * A PDF written by hand with correct cross-references: `pages` pages of `width` x `height` points, each
 * showing `text` (none when empty); `encrypt` adds a standard security handler whose password is not empty.
 */
export const handmadePdf = (
  options: { pages?: number; width?: number; height?: number; text?: string; encrypt?: boolean } = {},
): Buffer => {
  const { pages = 1, width = 612, height = 792, text = '', encrypt = false } = options;
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = text ? `BT /F1 12 Tf 72 ${height - 72} Td (${escaped}) Tj ET` : '';
  const stream = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  const kids: number[] = [];
  for (let i = 0; i < pages; i++)
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${stream} 0 R >>`,
      ),
    );
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`;
  const encryptObj = encrypt
    ? add(`<< /Filter /Standard /V 1 /R 2 /O <${'a5'.repeat(32)}> /U <${'5a'.repeat(32)}> /P -4 >>`)
    : 0;
  let body = '%PDF-1.4\n';
  // each object's offset counted as it is appended (measuring the whole body again per object was quadratic: 1.6
  // CPU-s for the 5000-page PDF)
  let length = Buffer.byteLength(body);
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const part = `${i + 1} 0 obj\n${o}\nendobj\n`;
    body += part;
    length += Buffer.byteLength(part);
  });
  const xref = length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${encrypt ? ` /Encrypt ${encryptObj} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
};

export interface HostileCase {
  name: string;
  filename: string;
  bytes: Buffer;
  /** Error codes a correct service may answer with (empty: a graceful success is expected). */
  expect: string[];
}

/**
 * The bad-input corpus: every case a service must answer with a typed error (or a graceful result) while
 * staying up, unchanged and within its memory. Built on each run (about 0.3 s of CPU, 3.5 MB of files).
 */
export const hostileCorpus = async (): Promise<HostileCase[]> => {
  const good = handmadePdf({ text: 'A perfectly ordinary planning statement about drainage and access.' });
  return [
    { name: 'zero-byte', filename: 'empty.pdf', bytes: Buffer.alloc(0), expect: ['no_content', 'extraction_failed'] },
    {
      name: 'truncated PDF',
      filename: 'truncated.pdf',
      bytes: handmadePdf({ pages: 3, text: 'cut short' }).subarray(0, 120),
      expect: ['extraction_failed', 'no_content'],
    },
    {
      name: 'garbage PDF',
      filename: 'garbage.pdf',
      bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 7)]),
      expect: ['extraction_failed'],
    },
    {
      name: 'encrypted PDF',
      filename: 'locked.pdf',
      bytes: handmadePdf({ text: 'secret', encrypt: true }),
      expect: ['encrypted'],
    },
    {
      name: 'wrong extension',
      filename: 'image-really.pdf',
      bytes: hugeJpegHeader(10, 10),
      expect: ['unsupported_file_type'],
    },
    { name: 'PDF named DOCX', filename: 'statement.docx', bytes: good, expect: ['unsupported_file_type'] },
    { name: 'honest ZIP bomb', filename: 'bomb.docx', bytes: honestZipBomb(), expect: ['too_large'] },
    { name: 'lying ZIP bomb', filename: 'liar.docx', bytes: await lyingDocx(), expect: ['too_large'] },
    {
      name: 'huge page',
      filename: 'huge-page.pdf',
      bytes: handmadePdf({ width: 14_400, height: 14_400 }),
      expect: ['no_content', 'too_large'],
    },
    {
      name: 'many pages',
      filename: 'many-pages.pdf',
      bytes: handmadePdf({ pages: 5000, text: 'page' }),
      expect: ['too_large'],
    },
    { name: 'deep nesting', filename: 'deep.html', bytes: deepHtml(), expect: ['too_large'] },
    { name: 'huge PNG dimensions', filename: 'huge.png', bytes: await hugePng(), expect: ['too_large'] },
    { name: 'huge JPEG dimensions', filename: 'huge.jpg', bytes: hugeJpegHeader(), expect: ['too_large'] },
  ];
};
