// SPDX-License-Identifier: AGPL-3.0-or-later
import { describeBlindSet } from './blind-set.testkit.js';
import { freshVariant10Docs } from './fresh-docs-10.js';

// Fresh variant 10, a blind held-out extraction set, checked as test material (blind-set.testkit.ts says what).
describeBlindSet(10, freshVariant10Docs(), { contracts: 3, receipts: 3, datasheets: 4, minFields: 60 });
