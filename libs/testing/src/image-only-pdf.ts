// SPDX-License-Identifier: AGPL-3.0-or-later
/** A scanned page as the blind sets' generators make it: a grey JPEG (DCT) or a 1-bit Flate bitmap. */
export interface ScanPicture {
  data: Buffer;
  width: number;
  height: number;
  bilevel: boolean;
}

/**
 * A one-page PDF showing the picture over the whole page at `dpi`; no text, no font (the blind scan sets' generators,
 * variants 19 and 20). Written by hand: make-pdf draws text pages, and a one-image PDF is a dozen fixed objects.
 */
export const imageOnlyPdf = (img: ScanPicture, dpi: number, title: string, producer: string): Buffer => {
  const w = ((img.width * 72) / dpi).toFixed(2);
  const h = ((img.height * 72) / dpi).toFixed(2);
  const content = `q ${w} 0 0 ${h} 0 0 cm /Im1 Do Q\n`;
  const imageDict = img.bilevel ? `/BitsPerComponent 1 /Filter /FlateDecode` : `/BitsPerComponent 8 /Filter /DCTDecode`;
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>`,
    ),
    Buffer.concat([
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${img.width} /Height ${img.height} /ColorSpace /DeviceGray ${imageDict} /Length ${img.data.length} >>\nstream\n`,
      ),
      img.data,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from(`<< /Length ${content.length} >>\nstream\n${content}endstream`),
    Buffer.from(`<< /Title (${title}) /Producer (${producer}) >>`),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
};
