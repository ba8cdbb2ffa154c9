/**
 * MbLS (Liu et al., CVPR 2022, "The devil is in the margins"): CE, ECP, LS, FL, FLSD-53, MbLS with m = 0 (a plain
 * logit-distance penalty) and MbLS with its margin swept and chosen on validation, before and after temperature
 * scaling (Guo's NLL fit and the papers' grid-ECE fit). Claims: MbLS has the lowest ECE of the losses; a margin
 * m > 0 beats m = 0; ECE is U-shaped in m (the sweep curve).
 */
import { BASE, CIFAR_RECIPE, MACHINE, QUICK } from './scales.js';

export const MBLS_SUITE = {
  summary: 'MbLS (Liu et al. 2022): CE, ECP, LS, FL, FLSD-53, MbLS m=0 and the margin sweep, before/after TS',
  suite: {
    name: 'mbls',
    description:
      'Liu et al. 2022, Table 1/Fig. 3: does margin-based label smoothing give lower ECE than CE, ECP, LS, focal and FLSD-53, does a positive margin beat m = 0, and how does ECE depend on m? quick: MNIST MLP smoke test; machine: a 512-unit MLP on 10,000 Fashion-MNIST images, 30 epochs, no weight decay, last epoch (CE ends overconfident there), 3 seeds; paper: CIFAR-10 ResNet-50, 350 epochs, η ÷10 at 150 and 250.',
    base: BASE,
    scales: {
      quick: QUICK,
      machine: MACHINE,
      paper: { ...CIFAR_RECIPE, model: 'resnet50', epochs: 350, schedule: 'multistep:0.428571,0.714286' },
    },
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'ecp', label: 'ECP', loss: 'ecp', lossOptions: { alpha: 0.1 } },
      { name: 'ls', label: 'LS ε=0.05', loss: 'ls', lossOptions: { epsilon: 0.05 } },
      { name: 'focal', label: 'FL γ=3', loss: 'focal', lossOptions: { gamma: 3 } },
      { name: 'flsd', label: 'FLSD-53', loss: 'flsd53' },
      { name: 'mbls-m0', label: 'MbLS m=0', loss: 'mbls', lossOptions: { margin: 0 } },
      { name: 'mbls', label: 'MbLS', loss: 'mbls' },
    ],
    sweeps: [{ key: 'lossOptions.margin', values: [2, 4, 6, 10, 15], methods: ['mbls'], label: 'margin m' }],
    seeds: [0, 1, 2],
    posthoc: ['temperature'],
    select: 'nll',
    compare: [
      'mbls < ce on ece',
      'mbls < ls on ece',
      'mbls < focal on ece',
      'mbls < ecp on ece',
      'mbls < flsd on ece',
      'mbls < mbls-m0 on ece',
      'mbls < ce on ece after temperature',
    ],
  },
};
