import { type Tensor, zeros } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional } from '../../util/schema.js';

/** softplus(x) = log(1 + eˣ) = max(x, 0) + log(1 + e^{−|x|}), stable for |x| in the thousands; −log σ(x) = softplus(−x). */
export function softplus(x: Tensor): Tensor {
  return x.relu().add(x.abs().neg().exp().add(1).log());
}

/**
 * T_i = Σ_{j,k} softplus(z_ik − z_ij) over all ordered pairs of classes of each row (z [M, C] → [M]), in O(M·C²).
 * Since softplus(x) = x/2 + log(2 cosh(x/2)) and the x/2 parts cancel over ordered pairs,
 *   T_i = Σ_{j,k} ( |d|/2 + log(1 + e^{−|d|}) ),  d = z_ik − z_ij   (stable for |d| in the thousands),
 * and ∂T_i/∂z_ik = Σ_j tanh((z_ik − z_ij)/2). The pair tensor is built on the detached logits and the gradient is
 * attached as Σ_k G_ik (z_ik − sg(z_ik)) with G = sg(that sum): value and gradient are exact, but no reverse pass
 * runs over the [M, C, C] tensor (about half the memory traffic of differentiating through softplus).
 */
export function pairwiseSoftplusSum(z: Tensor): Tensor {
  const [m, c] = z.shape as [number, number];
  const zs = z.stopGradient();
  const d = zs.reshape([m, c, 1]).sub(zs.reshape([m, 1, c])); // d[i, k, j] = z_k − z_j
  const a = d.abs();
  const value = a.mul(0.5).add(a.neg().exp().add(1).log()).sum([1, 2]);
  const slope = d.mul(0.5).tanh().sum(2).stopGradient(); // [M, C]
  return value.add(slope.mul(z.sub(zs)).sum(1));
}

/**
 * Calibration by pairwise constraints, CPC (Cheng & Vasconcelos, CVPR 2022), as implemented by the MbLS authors
 * (by-liu/CALS `CPCLoss`, used by the ACLS paper's comparison; METHODS.md § Secondary terms):
 *   BDC = −1/(M(C−1)) Σ_i Σ_{j≠y} log σ(z_iy − z_ij)                          (one-vs-one discrimination)
 *   BEC = −0.5/(M(C−1)(C−2)) Σ_i Σ_{j≠y} Σ_{k≠y} log σ(z_ij − z_ik)            (binary exclusion)
 *   CPC = CE + λ_bdc·BDC + λ_bec·BEC.
 * As in that code the BEC double sum includes j = k (a constant 0.5·log 2/(C−2) per sample, no gradient); its
 * +1e−10 inside log σ is dropped (a no-op except on that diagonal). log σ is computed as −softplus(−x) (stable).
 * BEC is inherently O(M·C²) (all pairs of classes; the code builds the same [M, C−1, C−1] tensor); here the pairs not
 * involving y come from one label-free all-pairs sum with an explicit gradient (`pairwiseSoftplusSum`) and the pairs
 * through y are removed in O(M·C). With C = 2 there are no exclusion pairs and BEC = 0.
 * Per-example; terms: { ce, bdc, bec } with loss = ce + λ_bdc·bdc + λ_bec·bec (the per-row regulariser). Defaults λ_bdc = 0.1, λ_bec = 1.
 */
export const cpc = defineLoss({
  name: 'cpc',
  title: 'Pairwise constraints CE + λ_bdc·BDC + λ_bec·BEC (Cheng & Vasconcelos 2022)',
  role: 'combined',
  scope: 'per-example',
  targets: 'labels',
  options: {
    lambda_bdc: optional(number({ min: 0 }), 0.1, 'weight of the binary discrimination constraints'),
    lambda_bec: optional(number({ min: 0 }), 1, 'weight of the binary exclusion constraints'),
  },
  perExample(input, { lambda_bdc, lambda_bec }) {
    const z = input.logits;
    const [m, c] = [input.rows, input.classes];
    const y = input.hardLabels.reshape([m, 1]);
    const others = input.targetDistribution.neg().add(1); // [M, C], 1 on j ≠ y
    const zY = z.takeAlongAxis(y, 1); // [M, 1]
    const bdcRows = others
      .mul(softplus(z.sub(zY)))
      .sum(1)
      .div(c - 1); // −log σ(z_y − z_j) = softplus(z_j − z_y)
    let becRows: Tensor;
    if (c > 2) {
      // Σ_{j,k≠y} softplus(z_k − z_j) = T − Σ_k softplus(z_k − z_y) − Σ_j softplus(z_y − z_j) + log 2, with the
      // label-free all-pairs sum T from `pairwiseSoftplusSum` and the pairs through y in O(C).
      const toY = softplus(z.sub(zY)).sum(1); // Σ_k softplus(z_k − z_y) (k = y gives log 2)
      const fromY = softplus(zY.sub(z)).sum(1); // Σ_j softplus(z_y − z_j)
      const rest = pairwiseSoftplusSum(z).sub(toY).sub(fromY).add(Math.LN2);
      becRows = rest.mul(0.5 / ((c - 1) * (c - 2)));
    } else becRows = zeros([m], input.dtype);
    const ceRows = input.crossEntropyRows;
    const regulariser = bdcRows.mul(lambda_bdc).add(becRows.mul(lambda_bec));
    const rows = ceRows.add(regulariser);
    return { rows, terms: { ce: ceRows, bdc: bdcRows, bec: becRows }, regulariser };
  },
});

/** CPC of logits [N, C] (or dense) against integer labels; see `cpc`. */
export function pairwiseConstraintsLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof cpc.options>): LossResult {
  return cpc.apply(logits, targets, options);
}
