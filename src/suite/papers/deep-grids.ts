/**
 * The trimmed grids of the five paper suites at the `deep` scale (issue #23): the papers' regime costs ≈ 13.5
 * CPU-minutes per run (ResNet-8 w16, 60 epochs: 13.2 CPU-s per epoch, run-cost-references.ts), so the full grids
 * (580 runs) take ≈ 65 machine-hours with two runs side by side; the issue's budget is ≤ 20 for all five. Each grid
 * is chosen from the paper's claims registry (papers/*-claims.ts) by one rule:
 *
 *   - every method of a headline claim (`headline: true`) runs 5 seeds (issue #22: ≥ 5 for the headline claims);
 *   - a swept method keeps the sweep values its shape claims read (argmin / U-shape: three values around the
 *     expected optimum), at 3 seeds; a swept method of a headline claim keeps two values (ARC's β), or one where the
 *     paper states no grid (Karandikar's β: the middle of the suite's {0.3, 1, 3}), at 5 seeds;
 *   - other methods run 3 seeds where the budget allows, and are dropped where it does not (their claims are then
 *     reported "not tested at deep scale", with this reason: scale-grid.ts computes which).
 *
 * The line drawn (total ≈ 19.5 machine-hours with mbls's runs reused by acls and maronas, `calib suite budget`):
 * acls's λ1 / λ2 sweeps (Table A optima) and the MC-dropout / CutMix baselines (supplement Table B), maronas's MMCE,
 * MMCE+M and the ARC placement / version ablations, Thulasidasan's manifold mixup (App. C), and Karandikar's secondary losses other than the headline ones
 * (AvUC, AvUC-GS, every MSE cell, NLL + S-AvUC) are not run at deep scale. Karandikar's NLL + SB-ECE, plain and with
 * interleaved training (App. B, 3 seeds each at β = 1), was added afterwards: the deep scale is where NLL memorises,
 * the regime of App. B's claims, and its 6 runs (≈ 0.67 machine-hours as planned) put the plan at ≈ 20.4 hours.
 */
import { RUN_COST_REFERENCES } from '../estimate/run-cost-references.js';
import type { SuiteGridInput } from '../suite-schema.js';
import { DEEP } from './scales.js';

/** Minutes of one 60-epoch deep run as measured in the five deep suites (≈ 15 % above the plan's 13.5 CPU-minutes). */
export const DEEP_MEASURED_MINUTES_PER_RUN = 16;

/**
 * What testing a claim at deep scale would cost, for its deep-scale note: `runs` runs of `epochs` epochs (default the
 * deep scale's) priced as the budget prices them — (epochs + start-up and end) × the deep pilot's CPU-s per epoch
 * (run-cost-references.ts), 2 runs side by side — and at the measured ≈ 16 minutes per 60-epoch run.
 */
export function deepRunsCost(runs: number, epochs = DEEP.epochs!): string {
  const measured = (runs * DEEP_MEASURED_MINUTES_PER_RUN * (epochs / DEEP.epochs!)) / 2 / 60;
  return `${runs} run${runs === 1 ? '' : 's'}${epochs === DEEP.epochs ? '' : ` of ${epochs} epochs`} ≈ ${deepRunsHours(runs, epochs)} machine-hours as the budget plans them (≈ ${hours(measured)} at the measured ≈ ${DEEP_MEASURED_MINUTES_PER_RUN} minutes per 60-epoch run), 2 side by side`;
}

/** The planned machine-hours of `runs` deep runs of `epochs` epochs, 2 side by side (as deepRunsCost), as text. */
export function deepRunsHours(runs: number, epochs = DEEP.epochs!): string {
  const reference = RUN_COST_REFERENCES[0]!;
  return hours((runs * (epochs + reference.overheadEpochs) * reference.secondsPerEpoch) / 2 / 3600);
}

function hours(h: number): string {
  return h < 10 ? h.toFixed(1) : h.toFixed(0);
}

const FIVE = [0, 1, 2, 3, 4];
const THREE = [0, 1, 2];

const REASON = 'issue #23 budget: all five papers within 20 machine-hours; headline-claim methods 5 seeds, others 3 or not run';

export const MBLS_DEEP_GRID: SuiteGridInput = {
  reason: REASON,
  seeds: FIVE,
  // Fig. 2's U and its optimum at m = 6 (the claims' expected value) need m below, at and above 6.
  methods: { 'mbls-margin': { seeds: THREE, values: [2, 6, 10] } },
  drop: [],
};

export const ACLS_DEEP_GRID: SuiteGridInput = {
  reason: REASON,
  seeds: FIVE,
  // Supplement Fig. A's U in M needs M below, at and above 6.
  methods: { 'acls-margin': { seeds: THREE, values: [2, 6, 10] } },
  drop: ['mc-dropout', 'cutmix', 'acls-lambda1', 'acls-lambda2'],
};

export const MARONAS_DEEP_GRID: SuiteGridInput = {
  reason: REASON,
  seeds: FIVE,
  // β is still chosen on validation, over the two interior values of the paper-range grid {1, 4, 16, 42}.
  methods: { arc: { values: [4, 16] }, 'arc-m': { values: [4, 16] } },
  drop: ['mmce', 'mmce-m', 'arc-m-mixed', 'arc-m-v2'],
};

export const THULASIDASAN_DEEP_GRID: SuiteGridInput = {
  reason: REASON,
  seeds: FIVE,
  methods: {
    // LS at the ε the machine scale's validation chose (0.1); the other non-headline methods at 3 seeds.
    ls: { seeds: THREE, values: [0.1] },
    erl: { seeds: THREE },
    'mc-dropout': { seeds: THREE },
  },
  // The last run over the budget: manifold mixup (its two App. C claims, neither a headline).
  drop: ['mixup-manifold'],
};

/**
 * Karandikar's App. B methods, added to the deep grid after the line above was drawn (the memorisation claims: NLL +
 * SB-ECE, plain and interleaved): 6 runs beyond the 20-machine-hour plan, the total stated by `calib suite budget`.
 */
export const KARANDIKAR_APP_B_METHODS: readonly string[] = ['nll-sbece', 'nll-sbece-interleaved'];

export const KARANDIKAR_DEEP_GRID: SuiteGridInput = {
  reason: REASON,
  seeds: FIVE,
  methods: {
    'nll-mmce': { values: [1] },
    // App. B / Tables 2–3 at the deep scale, where NLL memorises as on CIFAR: NLL + SB-ECE plain and interleaved, at
    // the β the other deep secondaries keep (the paper states no β grid), 3 seeds (no headline claim reads them).
    'nll-sbece': { seeds: THREE, values: [1] },
    'nll-sbece-interleaved': { seeds: THREE, values: [1] },
    'focal-sbece': { values: [1] },
    'focal-savuc': { values: [1] },
  },
  drop: ['nll-avuc', 'nll-avucgs', 'nll-savuc', 'focal-avuc', 'focal-avucgs', 'mse', 'mse-avuc', 'mse-avucgs', 'mse-sbece', 'mse-savuc'],
};
