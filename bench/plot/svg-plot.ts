// SPDX-License-Identifier: AGPL-3.0-or-later
/**
 * The benchmark pages' plots: small, dependency-free SVG. One line plot (log or linear axes: latency against
 * size or concurrency) and one bar chart (per-item values of a few series, e.g. time per page for three
 * converters), sharing the frame, the axis ticks and the legend. Pure functions: spec in, SVG text out.
 */

export interface Axis {
  label: string;
  log?: boolean;
  /** Range to show (default: the data's, padded). */
  min?: number;
  max?: number;
  /** Tick values (default: powers of ten on a log axis, five even steps otherwise). */
  ticks?: number[];
  /** Tick text (default: the number). */
  format?: (v: number) => string;
}

export interface LineSeries {
  label: string;
  color: string;
  points: Array<[number, number]>;
  dashed?: boolean;
}

export interface LinePlotSpec {
  title: string;
  x: Axis;
  y: Axis;
  series: LineSeries[];
  /** Horizontal reference lines (targets). */
  references?: Array<{ y: number; label: string }>;
  /** A last legend line (e.g. "solid p50, dashed p99"). */
  note?: string;
  width?: number;
  height?: number;
}

export interface BarSeries {
  label: string;
  color: string;
  /** One value per category, in `categories` order (undefined: no bar). */
  values: Array<number | undefined>;
}

export interface BarChartSpec {
  title: string;
  /** The groups, one per row (e.g. documents). */
  categories: string[];
  series: BarSeries[];
  /** The value axis (horizontal). */
  value: Axis;
  /** Text after each bar's value (e.g. " ms"). */
  unit?: string;
  note?: string;
  width?: number;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const num = (v: number): string => String(Math.round(v * 10) / 10);
const defaultFormat = (v: number): string =>
  Math.abs(v) >= 1000 ? v.toLocaleString('en') : String(Number(v.toPrecision(3)));

/** Round steps (1, 2 or 5 × 10^k) from `lo` to past `hi`, about five of them. */
const niceTicks = (lo: number, hi: number): number[] => {
  const raw = (hi - lo) / 5 || 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const first = Math.floor(lo / step) * step;
  const count = Math.ceil((hi - first) / step);
  return Array.from({ length: count + 1 }, (_, i) => Number((first + i * step).toPrecision(12)));
};

/** Maps values onto [from, to] pixels along one axis. */
const scale = (axis: Axis, values: number[], from: number, to: number) => {
  const t = (v: number): number => (axis.log ? Math.log10(Math.max(v, Number.MIN_VALUE)) : v);
  const data = values.map(t);
  const linearTicks =
    axis.log || axis.ticks ? undefined : niceTicks(axis.min ?? Math.min(...data), axis.max ?? Math.max(...data));
  const pad = axis.log ? 0.15 : (Math.max(...data) - Math.min(...data)) * 0.05 || 1;
  const lo = axis.min !== undefined ? t(axis.min) : linearTicks ? (linearTicks[0] as number) : Math.min(...data) - pad;
  const hi =
    axis.max !== undefined ? t(axis.max) : linearTicks ? (linearTicks.at(-1) as number) : Math.max(...data) + pad;
  const at = (v: number): number => from + ((t(v) - lo) / (hi - lo || 1)) * (to - from);
  const ticks =
    axis.ticks ??
    linearTicks ??
    Array.from({ length: Math.floor(hi) - Math.ceil(lo) + 1 }, (_, i) =>
      Number((10 ** (Math.ceil(lo) + i)).toPrecision(12)),
    );
  return { at, ticks, format: axis.format ?? defaultFormat };
};

const frame = (width: number, height: number, title: string): string[] => [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
  `<rect width="${width}" height="${height}" fill="white"/>`,
  `<text x="12" y="20" font-size="14">${esc(title)}</text>`,
];

const legend = (
  x: number,
  y: number,
  items: Array<{ label: string; color: string; dashed?: boolean }>,
  note?: string,
): string[] => {
  const out = items.flatMap((it, i) => {
    const ly = y + i * 22;
    return [
      `<line x1="${x}" x2="${x + 25}" y1="${ly}" y2="${ly}" stroke="${it.color}" stroke-width="${it.dashed === undefined ? 8 : 2}"${it.dashed ? ' stroke-dasharray="6,4"' : ''}/>`,
      `<text x="${x + 31}" y="${ly + 4}">${esc(it.label)}</text>`,
    ];
  });
  if (note) out.push(`<text x="${x}" y="${y + items.length * 22 + 4}" fill="#555">${esc(note)}</text>`);
  return out;
};

/** Lines over two axes (either may be logarithmic), with reference lines and a legend on the right. */
export const linePlot = (spec: LinePlotSpec): string => {
  const W = spec.width ?? 720,
    H = spec.height ?? 440,
    L = 70,
    R = 200,
    T = 34,
    B = 60;
  const xs = spec.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = [...spec.series.flatMap((s) => s.points.map((p) => p[1])), ...(spec.references ?? []).map((r) => r.y)];
  const x = scale(spec.x, xs, L, W - R);
  const y = scale(spec.y, ys, H - B, T);
  const parts = frame(W, H, spec.title);
  for (const v of y.ticks) {
    parts.push(
      `<line x1="${L}" x2="${W - R}" y1="${num(y.at(v))}" y2="${num(y.at(v))}" stroke="#ddd"/>`,
      `<text x="${L - 8}" y="${num(y.at(v) + 4)}" text-anchor="end">${esc(y.format(v))}</text>`,
    );
  }
  for (const v of spec.x.ticks ?? [...new Set(xs)].sort((a, b) => a - b)) {
    parts.push(
      `<line x1="${num(x.at(v))}" x2="${num(x.at(v))}" y1="${T}" y2="${H - B}" stroke="#eee"/>`,
      `<text x="${num(x.at(v))}" y="${H - B + 18}" text-anchor="middle">${esc(x.format(v))}</text>`,
    );
  }
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 15}" text-anchor="middle">${esc(spec.x.label)}</text>`);
  parts.push(
    `<text x="16" y="${(T + H - B) / 2}" transform="rotate(-90 16 ${(T + H - B) / 2})" text-anchor="middle">${esc(spec.y.label)}</text>`,
  );
  for (const r of spec.references ?? []) {
    parts.push(
      `<line x1="${L}" x2="${W - R}" y1="${num(y.at(r.y))}" y2="${num(y.at(r.y))}" stroke="#999" stroke-dasharray="2,4"/>`,
      `<text x="${L + 4}" y="${num(y.at(r.y) - 4)}" fill="#777" font-size="10">${esc(r.label)}</text>`,
    );
  }
  for (const s of spec.series) {
    const pts = s.points.map(([px, py]) => `${num(x.at(px))},${num(y.at(py))}`).join(' ');
    parts.push(
      `<polyline points="${pts}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6,4"' : ''}/>`,
    );
    for (const [px, py] of s.points)
      parts.push(`<circle cx="${num(x.at(px))}" cy="${num(y.at(py))}" r="3" fill="${s.color}"/>`);
  }
  const seen = new Map<string, LineSeries>();
  for (const s of spec.series) if (!seen.has(s.label)) seen.set(s.label, s);
  parts.push(
    ...legend(
      W - R + 15,
      T + 20,
      [...seen.values()].map((s) => ({ label: s.label, color: s.color, dashed: Boolean(s.dashed) })),
      spec.note,
    ),
    '</svg>',
  );
  return parts.join('\n') + '\n';
};

