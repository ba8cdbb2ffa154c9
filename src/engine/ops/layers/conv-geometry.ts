/**
 * Geometry shared by the 2-D convolution and pooling primitives (NCHW): attribute normalisation and output
 * sizes, following ONNX (pads = [top, left, bottom, right]; floor division, no ceil mode).
 */
import type { OnnxAttribute } from '../../ir/primitive.js';
import { formatShape } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';

/** Normalised window attributes. */
export interface Window2d {
  readonly strides: readonly [number, number];
  /** [top, left, bottom, right]. */
  readonly pads: readonly [number, number, number, number];
  readonly dilations: readonly [number, number];
}

/** User-facing window options: a number applies to both spatial axes. */
export interface Window2dOptions {
  readonly stride?: number | readonly [number, number];
  /** One number, [vertical, horizontal], or [top, left, bottom, right]. */
  readonly padding?: number | readonly [number, number] | readonly [number, number, number, number];
  readonly dilation?: number | readonly [number, number];
}

function pair(op: string, what: string, v: number | readonly number[] | undefined, dflt: number, min: number): [number, number] {
  const p = v === undefined ? [dflt, dflt] : typeof v === 'number' ? [v, v] : [...v];
  if (p.length !== 2 || !p.every((x) => Number.isInteger(x) && x >= min)) shapeError(op, `${what} must be an integer ≥ ${min} or a pair of them, got ${JSON.stringify(v)}`);
  return p as [number, number];
}

/** Normalise window options. */
export function window2d(op: string, o: Window2dOptions): Window2d {
  const strides = pair(op, 'stride', o.stride, 1, 1);
  const dilations = pair(op, 'dilation', o.dilation, 1, 1);
  const p = o.padding;
  let pads: [number, number, number, number];
  if (p === undefined) pads = [0, 0, 0, 0];
  else if (typeof p === 'number') pads = [p, p, p, p];
  else if (p.length === 2) pads = [p[0]!, p[1]!, p[0]!, p[1]!];
  else if (p.length === 4) pads = [...p] as [number, number, number, number];
  else shapeError(op, `padding must be a number, [vertical, horizontal] or [top, left, bottom, right], got ${JSON.stringify(p)}`);
  if (!pads.every((x) => Number.isInteger(x) && x >= 0)) shapeError(op, `padding must be non-negative integers, got ${JSON.stringify(p)}`);
  return { strides, pads, dilations };
}

/** Output spatial size of a window sweep: ⌊(H + pt + pb − d(k − 1) − 1) / s⌋ + 1 per axis. */
export function sweepSize(op: string, input: readonly number[], kernel: readonly [number, number], win: Window2d, inputShape: readonly number[]): [number, number] {
  const out = [0, 1].map((a) => {
    const span = input[a]! + win.pads[a]! + win.pads[a + 2]! - win.dilations[a]! * (kernel[a]! - 1) - 1;
    if (span < 0) shapeError(op, `kernel ${kernel.join('×')} (dilation ${win.dilations.join('×')}) does not fit input ${formatShape(inputShape)} with padding [${win.pads.join(',')}]`);
    return Math.floor(span / win.strides[a]!) + 1;
  });
  return out as [number, number];
}

/** Check a 4-D NCHW shape. */
export function requireNCHW(op: string, what: string, shape: readonly number[]): void {
  if (shape.length !== 4) shapeError(op, `${what} must be 4-D (NCHW), got ${formatShape(shape)}`);
}

/**
 * ONNX attributes of a window sweep (Conv, ConvTranspose, MaxPool, AveragePool), in this order: kernel_shape,
 * strides, pads and, unless `withDilations` is false (average pooling here takes no dilation: `avgPool2dOp`), dilations.
 */
export function windowOnnxAttrs(kernel: readonly number[], w: Window2d, withDilations = true): Record<string, OnnxAttribute> {
  return {
    kernel_shape: { type: 'ints', value: kernel },
    strides: { type: 'ints', value: w.strides },
    pads: { type: 'ints', value: w.pads },
    ...(withDilations ? { dilations: { type: 'ints', value: w.dilations } } : {}),
  };
}

/** Text of window attributes for the printer. */
export function formatWindow(w: Window2d): string {
  return `stride=${w.strides.join('×')} pads=[${w.pads.join(',')}] dilation=${w.dilations.join('×')}`;
}
