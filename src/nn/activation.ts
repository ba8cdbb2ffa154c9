/**
 * Activations selectable by name in the zoo. ReLU is the default everywhere; tanh and softplus are smooth,
 * for finite-difference gradient checks of whole models (ReLU kinks make central differences unreliable).
 * softplus(x) = log(1 + eˣ) = max(x, 0) + log(1 + e^−|x|) (stable for |x| large).
 */
import { type Tensor } from '../engine/index.js';
import { string } from '../util/schema.js';

/** Activation names. */
export const ACTIVATIONS = ['relu', 'tanh', 'softplus'] as const;
export type Activation = (typeof ACTIVATIONS)[number];

/** The schema of an activation option (util/schema.ts). */
export const ACTIVATION_SCHEMA = string(ACTIVATIONS);

/** Validate an activation name (`argument: expected one of 'relu', 'tanh', 'softplus', got …`). */
export function checkActivation(argument: string, value: unknown): Activation {
  return ACTIVATION_SCHEMA.parse(value, argument);
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
