/**
 * calibkit engine: TypeScript traced into a static-shape graph, differentiated in reverse mode, emitted as
 * ONNX and run by onnxruntime-node. See README.md in this folder for a tour.
 */
export type { DType, HostArray } from './ir/dtype.js';
export type { Shape } from './ir/shape.js';
export { formatShape, shapeSize } from './ir/shape.js';
export { ShapeError } from './ir/shape-error.js';
export { Tensor, Node, type TensorLike } from './ir/tensor.js';
export type { Primitive, TensorType, HostTensor, VjpArgs, EmitContext, EmitNode, OnnxAttribute } from './ir/primitive.js';
export { type Graph, type GraphOutput, type TensorSpec, buildGraph } from './ir/graph.js';
export { printGraph } from './ir/printer.js';
export { checkGraph } from './ir/check.js';
export { trace, placeholder, type InputSpecs, type Placeholders, type TraceResult } from './trace.js';
export * as ops from './ops/functional.js';
export * from './ops/functional.js';
export { primitives } from './ops/primitives.js';
export { grad, vjp } from './autodiff/grad.js';
export { toOnnx, lowerToOnnx, ONNX_OPSET } from './onnx/emit.js';
export { compile, Session, type CompileOptions, type Feed, type RunOutputs, type ValueSignature } from './runtime/session.js';
export { jit, CompiledFunction, type JitSpec } from './runtime/jit.js';
export { FlatLayout, type FlatEntry } from './flat-layout.js';
export { evaluate, type ReferenceFeed } from './reference/evaluate.js';
export { checkGradients, assertGradients, type CheckInput, type GradCheckOptions, type GradCheckReport } from './testing/check-gradients.js';
