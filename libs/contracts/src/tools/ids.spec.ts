// SPDX-License-Identifier: AGPL-3.0-or-later
import { DocumentIdField } from './input-bounds.schema.js';
import { RevisionIdSchema } from './policy-common.schema.js';

describe('id patterns (issue 30: no id names a path or an internal separator)', () => {
  it.each(['rev_NPPF_2024_12', 'rev_LTN_1_20_2020_07', 'r1', 'rev-2024.1', 'R'])('accepts the revision id %p', (id) => {
    expect(RevisionIdSchema.safeParse(id).success).toBe(true);
  });

  it.each(['', '../../etc', '..', '__', 'rev__x', '_rev', 'a/b', 'a\\b', 'rev:x', 'rev x', '.hidden', 'x'.repeat(201)])(
    'refuses the revision id %p',
    (id) => {
      expect(RevisionIdSchema.safeParse(id).success).toBe(false);
    },
  );

  it.each(['25_01178_REM_a1b2c3', 'A__B_123456', 'paper-1', 'doc.v2'])('accepts the document id %p', (id) => {
    expect(DocumentIdField.safeParse(id).success).toBe(true);
  });

  it.each(['', '../etc/passwd', '/etc/passwd', 'a/b', '.git', 'a b', 'd'.repeat(257)])(
    'refuses the document id %p',
    (id) => {
      expect(DocumentIdField.safeParse(id).success).toBe(false);
    },
  );
});
