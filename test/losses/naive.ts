/**
 * Naive float64 host implementations of every loss, written from METHODS.md / the official code independently of
 * the engine versions: plain loops over rows (only the counted rows are passed: masking must equal slicing).
 * Each returns the loss value; "terms" where the loss has several.
 */

export type Rows = readonly (readonly number[])[];

export function logSoftmax(z: readonly number[]): number[] {
  const m = Math.max(...z);
  const lse = m + Math.log(z.reduce((s, v) => s + Math.exp(v - m), 0));
  return z.map((v) => v - lse);
}
export const softmax = (z: readonly number[]): number[] => logSoftmax(z).map(Math.exp);
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const argmax = (z: readonly number[]): number => z.indexOf(Math.max(...z));
const relu = (x: number): number => (x > 0 ? x : 0);
const logSigmoid = (x: number): number => (x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x)));

/** Correctness 1[argmax = y], or q̃ at the argmax for soft targets. */
export function correctness(rows: Rows, y: readonly number[], soft?: Rows): number[] {
  return rows.map((z, i) => (soft ? soft[i]![argmax(z)]! : argmax(z) === y[i] ? 1 : 0));
}
export const confidences = (rows: Rows): number[] => rows.map((z) => Math.max(...softmax(z)));
const entropy = (p: readonly number[]): number => -sum(p.map((v) => (v > 0 ? v * Math.log(v) : 0)));

export function ce(rows: Rows, y: readonly number[]): number {
  return mean(rows.map((z, i) => -logSoftmax(z)[y[i]!]!));
}
export function softCe(rows: Rows, q: Rows): number {
  return mean(rows.map((z, i) => -sum(logSoftmax(z).map((l, k) => q[i]![k]! * l))));
}
export function ls(rows: Rows, y: readonly number[], eps: number, variant: 'uniform' | 'others' = 'uniform'): number {
  const c = rows[0]!.length;
  return mean(
    rows.map((z, i) => {
      const lp = logSoftmax(z);
      const target = lp.map((_, k) => (variant === 'uniform' ? (k === y[i] ? 1 - eps + eps / c : eps / c) : k === y[i] ? 1 - eps : eps / (c - 1)));
      return -sum(lp.map((l, k) => target[k]! * l));
    }),
  );
}
export function focal(rows: Rows, y: readonly number[], gamma: number | ((p: number) => number)): number {
  return mean(
    rows.map((z, i) => {
      const lp = logSoftmax(z)[y[i]!]!;
      const p = Math.exp(lp);
      const g = typeof gamma === 'number' ? gamma : gamma(p);
      return -Math.pow(1 - p, g) * lp;
    }),
  );
}
export const flsdGamma =
  (gamma: number) =>
  (p: number): number =>
    p < 0.2 ? 5 : p < 0.5 ? 3 : gamma;
