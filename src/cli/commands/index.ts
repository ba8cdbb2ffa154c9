import type { Command } from '../command.js';
import { applyCommand } from './apply.js';
import { compareCommand } from './compare.js';
import { conformalCommand } from './conformal.js';
import { demoCommand } from './demo.js';
import { evalCommand } from './eval.js';
import { exportCommand } from './export.js';
import { fitCommand } from './fit.js';
import { lossCommand } from './loss.js';
import { oodCommand } from './ood.js';
import { plotCommand } from './plot.js';
import { predictCommand } from './predict.js';
import { reportCommand } from './report.js';
import { suiteCommand } from './suite.js';
import { trainCommand } from './train.js';
import { workerCommand } from './worker.js';

/** The `calib` command table, in the order of `calib --help`. Adding a command: one file here + one line below. */
export const COMMANDS: readonly Command[] = [
  evalCommand,
  fitCommand,
  compareCommand,
  applyCommand,
  predictCommand,
  exportCommand,
  plotCommand,
  oodCommand,
  conformalCommand,
  trainCommand,
  demoCommand,
  suiteCommand,
  reportCommand,
  workerCommand,
  lossCommand,
];
