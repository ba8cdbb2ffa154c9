/**
 * Plain-text tables for terminal output: columns padded to their widest cell, the first column left-aligned and
 * the others right-aligned (numbers), a rule under the header.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, k) => (k === 0 ? cell.padEnd(widths[k]!) : cell.padStart(widths[k]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n';
}

/** A fraction as a percentage with `digits` decimals ("12.34"); NaN prints as "n/a". */
export function percent(value: number, digits = 2): string {
  return Number.isFinite(value) ? (value * 100).toFixed(digits) : 'n/a';
}

/** A plain number with `digits` decimals; NaN prints as "n/a". */
export function fixed(value: number, digits = 4): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

/** `text` broken at spaces into lines of at most `width` characters (a longer word stands on its own line). */
export function wrapText(text: string, width = 115): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w.length > 0)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line.length > 0 ? `${line} ${word}` : word;
  }
  if (line.length > 0) lines.push(line);
  return lines.join('\n');
}
