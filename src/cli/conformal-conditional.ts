/**
 * `calib conformal --class-conditional` and `--groups FILE`: one conformal threshold per true class or per group
 * (metrics/mondrian-conformal.ts), with coverage and mean set size per class / group on the test rows, and a
 * warning per class / group whose calibration rows are too few for α (its threshold is infinite).
 */
import {
  fitMondrianConformal,
  minimumCalibrationRows,
  mondrianConformalMetrics,
  type ConformalMethod,
  type MondrianConformalMetrics,
  type MondrianConformalPredictor,
  type MondrianTaxonomy,
} from '../metrics/index.js';
import type { Matrix } from '../util/matrix.js';
import type { Flag } from './flag.js';
import type { CliIO } from './command.js';
import { formatTable, percent } from './format-table.js';
import { flag } from './flag.js';
import { boolean, described, number, optional, string } from '../util/schema.js';

export const CONDITIONAL_CONFORMAL_FLAGS = {
  'class-conditional': flag(optional(boolean(), false, 'one threshold per true class (label-conditional / Mondrian conformal): coverage ≥ 1 − α within every class')),
  groups: flag(described(optional(string()), 'one group id per row of --logits/--probs (as calib eval --groups reads them): one threshold per group'), { valueName: 'FILE' }),
  'calib-groups': flag(described(optional(string()), 'with --groups and --calib-* files: the group ids of the calibration rows'), { valueName: 'FILE' }),
  'min-cell-size': flag(
    described(optional(number({ integer: true })), "with --class-conditional --groups: smallest group × class cell with its own threshold (default ⌈1/α⌉ − 1); smaller cells use the class's"),
    { valueName: 'K' },
  ),
} as const satisfies Record<string, Flag>;

export const CONDITIONAL_CONFORMAL_DESCRIPTION = [
  '--class-conditional: one threshold q̂_k per class k from the calibration rows of true class k (label-conditional',
  "conformal, Vovk's Mondrian taxonomy by label); the set is {k : s(x, k) ≤ q̂_k} and covers each class with",
  'probability ≥ 1 − α. --groups FILE: one threshold per group (ids read as calib eval --groups reads them; with',
  "--calib-* files, --calib-groups FILE gives the calibration rows' groups); the set of a row uses its group's q̂ and",
  'covers each group with probability ≥ 1 − α. Coverage and mean set size are reported per class / group on the test',
  'rows. A class / group with fewer than ⌈1/α⌉ − 1 calibration rows (or none) gets no finite threshold: the class is',
  "then in every set (its group's sets hold every class); each is named in a warning.",
  '--class-conditional --groups FILE: one threshold q̂_{g,k} per group × true class cell (the Mondrian taxonomy (group, label));',
  'the set of a row of group g is {k : s(x, k) ≤ q̂_{g,k}}, and P(y ∈ C(x) | group g, y = k) ≥ 1 − α in every cell with its own',
  'threshold. A cell with fewer than --min-cell-size K calibration rows (default and minimum: the ⌈1/α⌉ − 1 a finite q̂ needs)',
  "uses the class-conditional q̂_k of all groups' rows of class k instead: its rows keep no within-cell guarantee (q̂_k's is for",
  'class k over all groups); those cells are counted in a warning and marked in the table / JSON (fallback).',
].join('\n');

export interface ConditionalInputs {
  readonly taxonomy: MondrianTaxonomy;
  readonly cal: Matrix;
  readonly calLabels: Int32Array;
  readonly test: Matrix;
  readonly testLabels: Int32Array;
  /** With taxonomy 'group': the group id of every calibration / test row, and the display order of the ids. */
  readonly calGroups?: readonly string[];
  readonly testGroups?: readonly string[];
  readonly groupOrder?: readonly string[];
}

interface ConditionalSettings {
  methods: readonly ConformalMethod[];
  alpha: number;
  lambda: number;
  kReg: number;
  json: boolean;
  header: Record<string, unknown>;
  heading: string;
  /** 'group-class': smallest cell with its own threshold. */
  minCellSize?: number | undefined;
}