export function ecp(rows: Rows, y: readonly number[], alpha: number): { loss: number; ce: number; entropy: number } {
  const c = rows[0]!.length;
  let ent = 0;
  for (const z of rows)
    for (const v of softmax(z)) {
      const p = Math.min(Math.max(v, 1e-10), 1 - 1e-10);
      ent += -p * Math.log(p);
    }
  ent /= rows.length * c;
  const l = ce(rows, y);
  return { loss: l - alpha * ent, ce: l, entropy: ent };
}
export function erl(rows: Rows, y: readonly number[], kappa: number): number {
  return ce(rows, y) - kappa * mean(rows.map((z) => entropy(softmax(z))));
}
export function mse(rows: Rows, y: readonly number[]): number {
  return mean(rows.map((z, i) => sum(softmax(z).map((p, k) => (p - (k === y[i] ? 1 : 0)) ** 2))));
}
export function mbls(rows: Rows, y: readonly number[], margin: number, alpha: number): { loss: number; margin: number } {
  let pen = 0;
  for (const z of rows) {
    const m = Math.max(...z);
    for (const v of z) pen += relu(m - v - margin);
  }
  pen /= rows.length * rows[0]!.length;
  return { loss: ce(rows, y) + alpha * pen, margin: pen };
}
export function acls(rows: Rows, y: readonly number[], o: { margin: number; alpha: number; lambda1: number; lambda2: number; paper?: boolean }): { loss: number; reg: number } {
  const c = rows[0]!.length;
  let pos = 0;
  let neg = 0;
  for (const z of rows) {
    const m = Math.max(...z);
    const base = o.paper ? m - Math.min(...z) : m;
    for (const v of z) {
      if (v === m) pos += relu(base - o.margin) ** 2;
      else neg += relu(m - v - o.margin) ** 2;
    }
  }
  const reg = (o.lambda1 * pos) / rows.length + (o.lambda2 * neg) / (rows.length * (c - 1));
  return { loss: ce(rows, y) + o.alpha * reg, reg };
}
export function cpc(rows: Rows, y: readonly number[], lbdc: number, lbec: number): { loss: number; bdc: number; bec: number } {
  const c = rows[0]!.length;
  let bdc = 0;
  let bec = 0;
  rows.forEach((z, i) => {
    for (let j = 0; j < c; j++) {
      if (j === y[i]) continue;
      bdc -= logSigmoid(z[y[i]!]! - z[j]!);
      for (let k = 0; k < c; k++) if (k !== y[i]) bec -= 0.5 * logSigmoid(z[j]! - z[k]!);
    }
  });
  bdc /= rows.length * (c - 1);
  bec = c > 2 ? bec / (rows.length * (c - 1) * (c - 2)) : 0;
  return { loss: ce(rows, y) + lbdc * bdc + lbec * bec, bdc, bec };
}
export function crl(
  rows: Rows,
  y: readonly number[],
  counts: readonly number[],
  epochs: number,
  min: number,
  target: 'softmax' | 'entropy' | 'margin',
  weight: number,
): { loss: number; ranking: number } {
  const c = rows[0]!.length;
  const kappa = rows.map((z) => {
    const p = softmax(z);
    if (target === 'softmax') return Math.max(...p);
    if (target === 'entropy') return -entropy(p) / Math.log(c);
    const s = [...p].sort((a, b) => b - a);
    return s[0]! - s[1]!;
  });
  const h = counts.map((v) => (v - min) / Math.max(epochs - min, 1));
  const n = rows.length;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const t = Math.sign(h[i]! - h[j]!);
    total += relu(-t * (kappa[i]! - kappa[j]!) + Math.abs(h[i]! - h[j]!));
  }
  const ranking = total / n;
  return { loss: ce(rows, y) + weight * ranking, ranking };
}
const kernel = (a: number, b: number): number => Math.exp(-Math.abs(a - b) / 0.4);
export function mmce(rows: Rows, y: readonly number[]): number {
  const c = confidences(rows);
  const a = correctness(rows, y);
  let s = 0;
  for (let i = 0; i < c.length; i++) for (let j = 0; j < c.length; j++) s += (a[i]! - c[i]!) * (a[j]! - c[j]!) * kernel(c[i]!, c[j]!);
  return s / (c.length * c.length);
}
export function mmceWeighted(rows: Rows, y: readonly number[]): number {
  const c = confidences(rows);
  const a = correctness(rows, y);
  const right = c.filter((_, i) => a[i] === 1);
  const wrong = c.filter((_, i) => a[i] === 0);
  const m = right.length;
  const n = wrong.length;
  if (m === 0 || n === 0) return 0;
  let cc = 0,
    ww = 0,
    cw = 0;
  for (const u of right) for (const v of right) cc += (1 - u) * (1 - v) * kernel(u, v);
  for (const u of wrong) for (const v of wrong) ww += u * v * kernel(u, v);
  for (const u of right) for (const v of wrong) cw += (1 - u) * v * kernel(u, v);
  const mmd = cc / (m * m) / (m * m + 1e-5) + ww / (n * n) / (n * n + 1e-5) - (2 * cw) / (m * n) / (m * n + 1e-5);
  return Math.sqrt(Math.max(mmd, 0) + 1e-10);
}
/** MMCE_w as Kumar et al. 2018 and the ARC code (MMCE_net.cost_MMCE): each block normalised once, an empty block 0. */
export function mmceWeightedKumar(rows: Rows, y: readonly number[]): number {
  const c = confidences(rows);
  const a = correctness(rows, y);
  const right = c.filter((_, i) => a[i] === 1);
  const wrong = c.filter((_, i) => a[i] === 0);
  const m = right.length;
  const n = wrong.length;
  let cc = 0,
    ww = 0,
    cw = 0;
  for (const u of right) for (const v of right) cc += (1 - u) * (1 - v) * kernel(u, v);
  for (const u of wrong) for (const v of wrong) ww += u * v * kernel(u, v);
  for (const u of right) for (const v of wrong) cw += (1 - u) * v * kernel(u, v);
  const mmd = cc / (m * m + 1e-11) + ww / (n * n + 1e-11) - (2 * cw) / (m * n + 1e-11);
  return Math.sqrt(Math.max(mmd, 1e-12));
}
export function mdca(rows: Rows, y: readonly number[]): number {
  const c = rows[0]!.length;
  const p = rows.map(softmax);
  let total = 0;
  for (let k = 0; k < c; k++) total += Math.abs(mean(p.map((r) => r[k]!)) - mean(y.map((v) => (v === k ? 1 : 0))));
  return total / c;
}
export function dca(rows: Rows, y: readonly number[]): number {
  return Math.abs(mean(confidences(rows)) - mean(correctness(rows, y)));
}
/** Bin of c under '(l,u]' with c = 0 in bin 0. */
export const upperClosedBin = (c: number, m: number): number => Math.min(m - 1, Math.max(0, Math.ceil(c * m) - 1));
export function arc(rows: Rows, y: readonly number[], version: 'v1' | 'v2', binsList: readonly number[], soft?: Rows): number {
  const c = confidences(rows);
  const a = correctness(rows, y, soft);
  const n = c.length;
  let total = 0;
  for (const m of binsList) {
    const bin = c.map((v) => upperClosedBin(v, m));
    let term = 0;
    for (let b = 0; b < m; b++) {
      const idx = bin.map((v, i) => (v === b ? i : -1)).filter((i) => i >= 0);
      if (!idx.length) continue;
      const acc = mean(idx.map((i) => a[i]!));
      if (version === 'v1') term += idx.length * (mean(idx.map((i) => c[i]!)) - acc) ** 2;
      else term += sum(idx.map((i) => (c[i]! - acc) ** 2));
    }
    total += term / n;
  }
  return total / binsList.length;
}
function softBins(c: number, centres: readonly number[], t: number): number[] {
  const logits = centres.map((x) => -((c - x) ** 2) / t);
  return softmax(logits);
}
export const unitCentres = (m: number): number[] => Array.from({ length: m }, (_, j) => (j + 0.5) / m);
export function sbEceBin(rows: Rows, y: readonly number[], o: { bins: number; temperature: number; p: number }, soft?: Rows): number {
  const c = confidences(rows);
  const a = correctness(rows, y, soft);
  const u = c.map((v) => softBins(v, unitCentres(o.bins), o.temperature));
  let total = 0;
  for (let j = 0; j < o.bins; j++) {
    const s = sum(u.map((r) => r[j]!));
    const conf = sum(u.map((r, i) => r[j]! * c[i]!)) / Math.max(s, 1e-5);
    const acc = sum(u.map((r, i) => r[j]! * a[i]!)) / Math.max(s, 1e-5);
    total += (s / c.length) * Math.abs(acc - conf) ** o.p;
  }
  return total ** (1 / o.p);
}
export function sbEceLb(rows: Rows, y: readonly number[], o: { bins: number; temperature: number; p: number; root: boolean; anchors: 'code' | 'unit' }): number {
  const classes = rows[0]!.length;
  const c = confidences(rows);
  const a = correctness(rows, y);
  const edges = Array.from({ length: o.bins + 1 }, (_, j) => 1 / classes + ((1 - 1 / classes) * j) / o.bins);
  const centres = o.anchors === 'unit' ? unitCentres(o.bins) : Array.from({ length: o.bins }, (_, j) => (edges[j]! + edges[j + 1]!) / 2);
  const u = c.map((v) => softBins(v, centres, o.temperature).map((w) => (1 - 1e-5) * w + 1e-5 / o.bins));
  const acc = centres.map((_, j) => sum(u.map((r, i) => r[j]! * a[i]!)) / sum(u.map((r) => r[j]!)));
  let total = 0;
  u.forEach((r, i) => r.forEach((w, j) => (total += w * Math.abs(acc[j]! - c[i]!) ** o.p)));
  total /= c.length;
  return o.root ? total ** (1 / o.p) : total;
}
function avucEntropies(rows: Rows): number[] {
  return rows.map((z) => {
    const k = z.length;
    return entropy(softmax(z).map((p) => (1 - 1e-5) * p + 1e-5 / k));
  });
}
function avucLog(nAC: number, nAU: number, nIC: number, nIU: number): number {
  return Math.log(1 + (nAU + nIC) / Math.max(nAC + nIU, 1e-5));
}
export function avuc(rows: Rows, y: readonly number[], kappa: number): number {
  const u = avucEntropies(rows);
  const c = confidences(rows);
  const a = correctness(rows, y);
  let nAC = 0,
    nAU = 0,
    nIC = 0,
    nIU = 0;
  u.forEach((ui, i) => {
    const t = Math.tanh(ui);
    const certain = ui < kappa;
    if (a[i] === 1 && certain) nAC += c[i]! * (1 - t);
    if (a[i] === 1 && !certain) nAU += c[i]! * t;
    if (a[i] === 0 && certain) nIC += (1 - c[i]!) * (1 - t);
    if (a[i] === 0 && !certain) nIU += (1 - c[i]!) * t;
  });
  return avucLog(nAC, nAU, nIC, nIU);
}
export function sAvuc(rows: Rows, y: readonly number[], kappa: number, temperature: number): number {
  const u = avucEntropies(rows);
  const a = correctness(rows, y);
  const k = rows[0]!.length;
  let nAC = 0,
    nAU = 0,
    nIC = 0,
    nIU = 0;
  u.forEach((ui, i) => {
    const e = ui / Math.log(k);
    const ou = 1 / (1 + Math.exp(-(1 / temperature) * Math.log((e * (1 - kappa)) / ((1 - e) * kappa))));
    const oc = 1 - ou;
    const t = Math.tanh(ui);
    if (a[i] === 1) {
      nAC += oc * (1 - t);
      nAU += ou * t;
    } else {
      nIC += oc * (1 - t);
      nIU += ou * t;
    }
  });
  return avucLog(nAC, nAU, nIC, nIU);
}
