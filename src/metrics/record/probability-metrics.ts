import { binnedErrorPower } from '../binned/bin-statistics.js';
import { marginalEqualMass } from '../binned/marginal-ece.js';
import { defineMetric, type RowBlock } from './metric-definition.js';
import type { MetricState, StateSpec } from '../accumulators/metric-state.js';

/**
 * The metrics that need more than the top label: the per-row NLL, Brier score and entropy (computed by the
 * one-pass kernels) and the classwise bins (METHODS.md § Metrics).
 */

/** Add the first `block.rows` values of a per-row column to the compensated sum `name`, in row order. */
function sumRows(state: MetricState, name: string, values: Float64Array, rows: number): void {
  state.addAll(name, values, rows);
}

export const nll = defineMetric({
  key: 'nll',
  label: 'NLL',
  percent: false,
  better: 'lower',
  weighted: { scope: 'rows', compute: (w) => w.mean(w.rows().nll) },
  description: 'mean negative log-likelihood −log p_y (natural log; for probability inputs only p_y = 0 is clipped, to 5e-324: 744.4 nats)',
  state: () => ({ nll: { merge: 'compensated-sum' } }),
  update: (state: MetricState, block: RowBlock) => sumRows(state, 'nll', block.nll, block.rows),
  compute: (context, state) => state.scalar('nll') / context.n,
});

export const brier = defineMetric({
  key: 'brier',
  label: 'Brier',
  percent: false,
  better: 'lower',
  weighted: { scope: 'rows', compute: (w) => w.mean(w.rows().brier) },
  description: 'mean Brier score Σ_k (p_k − 1[k = y])² (Brier 1950)',
  state: () => ({ brier: { merge: 'compensated-sum' } }),
  update: (state: MetricState, block: RowBlock) => sumRows(state, 'brier', block.brier, block.rows),
  compute: (context, state) => state.scalar('brier') / context.n,
});

export const classwiseEce = defineMetric({
  key: 'classwise_ece',
  label: 'classwise ECE (%)',
  short: 'SCE',
  percent: true,
  better: 'lower',
  weighted: {
    scope: 'rows',
    // Σ_k Σ_m |Σ_{B_km} w (p_k − 1[y = k])| / (C·W)
    compute: (w) => {
      let acc = 0;
      for (const sums of w.classwise()) for (let m = 0; m < w.bins; m++) acc += Math.abs(sums.sumCorrect[m]! - sums.sumConfidence[m]!);
      return acc / (w.rows().classes * w.weightSum);
    },
  },
  description: 'classwise ECE / SCE: ℓ1, M equal-width bins per class, averaged over the C classes (Nixon et al. 2019)',
  compute: (context) => context.classes().classwise.classwiseEce(),
});

export const marginalEce = defineMetric({
  key: 'marginal_ece',
  label: 'marginal ECE l2 (%)',
  short: 'Marginal ECE',
  percent: true,
  better: 'lower',
  weighted: {
    scope: 'rows',
    // the plug-in ℓ2 estimator over equal-width bins: sqrt((1/C) Σ_k Σ_m (W_km/W) |gap_km|²)
    compute: (w) => {
      let acc = 0;
      for (const sums of w.classwise()) acc += binnedErrorPower(sums, w.weightSum, 2);
      return Math.sqrt(acc / w.rows().classes);
    },
    refusal: (settings) => {
      if ((settings.marginalDebias ?? true) !== false) return 'the debiased estimator assumes N independent unweighted samples (marginalDebias: false gives the weighted plug-in estimator)';
      return (settings.marginalBinning ?? 'equal-width') !== 'equal-width' ? 'equal-mass marginal bins are not implemented with sample weights' : null;
    },
  },
  description: 'marginal calibration error, ℓ2, debiased unless `marginal_debiased` is false (Kumar et al. 2019)',
  // Equal-mass marginal bins need every probability: N × C of them and the labels, kept in arrival order.
  state: (shape): StateSpec => (shape.marginalBinning === 'equal-mass' ? { kept: { merge: 'concat', length: shape.classes }, keptLabels: { merge: 'concat', type: 'int32' } } : {}),
  needsProbabilities: true,
  update: (state: MetricState, block: RowBlock) => {
    state.append('kept', block.probabilities, 0, block.rows);
    for (let r = 0; r < block.rows; r++) state.push('keptLabels', block.labels[block.labelOffset + r]!);
  },
  compute: (context, state) => {
    const { classes, classwise, marginalBinning, marginalDebias } = context.classes();
    if (marginalBinning === 'equal-width') return classwise.marginalEce({ debias: marginalDebias });
    return marginalEqualMass(state.column('kept') as Float64Array, context.n, classes, state.column('keptLabels'), context.top.bins, 2, marginalDebias);
  },
});

export const meanEntropy = defineMetric({
  key: 'mean_entropy',
  label: 'mean entropy (nats)',
  short: 'Entropy',
  percent: false,
  better: 'none',
  weighted: { scope: 'rows', compute: (w) => w.mean(w.rows().entropy) },
  description: 'mean predictive entropy −Σ_k p_k log p_k (natural log, 0 · log 0 = 0)',
  state: () => ({ entropy: { merge: 'compensated-sum' } }),
  update: (state: MetricState, block: RowBlock) => sumRows(state, 'entropy', block.entropy, block.rows),
  compute: (context, state) => state.scalar('entropy') / context.n,
});
