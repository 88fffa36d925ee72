// SPDX-License-Identifier: AGPL-3.0-or-later
import { AppError } from '@lectern/contracts';
import { assertSupportedFile, isSupportedFile, SUPPORTED_EXTENSIONS } from './supported-file.js';

describe('supported file types', () => {
  it('lists spec 000 FR-005 types', () => {
    expect([...SUPPORTED_EXTENSIONS].sort()).toEqual(['.bmp', '.jpeg', '.jpg', '.pdf', '.png', '.tif', '.tiff']);
  });

  it.each([
    '/d/a.pdf',
    '/d/A.PDF',
    '/d/scan.TIFF',
    '/d/x.tif',
    '/d/p.jpeg',
    '/d/p.JPG',
    '/d/i.png',
    '/d/i.bmp',
    '/d/v1.2.pdf',
  ])('accepts %s', (p) => {
    expect(isSupportedFile(p)).toBe(true);
    expect(assertSupportedFile(p)).toBe(p.slice(p.lastIndexOf('.')).toLowerCase());
  });

  it.each(['/d/a.docx', '/d/a.pdf.exe', '/d/README', '/d/.pdf', '/d/a.', '/d/a.pdf ', '/d/a.gif', '/d/dir.pdf/x'])(
    'rejects %s with unsupported_file_type',
    (p) => {
      expect(isSupportedFile(p)).toBe(false);
      let error: unknown;
      try {
        assertSupportedFile(p);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('unsupported_file_type');
    },
  );
});
