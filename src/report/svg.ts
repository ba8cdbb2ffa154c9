import { describe, invalidArgument } from '../util/errors.js';

/**
 * A tiny SVG builder: elements are plain immutable trees (`SvgElement`), serialised by `renderSvg`.
 * Text and attribute values are XML-escaped; numbers are rounded to `SVG_DECIMALS` decimals with trailing zeros
 * removed (so output is compact and byte-for-byte reproducible). No DOM, no dependency.
 */

/** An attribute value; `undefined`, `null` and `false` omit the attribute, `true` writes `name="name"`. */
export type SvgAttributeValue = string | number | boolean | null | undefined;
export type SvgAttributes = Readonly<Record<string, SvgAttributeValue>>;
/** A child is an element, a text node (escaped on output), or nothing (skipped: lets callers write `cond && el(...)`). */
export type SvgChild = SvgElement | string | null | undefined | false;

export interface SvgElement {
  readonly tag: string;
  readonly attributes: SvgAttributes;
  readonly children: readonly (SvgElement | string)[];
}

/** Decimals kept when numbers are written into attributes or text. */
export const SVG_DECIMALS = 3;

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;

/** Escape `&`, `<`, `>`, `"` and `'` for XML text and attribute values; drops characters XML 1.0 forbids. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Format a finite number with at most `decimals` decimals, no trailing zeros, no exponent, and no "-0".
 * Throws for NaN and ±Infinity (an SVG coordinate that is not a number is always a bug upstream).
 */
export function formatNumber(value: number, decimals: number = SVG_DECIMALS): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) invalidArgument('value', 'a finite number', describe(value));
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 12) invalidArgument('decimals', 'an integer in [0, 12]', describe(decimals));
  let s = value.toFixed(decimals);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** Create an element. Attribute and tag names are checked; children that are null/undefined/false are dropped. */
export function el(tag: string, attributes: SvgAttributes = {}, ...children: SvgChild[]): SvgElement {
  if (typeof tag !== 'string' || !NAME.test(tag)) invalidArgument('tag', 'an XML name', describe(tag));
  for (const name of Object.keys(attributes)) {
    if (!NAME.test(name)) invalidArgument(`attributes of <${tag}>`, 'XML attribute names', describe(name));
  }
  const kept: (SvgElement | string)[] = [];
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    kept.push(child);
  }
  return { tag, attributes, children: kept };
}

/** Serialise one attribute value (numbers rounded, strings escaped). Returns null to omit it. */
function attributeText(tag: string, name: string, value: SvgAttributeValue): string | null {
  if (value === undefined || value === null || value === false) return null;
  if (value === true) return name;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) invalidArgument(`<${tag} ${name}>`, 'a finite number', describe(value));
    return formatNumber(value);
  }
  return escapeXml(value);
}

/** Serialise an element tree to XML text (no declaration). Elements without children are self-closed. */
export function renderSvg(node: SvgElement | string): string {
  const out: string[] = [];
  const walk = (n: SvgElement | string): void => {
    if (typeof n === 'string') {
      out.push(escapeXml(n));
      return;
    }
    out.push('<', n.tag);
    for (const [name, value] of Object.entries(n.attributes)) {
      const text = attributeText(n.tag, name, value);
      if (text !== null) out.push(' ', name, '="', text, '"');
    }
    if (n.children.length === 0) {
      out.push('/>');
      return;
    }
    out.push('>');
    for (const c of n.children) walk(c);
    out.push('</', n.tag, '>');
  };
  walk(node);
  return out.join('');
}

/**
 * A complete standalone SVG document of `width` × `height` user units (= CSS px), with a white background,
 * an accessible `<title>`, and the given children. Returns the serialised text (with XML declaration).
 */
export function svgDocument(width: number, height: number, options: { title?: string; fontFamily?: string; background?: string }, ...children: SvgChild[]): string {
  if (!Number.isFinite(width) || width <= 0) invalidArgument('width', 'a positive number', describe(width));
  if (!Number.isFinite(height) || height <= 0) invalidArgument('height', 'a positive number', describe(height));
  const root = el(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width,
      height,
      viewBox: `0 0 ${formatNumber(width)} ${formatNumber(height)}`,
      'font-family': options.fontFamily,
    },
    options.title !== undefined && el('title', {}, options.title),
    options.background !== undefined && el('rect', { x: 0, y: 0, width, height, fill: options.background }),
    ...children,
  );
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + renderSvg(root) + '\n';
}

/** `translate(x, y)` transform attribute text. */
export function translate(x: number, y: number): string {
  return `translate(${formatNumber(x)} ${formatNumber(y)})`;
}
