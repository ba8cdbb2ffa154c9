import { apply } from '../../ir/apply.js';
import type { Primitive, TensorType } from '../../ir/primitive.js';
import { formatShape, shapeSize } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { add } from '../math/add.js';
import { channelAffine } from './channel-affine.js';
import { checkDType } from '../math/elementwise.js';
import { div } from '../math/div.js';
import { mul } from '../math/mul.js';
import { reshape } from '../shape/reshape.js';
import { sqrt } from '../math/sqrt.js';
import { sub } from '../math/sub.js';
import { sum } from '../reduce/sum.js';

/** Attributes of training-mode batch normalisation. */
export interface BatchNormTrainingAttrs {
  readonly epsilon: number;
}

/**
 * Training-mode batch normalisation over every axis but 1 (x [N, C, ...], scale γ [C], bias β [C]):
 * μ_c = mean x, σ²_c = biased variance, y = γ (x − μ) / √(σ² + ε) + β. Outputs (y, μ [C], σ² [C]).
 * Lowered to BatchNormalization(training_mode = 1, momentum = 0); each node's running-stat inputs are its own
 * initializers with distinct contents (ENGINE-NOTES gotcha; see `emit` for the mechanism we measured).
 * VJP (ENGINE-NOTES recipe, on an [N, C, HW] view with M = N·HW, r = 1/√(σ² + ε)): two reductions
 * Σdy and Σdy·x, S = r(Σdy·x − μΣdy) (= Σ dy·x̂); dγ = S, dβ = Σdy, dx = k·dy + b·x + c with k = γr,
 * b = −γr²S/M, c = −γrΣdy/M − bμ, where b·x + c is one `channelAffine` pass; cotangents of μ and σ² (if used) add g_μ/M + g_σ²·2(x − μ)/M.
 */
