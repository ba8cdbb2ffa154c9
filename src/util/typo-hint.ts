/**
 * Typo hints for names: the known names a mistyped one was probably meant to be ("did you mean fashion-mnist?").
 * Two names are close when they have the same letters up to case and the separators `-` / `_`, or when their
 * optimal-string-alignment distance (Damerau–Levenshtein restricted to adjacent transpositions: insertion,
 * deletion, substitution, swap of two neighbours, each costing 1) is small for the name's length: at most 1 for
 * names of 3–5 characters, 2 from 6 on, none below 3 (`v3` is not a typo of `v1`) — `fashion-mnsit` is 1 from
 * `fashion-mnist`. Used by option schemas (util/schema.ts), name registries (util/registry.ts) and the CLI's
 * `choices` flags (cli/args.ts).
 */

/** Lower case without `-` and `_`: how names are compared. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** Optimal-string-alignment distance between `a` and `b` (insert, delete, substitute, swap neighbours: 1 each). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The largest distance at which a name of `length` characters counts as a typo (see the module comment). */
function tolerance(length: number): number {
  return length < 3 ? 0 : Math.min(2, Math.max(1, Math.floor(length / 3)));
}

/** The names of `known` close to `value` (see the module comment), nearest first, ties in `known`'s order. */
export function closeNames(value: string, known: readonly string[]): string[] {
  const v = normalise(value);
  const maxDistance = tolerance(v.length);
  return known
    .map((name, index) => ({ name, index, distance: editDistance(normalise(name), v) }))
    .filter((c) => c.distance <= maxDistance)
    .sort((x, y) => x.distance - y.distance || x.index - y.index)
    .map((c) => c.name);
}

/** ` (did you mean a, b?)` for the names of `known` close to `value`, or '' when none is. */
export function didYouMean(value: unknown, known: readonly string[], format: (name: string) => string = (name) => name): string {
  if (typeof value !== 'string') return '';
  const close = closeNames(value, known);
  return close.length ? ` (did you mean ${close.map(format).join(', ')}?)` : '';
}
