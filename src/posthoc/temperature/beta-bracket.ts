/**
 * The safeguard of the temperature solvers' Newton-type iterations on β = 1/T (temperature.ts `nllTemperature`,
 * ragged-temperature.ts): a sign-change bracket (lo, hi) of the convex NLL's derivative inside the searched range
 * [min, max] of β, and the step taken when the solver's own step leaves it — geometric bisection √(lo · hi) once both
 * ends are known, else ×4 toward the open end (÷4 when NLL′ > 0), clipped to the range. A derivative of one sign all
 * the way to an end of the range means the NLL has no minimum there: a CalibrationFitError with the caller's reason.
 */
import { CalibrationFitError } from '../fit-error.js';

/** Why the NLL has no minimum in the range, per end (built only when thrown). */
export interface NoMinimumReasons {
  /** NLL′ ≤ 0 up to β = max: the NLL keeps decreasing as T → 0. */
  readonly atMax: () => string;
  /** NLL′ > 0 down to β = min: the NLL keeps decreasing as T → ∞. */
  readonly atMin: () => string;
}

export class BetaBracket {
  /** The lower end: β where NLL′ ≤ 0 (the range's minimum until one is seen). */
  #lo: number;
  /** The upper end: β where NLL′ > 0 (the range's maximum until one is seen). */
  #hi: number;
  #loKnown = false;
  #hiKnown = false;
  readonly #min: number;
  readonly #max: number;
  readonly #method: string;
  readonly #reasons: NoMinimumReasons;

  constructor(min: number, max: number, method: string, reasons: NoMinimumReasons) {
    this.#lo = this.#min = min;
    this.#hi = this.#max = max;
    this.#method = method;
    this.#reasons = reasons;
  }

  /** Record the sign of NLL′ at β: `falling` (NLL′ ≤ 0) moves the lower end up to β, else the upper end down. */
  narrow(beta: number, falling: boolean): void {
    if (falling) {
      this.#lo = beta;
      this.#loKnown = true;
    } else {
      this.#hi = beta;
      this.#hiKnown = true;
    }
  }

  /** Whether both ends have been seen (the minimum lies between them). */
  get closed(): boolean {
    return this.#loKnown && this.#hiKnown;
  }

  /** Whether β lies strictly inside the bracket (false for NaN). */
  contains(beta: number): boolean {
    return beta > this.#lo && beta < this.#hi;
  }

  /**
   * The step from β when the solver's own leaves the bracket: √(lo · hi) when closed, else min(4β, max) while NLL′ at β
   * is `falling`, max(β/4, min) otherwise; throws when β already is that end of the range.
   */
  fallback(beta: number, falling: boolean): number {
    if (this.closed) return Math.sqrt(this.#lo * this.#hi);
    if (falling) {
      if (beta >= this.#max) throw new CalibrationFitError(this.#method, this.#reasons.atMax());
      return Math.min(beta * 4, this.#max);
    }
    if (beta <= this.#min) throw new CalibrationFitError(this.#method, this.#reasons.atMin());
    return Math.max(beta / 4, this.#min);
  }
}
