/**
 * Holm's step-down adjustment (Holm 1979) of m p-values: with p₍₁₎ ≤ … ≤ p₍ₘ₎ sorted ascending,
 *
 *   p̃₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1) · p₍ⱼ₎),
 *
 * so rejecting where p̃ < α controls the family-wise error rate at α under any dependence. Returned in the input's
 * order; NaN entries are left out of the family and stay NaN.
 */
export function holmAdjust(p: readonly number[]): number[] {
  const order = p
    .map((v, i) => [v, i] as const)
    .filter(([v]) => Number.isFinite(v))
    .sort((a, b) => a[0] - b[0]);
  const m = order.length;
  const out = p.map(() => Number.NaN);
  let running = 0;
  order.forEach(([v, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * v));
    out[i] = running;
  });
  return out;
}