/** Horizontal grouped bars: one row group per category, one bar per series, the value printed at its end. */
export const barChart = (spec: BarChartSpec): string => {
  const bar = 16,
    gap = 4,
    groupGap = 18,
    L = 150,
    R = 210,
    T = 40,
    B = 50;
  const W = spec.width ?? 760;
  const groupH = spec.series.length * (bar + gap) + groupGap;
  const H = T + spec.categories.length * groupH + B;
  const values = spec.series.flatMap((s) => s.values.filter((v): v is number => v !== undefined));
  const v = scale({ ...spec.value, min: spec.value.min ?? (spec.value.log ? undefined : 0) }, values, L, W - R);
  const parts = frame(W, H, spec.title);
  for (const t of v.ticks) {
    parts.push(
      `<line x1="${num(v.at(t))}" x2="${num(v.at(t))}" y1="${T - 6}" y2="${H - B}" stroke="#e4e4e4"/>`,
      `<text x="${num(v.at(t))}" y="${H - B + 16}" text-anchor="middle">${esc(v.format(t))}</text>`,
    );
  }
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 14}" text-anchor="middle">${esc(spec.value.label)}</text>`);
  const origin = spec.value.log ? L : v.at(0);
  spec.categories.forEach((category, c) => {
    const top = T + c * groupH;
    parts.push(
      `<text x="${L - 8}" y="${num(top + (spec.series.length * (bar + gap)) / 2 + 2)}" text-anchor="end">${esc(category)}</text>`,
    );
    spec.series.forEach((s, i) => {
      const value = s.values[c];
      if (value === undefined) return;
      const y0 = top + i * (bar + gap);
      const end = v.at(value);
      parts.push(
        `<rect x="${num(origin)}" y="${y0}" width="${num(Math.max(1, end - origin))}" height="${bar}" fill="${s.color}"><title>${esc(`${s.label}: ${defaultFormat(value)}${spec.unit ?? ''}`)}</title></rect>`,
        `<text x="${num(end + 4)}" y="${y0 + bar - 4}" font-size="11">${esc(defaultFormat(value) + (spec.unit ?? ''))}</text>`,
      );
    });
  });
  parts.push(
    ...legend(
      W - R + 40,
      T + 4,
      spec.series.map((s) => ({ label: s.label, color: s.color })),
    ),
    ...(spec.note
      ? [
          `<text x="${W - R + 40}" y="${T + 4 + spec.series.length * 22 + 4}" fill="#555" font-size="11">${esc(spec.note)}</text>`,
        ]
      : []),
    '</svg>',
  );
  return parts.join('\n') + '\n';
};
