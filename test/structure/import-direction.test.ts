import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Import direction of src/ (issue 15, item 6 "Layering enforced"): every relative import or re-export in
 * src/**\/*.ts (type-only and dynamic `import('…')` included) must point from a higher layer to a lower one.
 * The layers are the top-level folders of src/ (and, inside src/engine, its sub-folders); a folder may import from
 * folders in EARLIER tiers only, never from a later tier nor from another folder of its own tier. Imports inside
 * one folder are free (except between the engine's sub-folders). Any exception is listed below, file to file,
 * with its reason; an exception that no import uses any more fails the test too.
 */

/** Top-level folders of src/, lowest tier first ('index.ts' is src/index.ts, the package façade). */
const SRC_TIERS: readonly (readonly string[])[] = [
  ['util'],
  ['engine', 'io', 'metrics'],
  ['nn', 'optim', 'losses', 'posthoc', 'report', 'data'],
  ['augment', 'deploy'],
  ['train'],
  ['suite'],
  ['cli'],
  ['index.ts'],
];

/** Inside src/engine: sub-folders (and the files directly in engine/) lowest tier first. */
const ENGINE_TIERS: readonly (readonly string[])[] = [['ir'], ['reference', 'onnx'], ['ops'], ['autodiff'], ['trace.ts', 'flat-layout.ts'], ['runtime', 'testing'], ['index.ts']];

/** Imports allowed against the order (file → file, paths from the repository root), each with its reason. */
const EXCEPTIONS: readonly Exception[] = [
  {
    from: 'src/engine/ir/tensor.ts',
    to: 'src/engine/ops/functional.ts',
    reason: 'Tensor methods (x.add(y) ≡ add(x, y)) delegate to the op functions, which build Tensors (the one cycle issue 15 allows)',
  },
  {
    from: 'src/metrics/calibration-refinement.ts',
    to: 'src/posthoc/temperature/brier-temperature.ts',
    reason:
      "the calibration–refinement metrics (issue 25 item 5) recalibrate the evaluated rows with the calibrators' own solvers (one definition of exact TS, Brier TS and isotonic fits, not a copy in metrics/)",
  },
  {
    from: 'src/metrics/calibration-refinement.ts',
    to: 'src/posthoc/fit-error.ts',
    reason:
      "the calibration–refinement metrics (issue 25 item 5) recalibrate the evaluated rows with the calibrators' own solvers (one definition of exact TS, Brier TS and isotonic fits, not a copy in metrics/)",
  },
  {
    from: 'src/metrics/calibration-refinement.ts',
    to: 'src/posthoc/nonparametric/isotonic.ts',
    reason:
      "the calibration–refinement metrics (issue 25 item 5) recalibrate the evaluated rows with the calibrators' own solvers (one definition of exact TS, Brier TS and isotonic fits, not a copy in metrics/)",
  },
  {
    from: 'src/metrics/calibration-refinement.ts',
    to: 'src/posthoc/temperature/temperature.ts',
    reason:
      "the calibration–refinement metrics (issue 25 item 5) recalibrate the evaluated rows with the calibrators' own solvers (one definition of exact TS, Brier TS and isotonic fits, not a copy in metrics/)",
  },
];

interface Exception {
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

interface LayerRules {
  readonly tiers: readonly (readonly string[])[];
  /** Tiers inside a top-level folder (keyed by folder), for folders whose sub-folders are ordered too. */
  readonly inner: Readonly<Record<string, readonly (readonly string[])[]>>;
  readonly exceptions: readonly Exception[];
}

const RULES: LayerRules = { tiers: SRC_TIERS, inner: { engine: ENGINE_TIERS }, exceptions: EXCEPTIONS };

/**
 * Module specifiers of the static imports and re-exports (`import … from '…'`, `import type …`, `export … from '…'`,
 * `import '…'`) and dynamic imports (`import('…')`) of a TypeScript source. A static clause must start a line and hold
 * only names, braces, commas, `*`, `as` and `type` before `from`, so code and doc comments are not mistaken for one.
 */
function importSpecifiers(text: string): string[] {
  const found: { at: number; spec: string }[] = [];
  const patterns = [/^[ \t]*(?:import|export)\s+[\w$\s{},*]*?\bfrom\s*['"]([^'"\n]+)['"]/gm, /^[ \t]*import\s*['"]([^'"\n]+)['"]/gm, /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of text.matchAll(re)) found.push({ at: m.index!, spec: m[1]! });
  return found.sort((a, b) => a.at - b.at).map((f) => f.spec);
}

/** The source file a relative specifier of `from` names (`./x.js` → `x.ts`); null for packages and node: modules. */
function resolveSpecifier(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  return posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, '.ts');
}

