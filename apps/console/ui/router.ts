// SPDX-License-Identifier: AGPL-3.0-or-later
import { useEffect, useState } from 'preact/hooks';

/** Hash routes (`#/search?...`): the console is one static page, so every view is a fragment. */
export interface Route {
  page: string;
  params: URLSearchParams;
}

const read = (): Route => {
  const raw = location.hash.replace(/^#\/?/, '');
  const [page = '', query = ''] = raw.split('?');
  return { page: page || 'documents', params: new URLSearchParams(query) };
};

export const useRoute = (): Route => {
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
};

export const href = (page: string, params: Record<string, string | number | undefined> = {}): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `#/${page}${s ? `?${s}` : ''}`;
};
