// SPDX-License-Identifier: AGPL-3.0-or-later
import { crc32, createDeflate, createDeflateRaw, deflateRawSync } from 'node:zlib';

/**
 * Hostile and broken documents, built by the tests themselves (nothing hostile is committed): truncated,
 * encrypted, empty, mislabelled, ZIP bombs (honest and lying directories), huge pages and page counts, deep
 * nesting, huge declared image dimensions. Each is small on disk and expensive only to a reader that trusts it.
 */

/** Raw DEFLATE (or zlib, for PNG) of `total` bytes of `fill`, produced in 1 MiB pieces (bounded memory). */
const deflateRepeated = async (
  total: number,
  fill: number,
  format: 'raw' | 'zlib',
  row?: { every: number; byte: number },
): Promise<Buffer> => {
  const stream = format === 'raw' ? createDeflateRaw({ level: 9 }) : createDeflate({ level: 9 });
  const out: Buffer[] = [];
  stream.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const piece = Buffer.alloc(row ? row.every : 1024 * 1024, fill);
  if (row) piece[0] = row.byte;
  for (let written = 0; written < total; written += piece.length) {
    const part = written + piece.length > total ? piece.subarray(0, total - written) : piece;
    if (!stream.write(part)) await new Promise((r) => stream.once('drain', r));
  }
  stream.end();
  await done;
  return Buffer.concat(out);
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
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
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
 * staying up, unchanged and within its memory. Built on each run (about 5 s of CPU, 3 MB of files).
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