/** Tier of `name` in `tiers`, or −1 when the table does not list it. */
function tierOf(tiers: readonly (readonly string[])[], name: string): number {
  return tiers.findIndex((tier) => tier.includes(name));
}

/**
 * Every import of `files` (path from the repository root, 'src/…' → source text) that goes against `rules`, as
 * readable lines; also exceptions that match no import. Targets outside src/ are not checked.
 */
function importViolations(files: ReadonlyMap<string, string>, rules: LayerRules): string[] {
  const violations: string[] = [];
  const used = new Set<Exception>();
  const check = (tiers: readonly (readonly string[])[], what: string, a: string, b: string): string | null => {
    const ta = tierOf(tiers, a);
    const tb = tierOf(tiers, b);
    if (ta < 0 || tb < 0) return `${ta < 0 ? a : b} is in no tier of the ${what} table`;
    return tb < ta ? null : `${a} may not depend on ${b} (${what} tiers: ${b} is ${tb === ta ? 'in the same tier as' : 'above'} ${a})`;
  };
  for (const [from, text] of files) {
    for (const spec of importSpecifiers(text)) {
      const to = resolveSpecifier(from, spec);
      if (to === null || !to.startsWith('src/')) continue;
      const [, topA = '', subA = ''] = from.split('/');
      const [, topB = '', subB = ''] = to.split('/');
      let problem: string | null = null;
      if (topA !== topB) problem = check(rules.tiers, 'src', topA, topB);
      else if (rules.inner[topA] && subA !== subB) problem = check(rules.inner[topA]!, topA, subA, subB);
      if (problem === null) continue;
      const exception = rules.exceptions.find((e) => e.from === from && e.to === to);
      if (exception) used.add(exception);
      else violations.push(`${from} imports '${spec}': ${problem}`);
    }
  }
  for (const e of rules.exceptions) if (!used.has(e)) violations.push(`exception ${e.from} → ${e.to} matches no import against the order: remove it`);
  return violations;
}

