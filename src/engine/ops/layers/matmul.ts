import { apply1 } from '../../ir/apply.js';
import type { Primitive, TensorType } from '../../ir/primitive.js';
import { broadcastShapes, formatShape, shapeSize } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { broadcastIndexMap } from '../../reference/kernels.js';
import { checkDType, ct0 } from '../math/elementwise.js';

/** Options of `matmul`: transpose the last two axes of an operand before multiplying. */
export interface MatmulOptions {
  readonly transA?: boolean;
  readonly transB?: boolean;
}

/** Attributes of the matmul primitive. */
export interface MatmulAttrs {
  readonly transA: boolean;
  readonly transB: boolean;
}

/**
 * Matrix product over the last two axes, batch axes broadcast: A [..., m, k] · B [..., k, n] → [..., m, n]
 * (A given as [..., k, m] when transA, B as [..., n, k] when transB). Lowered to MatMul; with a transpose to
 * Gemm (2-D) or com.microsoft FusedMatMul (batched), so no Transpose node is ever materialised.
 * VJP (C = AB): dA = G·Bᵀ, dB = Aᵀ·G, with the transposes folded into the flags (table in the code).
 */
export const matmulOp: Primitive<MatmulAttrs> = {
  name: 'matmul',
  infer(inputs, attrs) {
    return [matmulType(inputs[0]!, inputs[1]!, attrs)];
  },
  emit(node, ctx) {
    const { transA, transB } = node.attrs;
    const rank = Math.max(node.inputTypes[0]!.shape.length, node.inputTypes[1]!.shape.length);
    if (!transA && !transB) ctx.node('MatMul', node.inputs, node.outputs);
    else if (rank === 2) {
      ctx.node('Gemm', node.inputs, node.outputs, { transA: { type: 'int', value: transA ? 1 : 0 }, transB: { type: 'int', value: transB ? 1 : 0 } });
    } else {
      ctx.node(
        'FusedMatMul',
        node.inputs,
        node.outputs,
        {
          transA: { type: 'int', value: transA ? 1 : 0 },
          transB: { type: 'int', value: transB ? 1 : 0 },
          alpha: { type: 'float', value: 1 },
        },
        'com.microsoft',
      );
    }
  },
  vjp(args) {
    const g = ct0(args);
    const [a, b] = args.inputs as [Tensor, Tensor];
    const { transA, transB } = args.attrs;
    if (!transA && !transB) return [matmul(g, b, { transB: true }), matmul(a, g, { transA: true })];
    if (transA && !transB) return [matmul(b, g, { transB: true }), matmul(a, g)];
    if (!transA && transB) return [matmul(g, b), matmul(g, a, { transA: true })];
    return [matmul(b, g, { transA: true, transB: true }), matmul(g, a, { transA: true, transB: true })];
  },
  reference([a, b], { transA, transB }) {
    const type = matmulType(a!, b!, { transA, transB });
    const ra = a!.shape.length,
      rb = b!.shape.length;
    const [m, k] = transA ? [a!.shape[ra - 1]!, a!.shape[ra - 2]!] : [a!.shape[ra - 2]!, a!.shape[ra - 1]!];
    const n = transB ? b!.shape[rb - 2]! : b!.shape[rb - 1]!;
    const batch = type.shape.slice(0, -2);
    const nb = shapeSize(batch);
    const ia = broadcastIndexMap(a!.shape.slice(0, -2), batch);
    const ib = broadcastIndexMap(b!.shape.slice(0, -2), batch);
    const out = new Float64Array(nb * m * n);
    const [sam, sak] = transA ? [1, m] : [k, 1];
    const [sbk, sbn] = transB ? [1, k] : [n, 1];
    for (let bi = 0; bi < nb; bi++) {
      const oa = ia[bi]! * m * k,
        ob = ib[bi]! * k * n,
        oc = bi * m * n;
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let s = 0;
          for (let p = 0; p < k; p++) s += a!.data[oa + i * sam + p * sak]! * b!.data[ob + p * sbk + j * sbn]!;
          out[oc + i * n + j] = s;
        }
      }
    }
    return [{ dtype: type.dtype, shape: type.shape, data: out }];
  },
  formatAttrs: (a) => [a.transA ? 'transA' : '', a.transB ? 'transB' : ''].filter(Boolean).join(' '),
};

function matmulType(a: TensorType, b: TensorType, { transA, transB }: MatmulAttrs): TensorType {
  if (a.dtype !== b.dtype) shapeError('matmul', `dtypes ${a.dtype} and ${b.dtype} differ (cast one operand explicitly)`);
  checkDType('matmul', a.dtype, 'numeric');
  if (a.shape.length < 2 || b.shape.length < 2) {
    shapeError('matmul', `operands need rank ≥ 2, got shapes ${formatShape(a.shape)} and ${formatShape(b.shape)} (reshape vectors to [1,k] or [k,1])`);
  }
  const ra = a.shape.length,
    rb = b.shape.length;
  const [m, ka] = transA ? [a.shape[ra - 1]!, a.shape[ra - 2]!] : [a.shape[ra - 2]!, a.shape[ra - 1]!];
  const [kb, n] = transB ? [b.shape[rb - 1]!, b.shape[rb - 2]!] : [b.shape[rb - 2]!, b.shape[rb - 1]!];
  if (ka !== kb) {
    const flags = [transA ? 'transA' : '', transB ? 'transB' : ''].filter(Boolean).join(', ');
    shapeError('matmul', `shapes ${formatShape(a.shape)} and ${formatShape(b.shape)}${flags ? ` (${flags})` : ''} are incompatible (${ka} ≠ ${kb})`);
  }
  const batch = broadcastShapes('matmul', a.shape.slice(0, -2), b.shape.slice(0, -2));
  return { dtype: a.dtype, shape: [...batch, m, n] };
}

/** Matrix product of the last two axes (batch axes broadcast); see `matmulOp`. */
export function matmul(a: Tensor, b: Tensor, options: MatmulOptions = {}): Tensor {
  return apply1(matmulOp, [a, b], { transA: options.transA === true, transB: options.transB === true });
}
