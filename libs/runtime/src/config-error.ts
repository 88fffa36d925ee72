// SPDX-License-Identifier: AGPL-3.0-or-later
/** Start-up configuration error: names every bad variable; printed without a stack trace. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
