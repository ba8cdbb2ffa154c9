import type { Random } from '../../util/random.js';
import { logGamma } from '../../util/log-gamma.js';

export { logGamma };

/**
 * Poisson(λ) samples from a seeded `Random`, as NumPy's legacy generator draws them: for λ < 10 the
 * multiplication method (count uniforms until their running product drops to e^−λ or below); for λ ≥ 10
 * Hörmann's transformed rejection with squeeze, PTRS (W. Hörmann, "The transformed rejection method for
 * generating Poisson random variables", Insurance: Mathematics and Economics 12, 1993), with NumPy's
 * constants. λ = 0 gives 0.
 */
export function poisson(rng: Random, lambda: number): number {
  if (!(lambda >= 0) || !Number.isFinite(lambda)) throw new RangeError(`poisson: lambda must be a finite number ≥ 0, got ${lambda}`);
  if (lambda === 0) return 0;
  if (lambda < 10) {
    const limit = Math.exp(-lambda);
    let k = 0;
    let product = 1;
    for (;;) {
      product *= rng.uniform();
      if (product > limit) k++;
      else return k;
    }
  }
  const slam = Math.sqrt(lambda);
  const loglam = Math.log(lambda);
  const b = 0.931 + 2.53 * slam;
  const a = -0.059 + 0.02483 * b;
  const invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const u = rng.uniform() - 0.5;
    const v = rng.uniform();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (Math.log(v) + Math.log(invalpha) - Math.log(a / (us * us) + b) <= -lambda + k * loglam - logGamma(k + 1)) return k;
  }
}
