/**
 * The closed set of primitives, by name. Nothing registers itself: this list is written out by hand, and the
 * op-test table checks that every entry is covered.
 */
import type { Primitive } from '../ir/primitive.js';
import { addOp } from './add.js';
import { subOp } from './sub.js';
import { mulOp } from './mul.js';
import { divOp } from './div.js';
import { powOp } from './pow.js';
import { maximumOp } from './maximum.js';
import { minimumOp } from './minimum.js';
import { negOp } from './neg.js';
import { expOp } from './exp.js';
import { logOp } from './log.js';
import { tanhOp } from './tanh.js';
import { sigmoidOp } from './sigmoid.js';
import { reluOp } from './relu.js';
import { absOp } from './abs.js';
import { signOp } from './sign.js';
import { sqrtOp } from './sqrt.js';
import { softplusOp } from './softplus.js';
import { floorOp } from './floor.js';
import { clipOp } from './clip.js';
import { equalOp } from './equal.js';
import { lessOp } from './less.js';
import { lessEqualOp } from './less-equal.js';
import { greaterOp } from './greater.js';
import { greaterEqualOp } from './greater-equal.js';
import { logicalAndOp } from './logical-and.js';
import { logicalOrOp } from './logical-or.js';
import { logicalNotOp } from './logical-not.js';
import { whereOp } from './where.js';
import { castOp } from './cast.js';
import { stopGradientOp } from './stop-gradient.js';
import { matmulOp } from './matmul.js';
import { sumOp } from './sum.js';
import { meanOp } from './mean.js';
import { maxOp } from './max.js';
import { minOp } from './min.js';
import { argmaxOp } from './argmax.js';
import { argminOp } from './argmin.js';
import { reshapeOp } from './reshape.js';
import { transposeOp } from './transpose.js';
import { sliceOp } from './slice.js';
import { padOp } from './pad.js';
import { concatOp } from './concat.js';
import { expandOp } from './expand.js';
import { gatherOp } from './gather.js';
import { takeAlongAxisOp } from './take-along-axis.js';
import { scatterNDAddOp } from './scatter-nd-add.js';
import { scatterElementsAddOp } from './scatter-elements-add.js';
import { oneHotOp } from './one-hot.js';
import { fillOp } from './fill.js';
import { softmaxOp } from './softmax.js';
import { logSoftmaxOp } from './log-softmax.js';
import { softmaxCrossEntropyOp } from './softmax-cross-entropy.js';
import { conv2dOp } from './conv2d.js';
import { convTranspose2dOp } from './conv-transpose2d.js';
import { maxPool2dOp } from './max-pool2d.js';
import { avgPool2dOp } from './avg-pool2d.js';
import { batchNormTrainingOp } from './batch-norm-training.js';
import { channelAffineOp } from './channel-affine.js';
import { maxPool2x2Op } from './max-pool2x2.js';
import { upsample2xOp } from './upsample2x.js';
import { im2colCnhwOp } from './im2col-cnhw.js';

/** All primitives (name → definition). */
export function primitives(): ReadonlyMap<string, Primitive<any>> {
  const list: Primitive<any>[] = [
    addOp, subOp, mulOp, divOp, powOp, maximumOp, minimumOp, negOp, expOp, logOp, tanhOp, sigmoidOp, reluOp, absOp,
    signOp, sqrtOp, softplusOp, floorOp, clipOp, equalOp, lessOp, lessEqualOp, greaterOp, greaterEqualOp, logicalAndOp,
    logicalOrOp, logicalNotOp, whereOp, castOp, stopGradientOp, matmulOp, sumOp, meanOp, maxOp, minOp, argmaxOp,
    argminOp, reshapeOp, transposeOp, sliceOp, padOp, concatOp, expandOp, gatherOp, takeAlongAxisOp, scatterNDAddOp,
    scatterElementsAddOp, oneHotOp, fillOp, softmaxOp, logSoftmaxOp, softmaxCrossEntropyOp,
    conv2dOp, convTranspose2dOp, maxPool2dOp, avgPool2dOp, batchNormTrainingOp, im2colCnhwOp,
    channelAffineOp, maxPool2x2Op, upsample2xOp,
  ];
  return new Map(list.map((p) => [p.name, p]));
}
