// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { freshVariant17Docs } from './fresh-docs-17.js';

// Fresh variant 17, a blind held-out extraction set, checked as test material (blind-set.testkit.ts says what).
describeBlindSet(17, freshVariant17Docs(), {
  contracts: 4,
  receipts: 4,
  datasheets: 4,
  minFields: 100,
  absentShare: [0.12, 0.2],
});
