// SPDX-License-Identifier: AGPL-3.0-or-later
/** The value after `name` on the command line (`--out FILE`), if given: the conversion benches' options. */
export const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
