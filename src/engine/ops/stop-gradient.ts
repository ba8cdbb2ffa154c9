import { apply1 } from '../ir/apply.js';
import type { Primitive } from '../ir/primitive.js';
import type { Tensor } from '../ir/tensor.js';

/**
 * Identity in the forward pass (ONNX Identity, removed by ORT's optimizer); blocks gradients (no VJP), like
 * `jax.lax.stop_gradient` / `torch.Tensor.detach`. Used for detached maxima in log-sum-exp and for losses
 * whose paper stops gradients (AvUC-GS, ACLS, ARC accuracies).
 */
export const stopGradientOp: Primitive<Record<string, never>> = {
  name: 'stopGradient',
  infer: ([x]) => [{ dtype: x!.dtype, shape: x!.shape }],
  emit: (node, ctx) => ctx.node('Identity', node.inputs, node.outputs),
  reference: ([x]) => [x!],
};

/** x with gradients blocked. Constants are returned unchanged (they carry no gradient anyway). */
export function stopGradient(x: Tensor): Tensor {
  if (x.isConstant) return x;
  return apply1(stopGradientOp, [x], {});
}
