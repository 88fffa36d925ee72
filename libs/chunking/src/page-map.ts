// SPDX-License-Identifier: AGPL-3.0-or-later
import type { PageMapEntry } from '@lectern/contracts';

/** The page printed at a Markdown offset: the last page-map entry starting at or before it. */
export function pageAt(pageMap: readonly PageMapEntry[], offset: number): number {
  let lo = 0;
  let hi = pageMap.length - 1;
  let page = pageMap[0]?.page ?? 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = pageMap[mid];
    if (!e) break;
    if (e.offset <= offset) {
      page = e.page;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return page;
}
