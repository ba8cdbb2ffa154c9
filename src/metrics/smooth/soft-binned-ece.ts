/**
 * Soft-binned ECE, SB-ECE (Karandikar et al. 2021, "Soft Calibration Objectives for Neural Networks", §3;
 * caltrain code; METHODS.md § Secondary terms, "SB-ECE bin"). The one host definition: the TS-SB-ECE
 * calibrator (posthoc/temperature/ts-sb-ece.ts) minimises it and the SB-ECE losses (losses/sb-ece-*.ts) take its constants and
 * formula from here (a metric, so both layers above can use it).
 *
 * For confidences c_i ∈ [0, 1] and correctness a_i ∈ {0, 1} (i = 1…N), M bins with centres ξ_j = (j − ½)/M:
 *   u_ij = softmax_j(−(c_i − ξ_j)² / T_b)                      soft membership of sample i in bin j
 *   s_j = Σ_i u_ij,  D_j = max(s_j, ε)                        (ε = 1e−5)
 *   conf_j = Σ_i u_ij c_i / D_j,  acc_j = Σ_i u_ij a_i / D_j,  w_j = s_j / N
 *   SB-ECE = (Σ_j w_j |acc_j − conf_j|^p)^{1/p}               (the caltrain code fixes p = 2)
 * Defaults M = 15, T_b = 0.01, p = 2. As T_b → 0 the soft bins become hard bins centred on ξ_j.
 */

/** Default constants of SB-ECE (Karandikar et al. 2021 and the caltrain code). */
export const SB_ECE_DEFAULTS = Object.freeze({
  /** Number of soft bins M. */
  bins: 15,
  /** Soft-bin temperature T_b. */
  softBinTemperature: 0.01,
  /** Norm p. */
  p: 2,
  /** Floor ε of the bin mass in the denominators of conf_j and acc_j. */
  epsilon: 1e-5,
});

export interface SoftBinnedEceOptions {
  readonly bins?: number;
  readonly softBinTemperature?: number;
  readonly p?: number;
}

/** Bin centres ξ_j = (j − ½)/M, j = 1…M. */
export function sbEceBinCenters(bins: number): Float64Array {
  return Float64Array.from({ length: bins }, (_, j) => (j + 0.5) / bins);
}

/**
 * SB-ECE of `confidences` (length N) and `correct` (length N, 0/1). When `gradient` (length N) is given it
 * receives ∂SB-ECE/∂c_i (the derivative through both the memberships u_ij and the bin confidences conf_j; the
 * correctness is constant). At SB-ECE = 0 the gradient is set to 0.
 */
export function softBinnedEce(confidences: Float64Array, correct: Float64Array, options: SoftBinnedEceOptions = {}, gradient?: Float64Array): number {
  const M = options.bins ?? SB_ECE_DEFAULTS.bins;
  const Tb = options.softBinTemperature ?? SB_ECE_DEFAULTS.softBinTemperature;
  const p = options.p ?? SB_ECE_DEFAULTS.p;
  const eps = SB_ECE_DEFAULTS.epsilon;
  const n = confidences.length;
  const xi = sbEceBinCenters(M);
  const u = new Float64Array(n * M);
  const s = new Float64Array(M);
  const sc = new Float64Array(M);
  const sa = new Float64Array(M);
  for (let i = 0; i < n; i++) {
    const c = confidences[i]!;
    const a = correct[i]!;
    const o = i * M;
    let max = -Infinity;
    for (let j = 0; j < M; j++) {
      const d = c - xi[j]!;
      const l = -(d * d) / Tb;
      u[o + j] = l;
      if (l > max) max = l;
    }
    let sum = 0;
    for (let j = 0; j < M; j++) {
      const e = Math.exp(u[o + j]! - max);
      u[o + j] = e;
      sum += e;
    }
    for (let j = 0; j < M; j++) {
      const v = u[o + j]! / sum;
      u[o + j] = v;
      s[j] = s[j]! + v;
      sc[j] = sc[j]! + v * c;
      sa[j] = sa[j]! + v * a;
    }
  }
  const delta = new Float64Array(M);
  const denom = new Float64Array(M);
  let F = 0;
  for (let j = 0; j < M; j++) {
    const D = Math.max(s[j]!, eps);
    denom[j] = D;
    const dj = (sa[j]! - sc[j]!) / D;
    delta[j] = dj;
    F += (s[j]! / n) * Math.pow(Math.abs(dj), p);
  }
  const value = Math.pow(F, 1 / p);
  if (gradient) {
    if (!(F > 0)) {
      gradient.fill(0);
      return value;
    }
    const outer = (1 / p) * Math.pow(F, 1 / p - 1);
    // H_j = w_j · p |Δ_j|^{p−1} sign(Δ_j) = ∂F/∂Δ_j;  P_j = |Δ_j|^p / N = ∂F/∂s_j through w_j.
    const H = new Float64Array(M);
    const P = new Float64Array(M);
    for (let j = 0; j < M; j++) {
      const dj = delta[j]!;
      H[j] = (s[j]! / n) * p * Math.pow(Math.abs(dj), p - 1) * Math.sign(dj);
      P[j] = Math.pow(Math.abs(dj), p) / n;
    }
    for (let i = 0; i < n; i++) {
      const c = confidences[i]!;
      const a = correct[i]!;
      const o = i * M;
      // ∂F/∂u_ij and ∂l_ij/∂c_i = −2(c − ξ_j)/T_b.
      let meanLp = 0;
      for (let j = 0; j < M; j++) meanLp += u[o + j]! * ((-2 * (c - xi[j]!)) / Tb);
      let g = 0;
      for (let j = 0; j < M; j++) {
        const uij = u[o + j]!;
        const active = s[j]! > eps ? delta[j]! : 0;
        const dFdu = P[j]! + (H[j]! * (a - c - active)) / denom[j]!;
        const lp = (-2 * (c - xi[j]!)) / Tb;
        g += dFdu * uij * (lp - meanLp) - (H[j]! * uij) / denom[j]!;
      }
      gradient[i] = outer * g;
    }
  }
  return value;
}
