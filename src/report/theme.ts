/**
 * Visual constants shared by every plot (colours, font family, font sizes), chosen to resemble the papers'
 * figures (Guo et al. 2017 Fig. 1; the MbLS / ACLS reliability diagrams): blue "Outputs" bars with dark edges,
 * red hatched "Gap" bars, a dashed identity line. Plain constants: nothing here is mutable.
 */

/** Font fallback list: DejaVu Sans is installed on the machine resvg renders on; browsers fall back further. */
export const FONT_FAMILY = 'DejaVu Sans, Arial, Helvetica, sans-serif';

export const COLORS = {
  text: '#222222',
  muted: '#666666',
  axis: '#333333',
  grid: '#e5e5e5',
  outputs: '#4a7bd0',
  outputsEdge: '#1c3f7a',
  gap: '#e8413c',
  gapEdge: '#b8211d',
  diagonal: '#7a7a7a',
  histogram: '#4a7bd0',
  histogramEdge: '#1c3f7a',
  accuracyLine: '#222222',
  confidenceLine: '#d0302b',
  countStrip: '#4a7bd0',
  background: '#ffffff',
} as const;

export const FONT_SIZES = {
  figureTitle: 15,
  title: 13.5,
  subtitle: 11,
  axisLabel: 12.5,
  tick: 11,
  legend: 11,
  count: 10,
  annotation: 11,
} as const;

/**
 * Rough advance width of `text` at `fontSize` px in DejaVu Sans (digits 0.636 em, most letters ≈ 0.6 em,
 * spaces and punctuation narrower). Used only for layout decisions (does a label fit?), never for data.
 */
export function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') em += 0.636;
    else if (ch === ' ' || ch === '.' || ch === ',' || ch === ':' || ch === '(' || ch === ')') em += 0.33;
    else if (ch === 'i' || ch === 'l' || ch === 'j' || ch === 't' || ch === 'f' || ch === 'r') em += 0.36;
    else if (ch === 'm' || ch === 'w' || ch === 'M' || ch === 'W' || ch === '%') em += 0.95;
    else if (ch >= 'A' && ch <= 'Z') em += 0.7;
    else em += 0.6;
  }
  return em * fontSize;
}

/** Format a fraction as a percentage with `decimals` decimals ("12.34"); "n/a" for NaN. */
export function percent(fraction: number, decimals = 2): string {
  if (!Number.isFinite(fraction)) return 'n/a';
  const s = (fraction * 100).toFixed(decimals);
  return s === '-0' || /^-0\.0*$/.test(s) ? s.slice(1) : s;
}

/** A fraction as "12.34%" (with `decimals` decimals), or "n/a" for NaN (no "%" after it). */
export function percentLabel(fraction: number, decimals = 2): string {
  return Number.isFinite(fraction) ? `${percent(fraction, decimals)}%` : 'n/a';
}

/** Integer with comma thousands separators: 12345 → "12,345". */
export function formatCount(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Font size ≤ `preferred` at which `text` fits in `maxWidth` pixels (never below 8 px). Bold DejaVu Sans is
 * about 12 % wider than regular, and non-ASCII glyphs (τ, —) are estimated generously, so `bold` widens the estimate.
 */
export function fittedFontSize(text: string, preferred: number, maxWidth: number, bold = false): number {
  const w = textWidth(text, preferred) * (bold ? 1.15 : 1);
  return w <= maxWidth ? preferred : Math.max(8, Math.floor(((preferred * maxWidth) / w) * 10) / 10);
}

/** Colours of series in line charts (colour-blind-safe Okabe–Ito palette, black last). */
export const SERIES_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'] as const;

/**
 * Greedy word wrap of `text` into lines no wider than `maxWidth` at `fontSize` (bold widens the estimate as in
 * `fittedFontSize`); a single word wider than the line stays on a line of its own.
 */
export function wrapText(text: string, fontSize: number, maxWidth: number, bold = false): string[] {
  const k = bold ? 1.15 : 1;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && textWidth(candidate, fontSize) * k > maxWidth) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line !== '') lines.push(line);
  return lines.length ? lines : [''];
}
