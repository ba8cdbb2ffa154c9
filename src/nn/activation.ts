/**
 * Activations selectable by name in the zoo. ReLU is the default everywhere; tanh and softplus are smooth,
 * for finite-difference gradient checks of whole models (ReLU kinks make central differences unreliable).
 * softplus(x) = log(1 + eˣ) = max(x, 0) + log(1 + e^−|x|) (stable for |x| large).
 */
import { type Tensor } from '../engine/index.js';
import { describe, InvalidArgumentError } from '../util/errors.js';

/** Activation names. */
export type Activation = 'relu' | 'tanh' | 'softplus';

/** Validate an activation name. */
export function checkActivation(argument: string, value: unknown): Activation {
  if (value !== 'relu' && value !== 'tanh' && value !== 'softplus') throw new InvalidArgumentError(argument, 'relu, tanh or softplus', describe(value));
  return value;
}

/** Apply the named activation element-wise. */
export function activate(name: Activation, x: Tensor): Tensor {
  switch (name) {
    case 'relu':
      return x.relu();
    case 'tanh':
      return x.tanh();
    case 'softplus':
      return x.relu().add(x.abs().neg().exp().add(1).log());
  }
}
