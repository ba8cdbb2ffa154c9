/**
 * The closed set of primitives, by name. Nothing registers itself: this list is written out by hand, and the
 * op-test table checks that every entry is covered.
 */
import type { Primitive } from '../ir/primitive.js';
import { addOp } from './math/add.js';
import { subOp } from './math/sub.js';
import { mulOp } from './math/mul.js';
import { divOp } from './math/div.js';
import { powOp } from './math/pow.js';
import { maximumOp } from './math/maximum.js';
import { minimumOp } from './math/minimum.js';
import { negOp } from './math/neg.js';
import { expOp } from './math/exp.js';
import { logOp } from './math/log.js';
import { tanhOp } from './math/tanh.js';
import { sigmoidOp } from './math/sigmoid.js';
import { reluOp } from './math/relu.js';
import { absOp } from './math/abs.js';
import { signOp } from './math/sign.js';
import { sqrtOp } from './math/sqrt.js';
import { softplusOp } from './math/softplus.js';
import { floorOp } from './math/floor.js';
import { clipOp } from './math/clip.js';
import { equalOp } from './logic/equal.js';
import { lessOp } from './logic/less.js';
import { lessEqualOp } from './logic/less-equal.js';
import { greaterOp } from './logic/greater.js';
import { greaterEqualOp } from './logic/greater-equal.js';
import { logicalAndOp } from './logic/logical-and.js';
import { logicalOrOp } from './logic/logical-or.js';
import { logicalNotOp } from './logic/logical-not.js';
import { whereOp } from './logic/where.js';
import { castOp } from './logic/cast.js';
import { stopGradientOp } from './stop-gradient.js';
import { matmulOp } from './layers/matmul.js';
import { sumOp } from './reduce/sum.js';
import { meanOp } from './reduce/mean.js';
import { maxOp } from './reduce/max.js';
import { minOp } from './reduce/min.js';
import { argmaxOp } from './reduce/argmax.js';
import { argminOp } from './reduce/argmin.js';
import { reshapeOp } from './shape/reshape.js';
import { transposeOp } from './shape/transpose.js';
import { sliceOp } from './shape/slice.js';
import { padOp } from './shape/pad.js';
import { concatOp } from './shape/concat.js';
import { expandOp } from './shape/expand.js';
import { gatherOp } from './shape/gather.js';
import { takeAlongAxisOp } from './shape/take-along-axis.js';
import { scatterNDAddOp } from './shape/scatter-nd-add.js';
import { scatterElementsAddOp } from './shape/scatter-elements-add.js';
import { oneHotOp } from './shape/one-hot.js';
import { fillOp } from './shape/fill.js';
import { softmaxOp } from './reduce/softmax.js';
import { logSoftmaxOp } from './reduce/log-softmax.js';
import { softmaxCrossEntropyOp } from './reduce/softmax-cross-entropy.js';
import { conv2dOp } from './layers/conv2d.js';
import { convTranspose2dOp } from './layers/conv-transpose2d.js';
import { maxPool2dOp } from './layers/max-pool2d.js';
import { avgPool2dOp } from './layers/avg-pool2d.js';
import { batchNormTrainingOp } from './layers/batch-norm-training.js';
import { channelAffineOp } from './layers/channel-affine.js';
import { maxPool2x2Op } from './layers/max-pool2x2.js';
import { upsample2xOp } from './layers/upsample2x.js';
import { im2colCnhwOp } from './layers/im2col-cnhw.js';

/** All primitives (name → definition). */
export function primitives(): ReadonlyMap<string, Primitive<any>> {
  const list: Primitive<any>[] = [
    addOp,
    subOp,
    mulOp,
    divOp,
    powOp,
    maximumOp,
    minimumOp,
    negOp,
    expOp,
    logOp,
    tanhOp,
    sigmoidOp,
    reluOp,
    absOp,
    signOp,
    sqrtOp,
    softplusOp,
    floorOp,
    clipOp,
    equalOp,
    lessOp,
    lessEqualOp,
    greaterOp,
    greaterEqualOp,
    logicalAndOp,
    logicalOrOp,
    logicalNotOp,
    whereOp,
    castOp,
    stopGradientOp,
    matmulOp,
    sumOp,
    meanOp,
    maxOp,
    minOp,
    argmaxOp,
    argminOp,
    reshapeOp,
    transposeOp,
    sliceOp,
    padOp,
    concatOp,
    expandOp,
    gatherOp,
    takeAlongAxisOp,
    scatterNDAddOp,
    scatterElementsAddOp,
    oneHotOp,
    fillOp,
    softmaxOp,
    logSoftmaxOp,
    softmaxCrossEntropyOp,
    conv2dOp,
    convTranspose2dOp,
    maxPool2dOp,
    avgPool2dOp,
    batchNormTrainingOp,
    im2colCnhwOp,
    channelAffineOp,
    maxPool2x2Op,
    upsample2xOp,
  ];
  return new Map(list.map((p) => [p.name, p]));
}
