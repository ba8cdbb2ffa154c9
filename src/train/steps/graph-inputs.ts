/**
 * Inputs of a graph traced by hand (`buildGraph`): placeholders declared one at a time, in the order the graph
 * takes them.
 */
import { type DType, placeholder, type Shape, type Tensor } from '../../engine/index.js';

/** The placeholders declared so far, and the function that declares the next one. */
export interface GraphInputs {
  readonly inputs: Tensor[];
  input(name: string, dtype: DType, shape: Shape): Tensor;
}

/** Start declaring the inputs of a graph. */
export function graphInputs(): GraphInputs {
  const inputs: Tensor[] = [];
  const input = (name: string, dtype: DType, shape: Shape): Tensor => {
    const t = placeholder(name, { dtype, shape });
    inputs.push(t);
    return t;
  };
  return { inputs, input };
}
