/**
 * Progress of a calibrator fit, for a display while a long fit runs (300k × 100 isotonic, matrix scaling on many
 * classes, ...). A fit reports the fraction of its work done, in [0, 1]; `fitCalibrator` passes the fit a
 * reporter that keeps the fractions non-decreasing and ends with exactly 1 when the fit returns. Fits report at
 * coarse steps only (one call per class of a one-vs-rest fit, per optimizer iteration), so the cost is nil.
 */

/** Called with the fraction of the fit done: non-decreasing, in [0, 1], the last call being 1. */
export type FitProgress = (fraction: number) => void;

/** Options of a fit that are not calibrator settings (they are not stored in the calibrator's JSON). */
export interface FitOptions {
  /** Progress callback (see `FitProgress`); called synchronously from within the fit. */
  readonly onProgress?: FitProgress;
  /**
   * Per-row sample weights w_i ≥ 0 (N values, not all zero; scikit-learn's `sample_weight`): the fit minimises
   * Σ_i w_i ℓ_i / Σ_i w_i instead of the mean, and counts become weighted counts, so integer weights equal repeating
   * row i w_i times. Only methods declaring `weights: 'accepted'` take them (`fitCalibrator` refuses the others).
   */
  readonly sampleWeights?: Float64Array;
  /**
   * Called once by an iterative fit when its optimiser stops (converged or not), with what the optimiser did: for
   * benches and diagnostics (bench/posthoc-sms-fit.ts counts objective evaluations with it).
   */
  readonly onSolved?: (summary: SolverSummary) => void;
}

/** What an iterative fit's optimiser did (lbfgs.ts `LbfgsResult` without the point). */
export interface SolverSummary {
  readonly iterations: number;
  readonly evaluations: number;
  readonly reason: string;
  readonly converged: boolean;
  /** The objective at the returned point. */
  readonly objective: number;
  readonly gradientNorm: number;
}

/**
 * The reporter handed to a fit: fractions clamped to [0, 1], NaN and decreasing values dropped, and
 * `finish()` reporting 1 once. `onProgress` undefined gives a reporter that does nothing.
 */
export function monotoneProgress(onProgress: FitProgress | undefined): { report: FitProgress; finish: () => void } {
  if (!onProgress) return { report: () => {}, finish: () => {} };
  let last = -1;
  const report = (fraction: number) => {
    const f = Math.min(1, Math.max(0, fraction));
    if (!(f > last) || f === 1) return;
    last = f;
    onProgress(f);
  };
  return {
    report,
    finish: () => {
      if (last === 1) return;
      last = 1;
      onProgress(1);
    },
  };
}

/** The part [from, to] of a fit's progress: `part(f)` reports from + f · (to − from). */
export function progressPart(onProgress: FitProgress | undefined, from: number, to: number): FitProgress | undefined {
  return onProgress && ((f: number) => onProgress(from + f * (to - from)));
}

/**
 * Progress of an iterative minimiser: the larger of iteration / maxIterations and the share of the way the
 * gradient norm has come down (on a log scale) from its start g₀ to the tolerance, log(g₀ / g) / log(g₀ / tol)
 * (L-BFGS and Newton reduce log ‖g‖ roughly linearly once they are near the minimum). An estimate, never past 1.
 */
export function optimizerFraction(iteration: number, maxIterations: number, gradientNorm: number, startNorm: number, tolerance: number): number {
  const byIterations = iteration / maxIterations;
  const span = Math.log(startNorm / tolerance);
  const byGradient = span > 0 && gradientNorm > 0 ? Math.log(startNorm / gradientNorm) / span : 0;
  return Math.min(1, Math.max(byIterations, Number.isFinite(byGradient) ? byGradient : 0));
}
