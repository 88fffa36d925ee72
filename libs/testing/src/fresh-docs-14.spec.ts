// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { freshVariant14Docs } from './fresh-docs-14.js';

// Fresh variant 14, a blind held-out extraction set, checked as test material (blind-set.testkit.ts says what).
describeBlindSet(14, freshVariant14Docs(), {
  contracts: 4,
  receipts: 4,
  datasheets: 4,
  minFields: 100,
  absentShare: [0.12, 0.2],
});
