// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { freshVariant11Docs } from './fresh-docs-11.js';

// Fresh variant 11, a blind held-out extraction set, checked as test material (blind-set.testkit.ts says what).
describeBlindSet(11, freshVariant11Docs(), {
  contracts: 4,
  receipts: 4,
  datasheets: 4,
  minFields: 80,
  absentShare: [0.1, 0.2],
});