/** src/**\/*.ts of this checkout (the test runs from dist/test/structure). */
function readSources(): Map<string, string> {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const files = new Map<string, string>();
  for (const entry of readdirSync(posix.join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
    const full = posix.join(entry.parentPath, entry.name);
    files.set(posix.relative(root, full), readFileSync(full, 'utf8'));
  }
  return files;
}

test('import direction: every import in src/ goes down the layer order (or is a listed exception)', () => {
  const files = readSources();
  assert.ok(files.size > 100 && files.has('src/index.ts'), `read ${files.size} files of src/`);
  assert.deepEqual(importViolations(files, RULES), []);
});

test('import direction: every top-level folder of src/ and sub-folder of src/engine is in the tables', () => {
  const files = readSources();
  const top = new Set([...files.keys()].map((p) => p.split('/')[1]!));
  const engine = new Set([...files.keys()].filter((p) => p.startsWith('src/engine/')).map((p) => p.split('/')[2]!));
  assert.deepEqual(
    [...top].filter((n) => tierOf(SRC_TIERS, n) < 0),
    [],
  );
  assert.deepEqual(
    [...engine].filter((n) => tierOf(ENGINE_TIERS, n) < 0),
    [],
  );
});

test('importSpecifiers: static, type-only, re-export, side-effect and dynamic imports; not comments or strings', () => {
  const text = [
    "import { a, type B } from './a.js';",
    "import type { C } from '../c/c.js';",
    'import * as F from "./f.js";',
    'import D, {',
    '  e as E,',
    "} from './d.js';",
    "export { g } from './g.js';",
    "export * as h from '../h/index.js';",
    "export type { I } from './i.js';",
    "import './side-effect.js';",
    "const m = await import('../m/m.js');",
    "import { readFileSync } from 'node:fs';",
    ' * import { trace } from "../doc/example.js";',
    'const s = \'import { x } from "./not-an-import.js"\';',
    "export const t = { a: 1 }; // from './nor-this.js'",
  ].join('\n');
  assert.deepEqual(importSpecifiers(text), ['./a.js', '../c/c.js', './f.js', './d.js', './g.js', '../h/index.js', './i.js', './side-effect.js', '../m/m.js', 'node:fs']);
});

test('importViolations: a forbidden import fails, allowed ones and listed exceptions pass', () => {
  const rules: LayerRules = {
    tiers: [['util'], ['engine', 'metrics'], ['posthoc'], ['index.ts']],
    inner: { engine: [['ir'], ['ops'], ['index.ts']] },
    exceptions: [{ from: 'src/engine/ir/tensor.ts', to: 'src/engine/ops/functional.ts', reason: 'test' }],
  };
  const ok = new Map([
    ['src/index.ts', "export * as posthoc from './posthoc/index.js';"],
    ['src/posthoc/fit.ts', "import { ece } from '../metrics/fake-ece.js';\nimport type { M } from '../util/matrix.js';"],
    ['src/metrics/fake-ece.ts', "import { bins } from './binning.js';\nimport { invalidArgument } from '../util/errors.js';"],
    ['src/engine/ops/fake-add.ts', "import { Tensor } from '../ir/tensor.js';"],
    ['src/engine/ir/tensor.ts', "import * as F from '../ops/functional.js';"],
    ['src/engine/index.ts', "export { add } from './ops/fake-add.js';"],
  ]);
  assert.deepEqual(importViolations(ok, rules), []);

  const bad = new Map(ok);
  bad.set('src/metrics/corp.ts', "import type { Calibrator } from '../posthoc/fit.js';"); // up a tier (type-only)
  bad.set('src/engine/ops/fake-mul.ts', "import { x } from '../../metrics/fake-ece.js';"); // same tier
  bad.set('src/engine/ir/shape.ts', "import { add } from '../ops/fake-add.js';"); // up inside engine, not the listed file
  bad.set('src/report/plot.ts', "import { ece } from '../metrics/fake-ece.js';"); // a folder the table does not list
  bad.set('src/metrics/fake-sub/corp.ts', "import { fit } from '../../posthoc/fit.js';"); // a sub-folder is its layer's
  assert.deepEqual(importViolations(bad, rules), [
    "src/metrics/corp.ts imports '../posthoc/fit.js': metrics may not depend on posthoc (src tiers: posthoc is above metrics)",
    "src/engine/ops/fake-mul.ts imports '../../metrics/fake-ece.js': engine may not depend on metrics (src tiers: metrics is in the same tier as engine)",
    "src/engine/ir/shape.ts imports '../ops/fake-add.js': ir may not depend on ops (engine tiers: ops is above ir)",
    "src/report/plot.ts imports '../metrics/fake-ece.js': report is in no tier of the src table",
    "src/metrics/fake-sub/corp.ts imports '../../posthoc/fit.js': metrics may not depend on posthoc (src tiers: posthoc is above metrics)",
  ]);

  const stale = new Map(ok);
  stale.set('src/engine/ir/tensor.ts', "import type { Shape } from './shape.js';");
  assert.deepEqual(importViolations(stale, rules), ['exception src/engine/ir/tensor.ts → src/engine/ops/functional.ts matches no import against the order: remove it']);
});