/** Fit and report the class-, group- or group × class-conditional sets of every method; writes the table or JSON. */
export function runConditionalConformal(inputs: ConditionalInputs, settings: ConditionalSettings, io: CliIO): void {
  const { taxonomy, cal, calLabels, test, testLabels } = inputs;
  const { alpha } = settings;
  let ids: string[];
  let calIndex: Int32Array | undefined;
  let testIndex: Int32Array | undefined;
  let groupIds: string[] = [];
  if (taxonomy !== 'class') {
    groupIds = [...new Set([...(inputs.groupOrder ?? []), ...inputs.calGroups!, ...inputs.testGroups!])];
    const position = new Map(groupIds.map((id, k) => [id, k]));
    calIndex = Int32Array.from(inputs.calGroups!, (id) => position.get(id)!);
    testIndex = Int32Array.from(inputs.testGroups!, (id) => position.get(id)!);
  }
  const classIds = Array.from({ length: cal.cols }, (_, k) => String(k));
  ids = taxonomy === 'class' ? classIds : taxonomy === 'group' ? groupIds : groupIds.flatMap((g) => classIds.map((k) => `${g} × class ${k}`));
  const results = settings.methods.map((method) => {
    const options = { method, alpha, lambda: settings.lambda, kReg: settings.kReg };
    const predictor =
      taxonomy === 'class'
        ? fitMondrianConformal(cal, calLabels, { ...options, taxonomy })
        : taxonomy === 'group'
          ? fitMondrianConformal(cal, calLabels, { ...options, taxonomy, groups: calIndex!, groupCount: groupIds.length })
          : fitMondrianConformal(cal, calLabels, {
              ...options,
              taxonomy,
              groups: calIndex!,
              groupCount: groupIds.length,
              ...(settings.minCellSize !== undefined && { minCellSize: settings.minCellSize }),
            });
    return { method, predictor, metrics: mondrianConformalMetrics(test, testLabels, predictor, testIndex) };
  });
  const needed = minimumCalibrationRows(alpha);
  if (taxonomy === 'group-class') return writeCells(ids, results, alpha, settings, io);
  const word = taxonomy === 'class' ? 'class' : 'group';
  const name = (id: string): string => (taxonomy === 'class' ? `class ${id}` : `group ${JSON.stringify(id)}`);
  const counts = results[0]!.predictor.counts;
  const tooFew = ids.filter((_, c) => counts[c]! < needed);
  const shown = tooFew.slice(0, 10);
  for (const id of shown) {
    const n = counts[ids.indexOf(id)]!;
    io.stderr.write(
      `calib: warning: ${name(id)} has ${n === 0 ? 'no' : n.toLocaleString('en-US')} calibration row${n === 1 ? '' : 's'}, fewer than the ${needed.toLocaleString('en-US')} that α = ${alpha} needs: ` +
        `no finite threshold, so ${taxonomy === 'class' ? `class ${id} is in every prediction set` : 'every prediction set of its rows holds every class'}\n`,
    );
  }
  if (tooFew.length > shown.length) io.stderr.write(`calib: warning: … and ${tooFew.length - shown.length} more ${word}s with fewer than ${needed} calibration rows\n`);
  const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
  if (settings.json) {
    const methods = Object.fromEntries(
      results.map((r) => [
        r.method,
        {
          coverage: r.metrics.coverage,
          mean_set_size: r.metrics.meanSetSize,
          empty_sets: r.metrics.emptySets,
          [`per_${word}`]: Object.fromEntries(
            ids.map((id, c) => {
              const m = r.metrics.perCategory[c]!;
              const q = r.predictor.thresholds[c]!;
              return [
                id,
                {
                  n_calibration: r.predictor.counts[c],
                  threshold: finite(q),
                  too_few_calibration_rows: !Number.isFinite(q),
                  n_test: m.n,
                  coverage: finite(m.coverage),
                  mean_set_size: finite(m.meanSetSize),
                },
              ];
            }),
          ),
        },
      ]),
    );
    io.stdout.write(`${JSON.stringify({ ...settings.header, conditional: word, minimum_calibration_rows: needed, too_few_calibration_rows: tooFew, methods })}\n`);
    return;
  }
  io.stdout.write(`${settings.heading}, one threshold per ${word} (${word}-conditional)\n\n`);
  io.stdout.write(
    formatTable(
      ['method', 'coverage (%)', 'mean set size', 'empty sets (%)', `worst ${word} coverage (%)`],
      results.map((r) => {
        const covered = r.metrics.perCategory.map((m, c) => ({ id: ids[c]!, ...m })).filter((m) => m.n > 0);
        const worst = covered.reduce((a, b) => (b.coverage < a.coverage ? b : a), covered[0]!);
        return [r.method, percent(r.metrics.coverage), r.metrics.meanSetSize.toFixed(3), percent(r.metrics.emptySets), worst ? `${percent(worst.coverage)} (${worst.id})` : '—'];
      }),
    ),
  );
  for (const r of results) {
    io.stdout.write(`\nper ${word}, ${r.method} (target coverage ${percent(1 - alpha)} % in every ${word}):\n`);
    io.stdout.write(
      formatTable(
        [word, 'calibration rows', 'threshold q̂', 'test rows', 'coverage (%)', 'mean set size'],
        ids.map((id, c) => {
          const m = r.metrics.perCategory[c]!;
          const q = r.predictor.thresholds[c]!;
          return [
            id,
            r.predictor.counts[c]!.toLocaleString('en-US'),
            Number.isFinite(q) ? q.toFixed(4) : `none (< ${needed} rows: ${taxonomy === 'class' ? 'in every set' : 'every class in its sets'})`,
            m.n.toLocaleString('en-US'),
            m.n > 0 ? percent(m.coverage) : '—',
            m.n > 0 ? m.meanSetSize.toFixed(3) : '—',
          ];
        }),
      ),
    );
  }
}

