// SPDX-License-Identifier: AGPL-3.0-or-later
// A module with a local named `require` beside `import.meta.url`: esm-bundle.spec.ts bundles it for CommonJS with the
// relocatable rewrite and runs it (the rewrite once called the module's `require`, which this local shadowed).

export function here(): string {
  const require = (name: string): string => name;
  return `${require('url')}:${import.meta.url}`;
}

console.log(here());
