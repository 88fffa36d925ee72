// SPDX-License-Identifier: AGPL-3.0-or-later
import { useEffect, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { apiKey, describeError, type Service } from './api.js';

/** An error in plain words, announced to screen readers. */
export const ErrorNote = ({ error }: { error: unknown }) =>
  error ? (
    <p class="error" role="alert">
      {describeError(error)}
    </p>
  ) : null;

/** A labelled progress bar (upload bytes, task fields). */
export const Progress = ({ label, value, max }: { label: string; value: number; max: number }) => (
  <div class="progress">
    <span>{label}</span>
    <progress value={value} max={max || 1} aria-label={label} />
  </div>
);

export const Section = ({ title, children }: { title: string; children: ComponentChildren }) => (
  <section aria-label={title}>
    <h2>{title}</h2>
    {children}
  </section>
);

/** A quad (8 numbers: ul, ur, ll, lr corners, PDF points, origin top-left) as a box. */
const boxOf = (q: readonly number[]) => {
  const xs = [q[0] ?? 0, q[2] ?? 0, q[4] ?? 0, q[6] ?? 0];
  const ys = [q[1] ?? 0, q[3] ?? 0, q[5] ?? 0, q[7] ?? 0];
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
};

/**
 * A page image fetched with the key (an <img> cannot send one) and shown from a blob URL, with highlight boxes
 * drawn over it where `quads` say (their page size in PDF points gives the scale, so boxes follow the image's size).
 */
export const PageView = ({
  service,
  path,
  label,
  quads,
  pageSize,
}: {
  service: Service;
  path: string;
  label: string;
  quads?: readonly (readonly number[])[];
  pageSize?: { width: number; height: number };
}) => {
  // the image carries the path it was drawn from: when `path` changes, the last page's image is not shown under the
  // new page's label (and boxes) in the renders before the new one arrives
  const [drawn, setDrawn] = useState<{ path: string; url: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let revoked = false;
    let objectUrl: string | null = null;
    setDrawn(null);
    setError(null);
    const key = apiKey.get();
    fetch(`/svc/${service}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} })
      .then(async (response) => {
        if (!response.ok) {
          const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
          throw new Error(body?.error?.message ?? `The page could not be drawn (HTTP ${response.status}).`);
        }
        const blob = await response.blob();
        if (revoked) return;
        objectUrl = URL.createObjectURL(blob);
        setDrawn({ path, url: objectUrl });
      })
      .catch((e: unknown) => !revoked && setError(e));
    return () => {
      revoked = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [service, path]);
  if (error) return <ErrorNote error={error} />;
  const url = drawn?.path === path ? drawn.url : null;
  if (!url) return <p aria-live="polite">Drawing the page…</p>;
  return (
    <figure class="page">
      <div class="page-frame">
        <img src={url} alt={label} />
        {pageSize &&
          (quads ?? []).map((q, i) => {
            const b = boxOf(q);
            return (
              <span
                key={i}
                class="highlight"
                role="img"
                aria-label="highlighted passage"
                style={{
                  left: `${(b.x0 / pageSize.width) * 100}%`,
                  top: `${(b.y0 / pageSize.height) * 100}%`,
                  width: `${((b.x1 - b.x0) / pageSize.width) * 100}%`,
                  height: `${((b.y1 - b.y0) / pageSize.height) * 100}%`,
                }}
              />
            );
          })}
      </div>
      <figcaption>{label}</figcaption>
    </figure>
  );
};

/** Format bytes for people. */
export const bytes = (n: number): string =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`;
