/**
 * The PDFs' charts as SVG strings made from the numbers (pdfmake draws an `{svg}` node with its own SVG
 * renderer, no browser): stacked bars over time, grouped bars of two series, and a horizontal share bar. Text in
 * them is set in the document's font (Roboto), so umlauts come out right.
 */

export const COLORS = {
  allowed: '#2f9e44',
  blocked: '#e03131',
  previous: '#adb5bd',
  pass: '#2f9e44',
  warn: '#f08c00',
  fail: '#e03131',
  grid: '#dee2e6',
  axis: '#495057',
} as const;

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A round upper bound of the axis (1, 2 or 5 times a power of ten) and its four steps. */
export function axisMax(max: number): number {
  if (max <= 0) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const top = step * magnitude;
    if (top >= max && Number.isInteger(top / 4)) return top;
  }
  return Math.ceil(max / 4) * 4;
}

export interface BarSeries {
  name: string;
  color: string;
  values: number[];
}

interface ChartOptions {
  width: number;
  height: number;
  /** A label under each bar; every n-th is shown so they do not overlap. */
  labels: string[];
  format: (value: number) => string;
}

function frame(options: ChartOptions, series: BarSeries[], max: number) {
  const { width, height, format } = options;
  const left = 48;
  const right = 8;
  const top = 22;
  const bottom = 22;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const parts: string[] = [];
  for (let i = 0; i <= 4; i += 1) {
    const y = top + plotHeight - (plotHeight * i) / 4;
    parts.push(
      `<line x1="${left}" y1="${y}" x2="${width - right}" y2="${y}" stroke="${COLORS.grid}" stroke-width="0.5"/>`,
      `<text x="${left - 4}" y="${y + 3}" font-size="7" text-anchor="end" fill="${COLORS.axis}">${escapeXml(format((max * i) / 4))}</text>`,
    );
  }
  let legendX = left;
  for (const s of series) {
    parts.push(
      `<rect x="${legendX}" y="4" width="8" height="8" fill="${s.color}"/>`,
      `<text x="${legendX + 11}" y="11" font-size="8" fill="${COLORS.axis}">${escapeXml(s.name)}</text>`,
    );
    legendX += 18 + s.name.length * 4.6;
  }
  return { left, top, plotWidth, plotHeight, parts };
}

function xLabels(options: ChartOptions, left: number, slot: number, baseline: number): string[] {
  const every = Math.max(1, Math.ceil((options.labels.length * 38) / (options.width - left)));
  return options.labels.flatMap((label, i) =>
    i % every === 0
      ? [
          `<text x="${left + slot * i + slot / 2}" y="${baseline + 12}" font-size="7" text-anchor="middle" fill="${COLORS.axis}">${escapeXml(label)}</text>`,
        ]
      : [],
  );
}

const svg = (width: number, height: number, parts: string[]) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;

/** Bars over time, the series stacked bottom first (allowed below blocked). */
export function stackedBarChart(options: ChartOptions, series: BarSeries[]): string {
  const count = options.labels.length;
  const totals = options.labels.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = axisMax(Math.max(0, ...totals));
  const { left, top, plotWidth, plotHeight, parts } = frame(options, series, max);
  const slot = plotWidth / Math.max(1, count);
  const barWidth = Math.max(0.5, slot * 0.8);
  const baseline = top + plotHeight;
  for (let i = 0; i < count; i += 1) {
    let y = baseline;
    for (const s of series) {
      const h = (plotHeight * (s.values[i] ?? 0)) / max;
      if (h <= 0) continue;
      y -= h;
      parts.push(
        `<rect x="${(left + slot * i + (slot - barWidth) / 2).toFixed(2)}" y="${y.toFixed(2)}" width="${barWidth.toFixed(2)}" height="${h.toFixed(2)}" fill="${s.color}"/>`,
      );
    }
  }
  parts.push(...xLabels(options, left, slot, baseline));
  return svg(options.width, options.height, parts);
}

/** Bars side by side per label (this week next to the week before). */
export function groupedBarChart(options: ChartOptions, series: BarSeries[]): string {
  const count = options.labels.length;
  const max = axisMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const { left, top, plotWidth, plotHeight, parts } = frame(options, series, max);
  const slot = plotWidth / Math.max(1, count);
  const barWidth = (slot * 0.8) / Math.max(1, series.length);
  const baseline = top + plotHeight;
  for (let i = 0; i < count; i += 1) {
    series.forEach((s, j) => {
      const h = (plotHeight * (s.values[i] ?? 0)) / max;
      if (h <= 0) return;
      const x = left + slot * i + slot * 0.1 + barWidth * j;
      parts.push(
        `<rect x="${x.toFixed(2)}" y="${(baseline - h).toFixed(2)}" width="${barWidth.toFixed(2)}" height="${h.toFixed(2)}" fill="${s.color}"/>`,
      );
    });
  }
  parts.push(...xLabels(options, left, slot, baseline));
  return svg(options.width, options.height, parts);
}

/** One horizontal bar split into shares (passed, warned, failed), each with its count written under it. */
export function shareBar(width: number, shares: { label: string; value: number; color: string }[]): string {
  const height = 34;
  const total = shares.reduce((sum, s) => sum + s.value, 0);
  const parts: string[] = [];
  let x = 0;
  for (const share of shares) {
    if (share.value <= 0 || total === 0) continue;
    const w = (width * share.value) / total;
    parts.push(
      `<rect x="${x.toFixed(2)}" y="0" width="${w.toFixed(2)}" height="14" fill="${share.color}"/>`,
      `<text x="${(x + 2).toFixed(2)}" y="26" font-size="8" fill="${COLORS.axis}">${escapeXml(`${share.label}: ${share.value}`)}</text>`,
    );
    x += w;
  }
  if (total === 0) parts.push(`<rect x="0" y="0" width="${width}" height="14" fill="${COLORS.grid}"/>`);
  return svg(width, height, parts);
}
