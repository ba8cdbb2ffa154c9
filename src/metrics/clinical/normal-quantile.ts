import { normalUpperTail } from '../statistical-tests/normal-tail.js';

/**
 * The standard normal quantile z_q = Φ⁻¹(q) for 0 < q < 1, by bisection on the upper tail Q(z) = 1 − Φ(z)
 * (normal-tail.ts, fractional error below 1.2e−7), so z_q carries about 7 significant digits: z_0.975 =
 * 1.959964 (exact 1.959963985). Used for Wald intervals.
 */
export function normalQuantile(q: number): number {
  if (!(q > 0 && q < 1)) return Number.NaN;
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = 0.5 * (lo + hi);
    if (1 - normalUpperTail(mid) < q) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}
