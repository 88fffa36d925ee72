// SPDX-License-Identifier: AGPL-3.0-or-later
// The `stopword` package (3.x) ships no type declarations; this is the part the lib uses.
declare module 'stopword' {
  export const eng: string[];
}