export const batchNormTrainingOp: Primitive<BatchNormTrainingAttrs> = {
  name: 'batchNormTraining',
  infer([x, scale, bias]) {
    checkDType('batchNormTraining', x!.dtype, 'float');
    if (x!.shape.length < 2) shapeError('batchNormTraining', `input must have rank ≥ 2 ([N, C, ...]), got ${formatShape(x!.shape)}`);
    const c = x!.shape[1]!;
    for (const [what, t] of [
      ['scale', scale!],
      ['bias', bias!],
    ] as [string, TensorType][]) {
      if (t.dtype !== x!.dtype || t.shape.length !== 1 || t.shape[0] !== c) {
        shapeError('batchNormTraining', `${what} must be ${x!.dtype}[${c}] for input ${formatShape(x!.shape)}, got ${t.dtype}${formatShape(t.shape)}`);
      }
    }
    return [
      { dtype: x!.dtype, shape: x!.shape },
      { dtype: x!.dtype, shape: [c] },
      { dtype: x!.dtype, shape: [c] },
    ];
  },
  emit(node, ctx) {
    const x = node.inputTypes[0]!;
    const c = x.shape[1]!;
    // With momentum 0 the running inputs are multiplied by 0, so their values do not matter — but they must
    // DIFFER IN CONTENT: ORT's optimizer merges identical initializers (even at level 'basic'), and one buffer
    // as both input_mean and input_var makes the mean output alias the variance (measured: mean = variance).
    const id = ctx.serial();
    const mean0 = ctx.constant(x.dtype, [c], new Float64Array(c).fill(2 * id + 1), { unique: true });
    const var0 = ctx.constant(x.dtype, [c], new Float64Array(c).fill(2 * id + 2), { unique: true });
    ctx.node('BatchNormalization', [...node.inputs, mean0, var0], node.outputs, {
      epsilon: { type: 'float', value: node.attrs.epsilon },
      momentum: { type: 'float', value: 0 },
      training_mode: { type: 'int', value: 1 },
    });
  },
  vjp(args) {
    const [x, gamma] = args.inputs as [Tensor, Tensor];
    const [, mu, variance] = args.outputs as [Tensor, Tensor, Tensor];
    const [gy, gMu, gVar] = args.cotangents;
    const [n, c] = x.shape as [number, number];
    const hw = shapeSize(x.shape.slice(2));
    const m = n * hw;
    const view = [n, c, hw];
    const col = (t: Tensor) => reshape(t, [1, c, 1]);
    const x3 = reshape(x, view);
    const muC = col(mu);
    let dx: Tensor | null = null,
      dGamma: Tensor | null = null,
      dBeta: Tensor | null = null;
    if (gy) {
      const g3 = reshape(gy, view);
      const sumDy = sum(g3, [0, 2], true);
      const sumDyX = sum(mul(g3, x3), [0, 2], true);
      const r = div(1, sqrt(add(col(variance), args.attrs.epsilon)));
      const s = mul(r, sub(sumDyX, mul(muC, sumDy)));
      const k = mul(col(gamma), r);
      const b = mul(mul(k, mul(r, s)), -1 / m);
      const cc = sub(mul(mul(k, sumDy), -1 / m), mul(b, muC));
      dx = add(mul(k, g3), channelAffine(x3, reshape(b, [c]), reshape(cc, [c])));
      dGamma = reshape(s, [c]);
      dBeta = reshape(sumDy, [c]);
    }
    if (gMu) {
      const part = mul(col(gMu), 1 / m);
      dx = dx ? add(dx, part) : part;
    }
    if (gVar) {
      const part = mul(mul(col(gVar), sub(x3, muC)), 2 / m);
      dx = dx ? add(dx, part) : part;
    }
    return [dx ? reshape(dx, x.shape) : null, dGamma, dBeta];
  },
  reference([x, scale, bias], { epsilon }) {
    const [n, c] = x!.shape as [number, number];
    const hw = shapeSize(x!.shape.slice(2));
    const m = n * hw;
    const mean = new Float64Array(c),
      variance = new Float64Array(c);
    for (let ch = 0; ch < c; ch++) {
      let s = 0;
      for (let b = 0; b < n; b++) for (let q = 0; q < hw; q++) s += x!.data[(b * c + ch) * hw + q]!;
      mean[ch] = s / m;
      let v = 0;
      for (let b = 0; b < n; b++) for (let q = 0; q < hw; q++) v += (x!.data[(b * c + ch) * hw + q]! - mean[ch]!) ** 2;
      variance[ch] = v / m;
    }
    const y = new Float64Array(x!.data.length);
    for (let b = 0; b < n; b++)
      for (let ch = 0; ch < c; ch++) {
        const r = 1 / Math.sqrt(variance[ch]! + epsilon);
        for (let q = 0; q < hw; q++) {
          const k = (b * c + ch) * hw + q;
          y[k] = scale!.data[ch]! * (x!.data[k]! - mean[ch]!) * r + bias!.data[ch]!;
        }
      }
    return [
      { dtype: x!.dtype, shape: x!.shape, data: y },
      { dtype: x!.dtype, shape: [c], data: mean },
      { dtype: x!.dtype, shape: [c], data: variance },
    ];
  },
  formatAttrs: (a) => `epsilon=${a.epsilon}`,
};

/** Result of training-mode batch normalisation: normalised output and the batch statistics. */
export interface BatchStats {
  readonly y: Tensor;
  /** Batch mean per channel [C]. */
  readonly mean: Tensor;
  /** Biased batch variance per channel [C]. */
  readonly variance: Tensor;
}

/** Training-mode batch normalisation of x [N, C, ...] with scale and bias [C] (fused ONNX path). */
export function batchNormTraining(x: Tensor, scale: Tensor, bias: Tensor, epsilon = 1e-5): BatchStats {
  if (!(epsilon > 0)) shapeError('batchNormTraining', `epsilon must be positive, got ${epsilon}`);
  const [y, mean, variance] = apply(batchNormTrainingOp, [x, scale, bias], { epsilon }) as [Tensor, Tensor, Tensor];
  return { y, mean, variance };
}
