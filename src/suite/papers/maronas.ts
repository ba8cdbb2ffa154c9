/**
 * Maroñas et al. (2021, "On calibration of mixup training for deep neural networks"): the baseline B and B+M
 * (mixup), MMCE and MMCE+M, ARC and ARC+M (the Accuracy-versus-Confidence term, V1/V2, M ∈ {1, 15, {5,15,30}}, on the
 * mixed image or on the two sources, or on a held-out split). Claims: mixup alone does not always calibrate
 * (B+M vs B); ARC+M < B+M on ECE; ARC on the sources at least as good as on the mixed image.
 */
import { BASE, CIFAR_RECIPE, MACHINE, QUICK } from './scales.js';

const ALPHA = 1;

export const MARONAS_SUITE = {
  summary: 'Maroñas et al. 2021: B, B+M, MMCE(+M), ARC(+M) V1/V2, M ∈ {1, 15, {5,15,30}}, on the mixed image or the sources',
  suite: {
    name: 'maronas',
    description:
      'Maroñas et al. 2021, Tables 1–4: does mixup (α = 1) calibrate by itself, and does adding ARC (or MMCE) to mixup lower ECE, with the term on the mixed image or on the two source batches? quick: MNIST MLP smoke test; machine: a 512-unit MLP on 10,000 Fashion-MNIST images, 30 epochs, no weight decay, last epoch (CE ends overconfident there), 3 seeds; paper: CIFAR-10 wide ResNet-28-10, 200 epochs.',
    base: BASE,
    scales: {
      quick: QUICK,
      machine: MACHINE,
      paper: { ...CIFAR_RECIPE, model: 'wrn-28-10', epochs: 200, schedule: 'multistep:0.5,0.75' },
    },
    methods: [
      { name: 'b', label: 'B', loss: 'ce' },
      { name: 'bm', label: 'B+M', loss: 'ce', mixup: ALPHA },
      { name: 'mmce', label: 'MMCE', loss: 'ce', secondary: 'mmce' },
      { name: 'mmce-m', label: 'MMCE+M', loss: 'ce', secondary: 'mmce', mixup: ALPHA },
      { name: 'arc', label: 'ARC V1 M=15', loss: 'ce', secondary: 'arc', secondaryOptions: { version: 'v1', bins: [15] } },
      { name: 'arc-m', label: 'ARC+M V1 M=15 (mixed)', loss: 'ce', secondary: 'arc', secondaryOptions: { version: 'v1', bins: [15] }, mixup: ALPHA },
      { name: 'arc-m-src', label: 'ARC+M V1 M=15 (sources)', loss: 'ce', secondary: 'arc', secondaryOptions: { version: 'v1', bins: [15] }, mixup: ALPHA, arcPlacement: 'sources' },
      { name: 'arc-m-v2', label: 'ARC+M V2 M=15', loss: 'ce', secondary: 'arc', secondaryOptions: { version: 'v2', bins: [15] }, mixup: ALPHA },
      { name: 'arc-m-m1', label: 'ARC+M V1 M=1', loss: 'ce', secondary: 'arc', secondaryOptions: { version: 'v1', bins: [1] }, mixup: ALPHA },
      { name: 'arc-m-multi', label: 'ARC+M V1 M={5,15,30}', loss: 'ce', secondary: 'arc', secondaryOptions: { version: 'v1', bins: [5, 15, 30] }, mixup: ALPHA },
    ],
    seeds: [0, 1, 2],
    posthoc: ['temperature'],
    select: 'nll',
    compare: ['bm < b on ece', 'arc-m < bm on ece', 'arc-m-src < bm on ece', 'mmce-m < bm on ece', 'arc < b on ece', 'arc-m < b on ece after temperature'],
  },
};
