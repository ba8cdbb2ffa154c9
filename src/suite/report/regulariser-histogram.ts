/**
 * The suite report's per-sample regulariser histogram (ACLS, Park et al. ICCV 2023, Fig. 3: "Comparisons of L_REG
 * … we clip the values of L_REG into the range [0.0, 0.1] and plot histograms using 20 bins"; the paper reads off
 * the share of samples where the regulariser is inactive, L_REG = 0: 85% with the ranking condition, 5% with the
 * margin). Here the suite's `regulariserHistogram` names one per-example loss and per-sample quantity (default the
 * loss's regulariser R_i, for ACLS α·reg), evaluated in float64 by `evaluateLoss` (the loss definition's own rows)
 * on the test logits of every method's runs — the runs its table shows, pooled over seeds — so one sees how each
 * method's outputs sit under that regulariser. Counts use the metrics' equal-width binning of (v − min)/(max − min)
 * clipped to [0, 1] (bins (l,u], a value at min in the first bin; values outside [min, max] in the end bins).
 */
import { equalWidthBinSums } from '../../metrics/binned/bin-statistics.js';
import { evaluateLoss } from '../../losses/evaluate-loss.js';
import { readRunPredictions } from '../posthoc-step.js';
import type { SuiteRegulariserHistogram } from '../suite-schema.js';
import type { SuiteResults } from './suite-results.js';

/** One method's histogram (report.json `regulariser_histogram.methods[]`). */
export interface MethodRegulariserHistogram {
  readonly method: string;
  readonly label: string;
  readonly group: string;
  /** The runs pooled (one per seed). */
  readonly runs: readonly string[];
  readonly samples: number;
  /** Samples per bin (length `bins`). */
  readonly counts: readonly number[];
  /** Share of samples whose value is exactly 0 (the regulariser inactive). */
  readonly inactive: number;
  readonly mean: number;
  /** Samples below min resp. above max (counted in the first resp. last bin). */
  readonly below: number;
  readonly above: number;
}

/** The whole figure's data (report.json `regulariser_histogram`). */
export interface RegulariserHistogramData {
  readonly loss: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly quantity: string;
  readonly bins: number;
  readonly min: number;
  readonly max: number;
  readonly pooled: 'seeds';
  readonly methods: readonly MethodRegulariserHistogram[];
}

/** The per-sample values of `spec` on a finished run's test logits (float64). */
async function runPerSampleValues(dir: string, spec: SuiteRegulariserHistogram): Promise<Float64Array> {
  // The run's test rows as every report section reads them (a segmentation run's labelled pixels, ignore label dropped).
  const { test: logits, testLabels: labels } = await readRunPredictions(dir);
  const r = evaluateLoss(
    { logits: { data: logits.data, shape: [logits.rows, logits.cols] }, labels: { data: labels, shape: [labels.length] } },
    { name: spec.loss, options: spec.options, perSample: spec.quantity, dtype: 'float64' },
  );
  return r.perSample!;
}

/** Counts of `values` in `bins` equal-width bins over [min, max] (clipped), with how many fell outside. */
export function histogramCounts(values: Float64Array, bins: number, min: number, max: number): { counts: number[]; below: number; above: number } {
  const t = new Float64Array(values.length);
  let below = 0;
  let above = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v < min) below++;
    if (v > max) above++;
    t[i] = Math.min(1, Math.max(0, (v - min) / (max - min)));
  }
  const sums = equalWidthBinSums(t, new Uint8Array(values.length), bins, '(l,u]');
  return { counts: Array.from(sums.counts), below, above };
}

/** The histogram data of the suite's `regulariserHistogram`, or null when the suite asks for none or no run finished. */
export async function regulariserHistograms(results: SuiteResults): Promise<RegulariserHistogramData | null> {
  const spec = results.record.suite.regulariserHistogram;
  if (!spec) return null;
  const perMethod: { m: (typeof results.methods)[number]; values: Float64Array }[] = [];
  for (const m of results.methods) {
    if (!m.runs.length) continue;
    const parts = [];
    for (const r of m.runs) parts.push(await runPerSampleValues(r.dir, spec));
    const values = new Float64Array(parts.reduce((n, a) => n + a.length, 0));
    let offset = 0;
    for (const a of parts) {
      values.set(a, offset);
      offset += a.length;
    }
    perMethod.push({ m, values });
  }
  if (!perMethod.length) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const { values } of perMethod) for (const v of values) ((lo = Math.min(lo, v)), (hi = Math.max(hi, v)));
  const min = spec.min ?? Math.min(0, lo);
  let max = spec.max ?? hi;
  if (!(max > min)) max = min + 1;
  const methods = perMethod.map(({ m, values }) => {
    const { counts, below, above } = histogramCounts(values, spec.bins, min, max);
    let zeros = 0;
    let total = 0;
    for (const v of values) ((zeros += v === 0 ? 1 : 0), (total += v));
    return {
      method: m.name,
      label: m.label,
      group: m.group,
      runs: m.runs.map((r) => r.run.id),
      samples: values.length,
      counts,
      inactive: zeros / values.length,
      mean: total / values.length,
      below,
      above,
    };
  });
  return { loss: spec.loss, options: spec.options, quantity: spec.quantity, bins: spec.bins, min, max, pooled: 'seeds', methods };
}
