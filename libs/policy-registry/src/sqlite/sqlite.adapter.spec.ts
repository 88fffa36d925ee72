// SPDX-License-Identifier: AGPL-3.0-or-later
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPolicyRegistryContract } from '../policy-registry.contract.js';
import { SqlitePolicyRegistry } from './sqlite.adapter.js';

describe('PolicyRegistry (SQLite adapter)', () => {
  runPolicyRegistryContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-policy-registry-'));
    const path = join(dir, 'nested', 'policy-registry.sqlite');
    return {
      open: async () => new SqlitePolicyRegistry({ path }),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  });
});
