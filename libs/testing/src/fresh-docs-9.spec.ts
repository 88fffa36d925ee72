// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { freshVariant9Docs } from './fresh-docs-9.js';

// Fresh variant 9, a blind held-out extraction set, checked as test material (blind-set.testkit.ts says what).
describeBlindSet(9, freshVariant9Docs(), { contracts: 3, receipts: 4, datasheets: 3, minFields: 40 });
