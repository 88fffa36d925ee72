// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { freshVariant12Docs } from './fresh-docs-12.js';

// Fresh variant 12, a blind held-out extraction set, checked as test material (blind-set.testkit.ts says what).
describeBlindSet(12, freshVariant12Docs(), {
  contracts: 3,
  receipts: 3,
  datasheets: 4,
  minFields: 70,
  absentShare: [0.1, 0.2],
});
