/**
 * Groups the nodes of a lowered train-step graph into the op families that issue 24 asks about (forward conv, dX
 * conv, dW im2col / shifted copies / GEMM, batch norm forward and backward, ReLU backward, NCHWc reorders,
 * transposes, pad/slice, adds, pooling…), so that ORT's per-node profile can be summed by family
 * (`train-step --profile`, `profile_train_step_ms_by_family`).
 *
 * Forward = every node the loss (SoftmaxCrossEntropyLoss) depends on; the rest is the backward pass. Within each
 * side a node's family follows from its op type, its attributes (a 3-D or grouped Conv is an im2col) and, for the
 * element-wise ops of the backward pass, from what feeds it: a Mul of a Cast (ReLU mask) is ReLU backward, a Mul,
 * ReduceSum or Add that consumes a batch-norm-related value is batch-norm backward, Pad/Concat feeding the dW GEMM
 * are the shifted copies. It is a heuristic for a profile table, not a semantic analysis.
 */
import type { OnnxNode } from '../src/engine/onnx/onnx-model.js';

/** Family of each node, keyed by the profiler's node name `n{k}_{opType}`. */
export function opFamilies(nodes: readonly OnnxNode[]): Map<string, string> {
  const producer = new Map<string, number>();
  nodes.forEach((n, k) => n.outputs.forEach((o) => producer.set(o, k)));
  const loss = nodes.findIndex((n) => n.opType === 'SoftmaxCrossEntropyLoss');
  const forward = new Set<number>();
  const stack = loss >= 0 ? [loss] : [];
  while (stack.length) {
    const k = stack.pop()!;
    if (forward.has(k)) continue;
    forward.add(k);
    for (const i of nodes[k]!.inputs) {
      const p = producer.get(i);
      if (p !== undefined) stack.push(p);
    }
  }
  const consumers = new Map<number, number[]>();
  nodes.forEach((n, k) =>
    n.inputs.forEach((i) => {
      const p = producer.get(i);
      if (p !== undefined) consumers.set(p, [...(consumers.get(p) ?? []), k]);
    }),
  );
  const op = (k: number | undefined): string => (k === undefined ? '' : nodes[k]!.opType);
  const inputsOps = (n: OnnxNode): string[] => n.inputs.map((i) => op(producer.get(i)));
  const feedsGemm = (k: number): boolean => {
    // Pad → Concat → Reshape → Gemm/MatMul: the shifted copies of the dW recipe.
    const seen = new Set<number>();
    const todo = [k];
    while (todo.length) {
      const j = todo.pop()!;
      if (seen.has(j)) continue;
      seen.add(j);
      for (const c of consumers.get(j) ?? []) {
        const t = op(c);
        if (t === 'Gemm' || t === 'MatMul' || t === 'FusedMatMul') return true;
        if (t === 'Concat' || t === 'Reshape' || t === 'Pad') todo.push(c);
      }
    }
    return false;
  };
  const roles = new Map<string, string>();
  nodes.forEach((n, k) => {
    const fwd = forward.has(k);
    const t = n.domain === 'com.microsoft.nchwc' ? `nchwc.${n.opType}` : n.opType;
    let family: string;
    if (t === 'nchwc.ReorderInput' || t === 'nchwc.ReorderOutput') family = 'NCHWc reorders';
    else if (t === 'nchwc.Conv' || t === 'Conv' || t === 'ConvTranspose') {
      const ks = n.attrs['kernel_shape'];
      const g = n.attrs['group'];
      const im2col = (ks && ks.type === 'ints' && ks.value.length === 3) || (g && g.type === 'int' && g.value > 1);
      family = im2col ? 'dW im2col (one-hot Conv)' : fwd ? 'forward conv' : 'dX conv (incl. stride-2 ConvTranspose, shortcut)';
    } else if (t === 'Gemm' || t === 'MatMul' || t === 'FusedMatMul') family = fwd ? 'forward GEMM (linear head)' : 'dW GEMM (and linear head backward)';
    else if (t === 'Transpose') family = 'transposes (CNHW for dW, filter layouts, dW back to OIHW)';
    else if ((t === 'Pad' || t === 'Concat') && !fwd && feedsGemm(k)) family = 'dW shifted copies (Pad + Concat)';
    else if (t === 'Pad' || t === 'Slice' || t === 'Split' || t === 'Concat') family = 'pad / slice / split / concat (other)';
    else if (t === 'BatchNormalization') family = fwd ? 'BN forward' : 'BN backward';
    else if (fwd && t === 'Relu') family = 'ReLU forward';
    else if (fwd && t === 'Add') family = 'Add (forward: residual, bias)';
    else if (t === 'MaxPool' || t === 'Resize' || t === 'GlobalAveragePool' || t === 'AveragePool') family = 'pooling (and its backward)';
    else if (fwd) family = t === 'SoftmaxCrossEntropyLoss' ? 'loss' : 'other forward';
    else if (t === 'Greater' || t === 'Cast') family = 'ReLU backward';
    else if (t === 'Mul' && inputsOps(n).includes('Cast')) family = 'ReLU backward';
    else if (t === 'Mul' || t === 'ReduceSum' || t === 'Sub' || t === 'Div') {
      // per-channel work and the full-size products of batch norm's backward (Σdy, Σdy·x, k·dy)
      family = 'BN backward';
    } else if (t === 'Add') family = inputsOps(n).includes('BatchNormalization') ? 'BN backward' : 'Add (backward: gradient accumulation)';
    else family = `other backward (${t})`;
    roles.set(`n${k}_${n.opType}`, family);
  });
  return roles;
}
