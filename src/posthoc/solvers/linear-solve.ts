/**
 * Dense linear solve A X = B by Gaussian elimination with partial pivoting (A: n × n, B: n × m, row-major,
 * float64). Returns X (n × m); throws RangeError when A is singular to working precision. For the small
 * systems of the post-hoc calibrators (spline knots), not for large problems.
 */
export function solveLinear(A: Float64Array, B: Float64Array, n: number, m: number): Float64Array {
  const a = Float64Array.from(A);
  const x = Float64Array.from(B);
  let scale = 0;
  for (const v of a) scale = Math.max(scale, Math.abs(v));
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r * n + col]!) > Math.abs(a[pivot * n + col]!)) pivot = r;
    if (!(Math.abs(a[pivot * n + col]!) > 1e-14 * scale)) throw new RangeError('solveLinear: the matrix is singular');
    if (pivot !== col) {
      for (let k = 0; k < n; k++) [a[col * n + k], a[pivot * n + k]] = [a[pivot * n + k]!, a[col * n + k]!];
      for (let k = 0; k < m; k++) [x[col * m + k], x[pivot * m + k]] = [x[pivot * m + k]!, x[col * m + k]!];
    }
    for (let r = col + 1; r < n; r++) {
      const f = a[r * n + col]! / a[col * n + col]!;
      if (f === 0) continue;
      for (let k = col; k < n; k++) a[r * n + k] = a[r * n + k]! - f * a[col * n + k]!;
      for (let k = 0; k < m; k++) x[r * m + k] = x[r * m + k]! - f * x[col * m + k]!;
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    for (let k = 0; k < m; k++) {
      let s = x[r * m + k]!;
      for (let j = r + 1; j < n; j++) s -= a[r * n + j]! * x[j * m + k]!;
      x[r * m + k] = s / a[r * n + r]!;
    }
  }
  return x;
}