/** The report of the group × class cells: per cell its own threshold or the class fallback, coverage and set size. */
function writeCells(
  ids: readonly string[],
  results: readonly { method: ConformalMethod; predictor: MondrianConformalPredictor; metrics: MondrianConformalMetrics }[],
  alpha: number,
  settings: ConditionalSettings,
  io: CliIO,
): void {
  const first = results[0]!.predictor;
  const minCellSize = first.minCellSize!;
  const fallen = ids.filter((_, c) => first.fallback![c] === 1);
  if (fallen.length > 0) {
    const shown = fallen
      .slice(0, 5)
      .map((id) => JSON.stringify(id))
      .join(', ');
    io.stderr.write(
      `calib: warning: ${fallen.length} of ${ids.length} group × class cells have fewer than ${minCellSize} calibration rows (${shown}${fallen.length > 5 ? ', …' : ''}): ` +
        "they use their class's threshold over all groups, with no coverage guarantee within the cell\n",
    );
  }
  const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
  if (settings.json) {
    const methods = Object.fromEntries(
      results.map((r) => [
        r.method,
        {
          coverage: r.metrics.coverage,
          mean_set_size: r.metrics.meanSetSize,
          empty_sets: r.metrics.emptySets,
          per_cell: Object.fromEntries(
            ids.map((id, c) => {
              const m = r.metrics.perCategory[c]!;
              return [
                id,
                {
                  n_calibration: r.predictor.counts[c],
                  threshold: finite(r.predictor.thresholds[c]!),
                  fallback: r.predictor.fallback![c] === 1,
                  n_test: m.n,
                  coverage: finite(m.coverage),
                  mean_set_size: finite(m.meanSetSize),
                },
              ];
            }),
          ),
        },
      ]),
    );
    io.stdout.write(`${JSON.stringify({ ...settings.header, conditional: 'group-class', min_cell_size: minCellSize, fallback_cells: fallen, methods })}\n`);
    return;
  }
  io.stdout.write(`${settings.heading}, one threshold per group × class cell (group- and class-conditional; cells below ${minCellSize} calibration rows use their class's threshold)\n\n`);
  io.stdout.write(
    formatTable(
      ['method', 'coverage (%)', 'mean set size', 'empty sets (%)', 'worst own-threshold cell coverage (%)'],
      results.map((r) => {
        const own = r.metrics.perCategory.map((m, c) => ({ id: ids[c]!, ...m })).filter((m, c) => m.n > 0 && r.predictor.fallback![c] === 0);
        const worst = own.reduce((a, b) => (b.coverage < a.coverage ? b : a), own[0]!);
        return [r.method, percent(r.metrics.coverage), r.metrics.meanSetSize.toFixed(3), percent(r.metrics.emptySets), worst ? `${percent(worst.coverage)} (${worst.id})` : '—'];
      }),
    ),
  );
  for (const r of results) {
    io.stdout.write(`\nper group × class cell, ${r.method} (target coverage ${percent(1 - alpha)} % in every cell with its own threshold):\n`);
    io.stdout.write(
      formatTable(
        ['cell', 'calibration rows', 'threshold q̂', 'test rows', 'coverage (%)', 'mean set size'],
        ids.map((id, c) => {
          const m = r.metrics.perCategory[c]!;
          const q = r.predictor.thresholds[c]!;
          const shown = Number.isFinite(q) ? q.toFixed(4) : 'none (every class)';
          return [
            id,
            r.predictor.counts[c]!.toLocaleString('en-US'),
            r.predictor.fallback![c] === 1 ? `${shown} (class's, < ${minCellSize} rows)` : shown,
            m.n.toLocaleString('en-US'),
            m.n > 0 ? percent(m.coverage) : '—',
            m.n > 0 ? m.meanSetSize.toFixed(3) : '—',
          ];
        }),
      ),
    );
  }
}
