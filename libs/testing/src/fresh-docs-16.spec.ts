// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { freshVariant16Docs } from './fresh-docs-16.js';

// Fresh variant 16, a blind held-out extraction set, checked as test material (blind-set.testkit.ts says what).
describeBlindSet(16, freshVariant16Docs(), {
  contracts: 4,
  receipts: 4,
  datasheets: 4,
  minFields: 100,
  absentShare: [0.12, 0.2],
});
