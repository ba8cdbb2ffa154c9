import { argsortStable } from '../numeric/argsort.js';
import { chiSquareUpperTail } from './chi-square.js';

/**
 * Hosmer–Lemeshow goodness-of-fit test (Hosmer & Lemeshow 1980; "Applied Logistic Regression", 3rd ed., §5.2.2)
 * with g groups "by deciles of risk": the rows sorted by p (stable, so ties keep their input order) are cut into
 * g groups of as equal size as possible, group k holding sorted positions ⌊k n/g⌋ … ⌊(k+1) n/g⌋ − 1 (tied risks
 * may fall into two groups; R's ResourceSelection::hoslem.test cuts at quantiles instead, keeping ties together).
 *
 *   Ĉ = Σ_k (O_k − E_k)² / (E_k (1 − E_k / n_k)),   O_k = Σ_{i∈k} y_i,  E_k = Σ_{i∈k} p_i,
 *
 * which equals the Pearson χ² over the 2 × g table of observed and expected events and non-events. The p-value
 * is P(χ²_{g−2} > Ĉ): df = g − 2, the convention for the development sample (Hosmer & Lemeshow); on
 * external validation data some authors use g. A group with E_k (1 − E_k/n_k) = 0 (all its p in {0, 1})
 * contributes 0 if O_k = E_k and makes Ĉ infinite (p = 0) otherwise.
 */
export interface HosmerLemeshow {
  readonly statistic: number;
  readonly degreesOfFreedom: number;
  readonly pValue: number;
  readonly groups: number;
}

export function hosmerLemeshow(p: ArrayLike<number>, y: ArrayLike<number>, groups = 10): HosmerLemeshow {
  const n = p.length;
  const order = argsortStable(Float64Array.from(p));
  let statistic = 0;
  for (let k = 0; k < groups; k++) {
    const start = Math.floor((k * n) / groups);
    const end = Math.floor(((k + 1) * n) / groups);
    let observed = 0;
    let expected = 0;
    for (let s = start; s < end; s++) {
      observed += y[order[s]!]!;
      expected += p[order[s]!]!;
    }
    const size = end - start;
    const denominator = expected * (1 - expected / size);
    const gap = observed - expected;
    if (denominator > 0) statistic += (gap * gap) / denominator;
    else if (Math.abs(gap) > 1e-12 * Math.max(1, size)) statistic = Infinity;
  }
  const degreesOfFreedom = groups - 2;
  return { statistic, degreesOfFreedom, pValue: chiSquareUpperTail(statistic, degreesOfFreedom), groups };
}
