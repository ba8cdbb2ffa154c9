/**
 * Test-only: a tiny, strict XML parser used to check that generated SVG is well-formed (balanced tags, quoted
 * attributes, no raw `<` or stray `&`, one root) and to query the resulting tree. Not a full XML implementation:
 * no DTDs, CDATA or processing instructions other than the leading declaration.
 */
export interface XmlElement {
  readonly tag: string;
  readonly attributes: Record<string, string>;
  readonly children: (XmlElement | string)[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string, where: number): string {
  return text.replace(/&([^;\s&<]*);|&/g, (match, name: string | undefined) => {
    if (name === undefined) throw new Error(`stray '&' near offset ${where}`);
    if (name in ENTITIES) return ENTITIES[name]!;
    const m = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(name);
    if (m) return String.fromCodePoint(m[1]!.startsWith('x') ? parseInt(m[1]!.slice(1), 16) : parseInt(m[1]!, 10));
    throw new Error(`unknown entity ${match} near offset ${where}`);
  });
}

/** Parse `xml`; throws an Error describing the first well-formedness violation. */
export function parseXml(xml: string): XmlElement {
  let i = 0;
  const skipSpace = (): void => {
    while (i < xml.length && /\s/.test(xml[i]!)) i++;
  };
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) throw new Error('unterminated XML declaration');
    i = end + 2;
  }
  skipSpace();
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const name = /^[A-Za-z_][A-Za-z0-9_.:-]*/;
  while (i < xml.length) {
    if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i + 4);
      if (end < 0) throw new Error('unterminated comment');
      i = end + 3;
      continue;
    }
    if (xml[i] === '<' && xml[i + 1] === '/') {
      const m = name.exec(xml.slice(i + 2));
      if (!m) throw new Error(`bad closing tag at ${i}`);
      const open = stack.pop();
      if (!open || open.tag !== m[0]) throw new Error(`closing </${m[0]}> does not match <${open?.tag ?? 'nothing'}> at ${i}`);
      i += 2 + m[0].length;
      skipSpace();
      if (xml[i] !== '>') throw new Error(`expected '>' at ${i}`);
      i++;
      continue;
    }
    if (xml[i] === '<') {
      const m = name.exec(xml.slice(i + 1));
      if (!m) throw new Error(`bad tag name at ${i}`);
      i += 1 + m[0].length;
      const element: XmlElement = { tag: m[0], attributes: {}, children: [] };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else if (root === null) root = element;
      else throw new Error(`second root element <${m[0]}> at ${i}`);
      for (;;) {
        const before = i;
        skipSpace();
        if (xml[i] === '/' && xml[i + 1] === '>') {
          i += 2;
          break;
        }
        if (xml[i] === '>') {
          i++;
          stack.push(element);
          break;
        }
        if (i === before) throw new Error(`expected whitespace before attribute at ${i}`);
        const a = name.exec(xml.slice(i));
        if (!a) throw new Error(`bad attribute name at ${i}`);
        i += a[0].length;
        if (xml[i] !== '=' || xml[i + 1] !== '"') throw new Error(`attribute ${a[0]} must be ="..." at ${i}`);
        const end = xml.indexOf('"', i + 2);
        if (end < 0) throw new Error('unterminated attribute value');
        const raw = xml.slice(i + 2, end);
        if (raw.includes('<')) throw new Error(`raw '<' in attribute ${a[0]}`);
        if (a[0] in element.attributes) throw new Error(`duplicate attribute ${a[0]}`);
        element.attributes[a[0]] = decode(raw, i);
        i = end + 1;
      }
      continue;
    }
    const next = xml.indexOf('<', i);
    const end = next < 0 ? xml.length : next;
    const text = xml.slice(i, end);
    if (stack.length === 0) {
      if (text.trim() !== '') throw new Error(`text outside the root element at ${i}`);
    } else {
      stack[stack.length - 1]!.children.push(decode(text, i));
    }
    i = end;
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1]!.tag}>`);
  if (root === null) throw new Error('no root element');
  return root;
}

/** All elements (depth-first, document order) satisfying `predicate`. */
export function findAll(root: XmlElement, predicate: (e: XmlElement) => boolean): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement): void => {
    if (predicate(e)) out.push(e);
    for (const c of e.children) if (typeof c !== 'string') walk(c);
  };
  walk(root);
  return out;
}

/** Elements whose class attribute contains `cls`. */
export function byClass(root: XmlElement, cls: string): XmlElement[] {
  return findAll(root, (e) => (e.attributes['class'] ?? '').split(/\s+/).includes(cls));
}

/** Concatenated text of an element, excluding `<title>` tooltips of descendants. */
export function textOf(e: XmlElement): string {
  return e.children.map((c) => (typeof c === 'string' ? c : c.tag === 'title' ? '' : textOf(c))).join('');
}

/** Numeric attribute (throws if missing or not a number). */
export function num(e: XmlElement, attribute: string): number {
  const v = e.attributes[attribute];
  if (v === undefined) throw new Error(`<${e.tag}> has no ${attribute}`);
  const x = Number(v);
  if (!Number.isFinite(x)) throw new Error(`<${e.tag} ${attribute}="${v}"> is not a number`);
  return x;
}
