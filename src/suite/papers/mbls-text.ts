/**
 * MbLS (Liu et al., CVPR 2022) on text, Table 6: CE, LS, focal loss and MbLS (m = 6, the margin chosen for
 * 20 Newsgroups, α = 0.1) on 20 Newsgroups with a global-pooling CNN (GPCN) over GloVe embeddings, Adam η = 10⁻³,
 * 100 epochs, η ÷10 after 50 (Appendix B). Claim: MbLS has the lowest ECE of the losses on text too.
 * A separate suite from `mbls` because its scales change the dataset and model (see thulasidasan-text.ts).
 */
import { BASE } from './scales.js';
import { NEWSGROUPS_PAPER, TEXT_MACHINE, TEXT_QUICK } from './text-scales.js';

export const MBLS_TEXT_SUITE = {
  summary: 'MbLS (Liu et al. 2022) Table 6: text CNN, CE, LS, FL and MbLS m=6 on Debian package descriptions / 20 Newsgroups',
  suite: {
    name: 'mbls-text',
    description:
      'Liu et al. 2022, Table 6: does margin-based label smoothing (m = 6) give a text CNN lower ECE than CE, LS and focal loss? quick: a small text CNN on 2,000 Debian package descriptions, 5 epochs (smoke test); machine: Debian package descriptions by Section (20 sections, 11,000 descriptions, read from apt\'s lists), a 64-dimensional text CNN, 15 epochs of Adam without dropout or weight decay, last epoch (CE ends overconfident there), 3 seeds; paper: 20 Newsgroups bydate (900 validation posts as in the paper\'s split), a text CNN with 100-d embeddings trained from scratch (the paper\'s GPCN starts from GloVe), Adam η = 10⁻³ for 100 epochs, ÷10 after 50, best validation accuracy.',
    base: BASE,
    scales: {
      quick: TEXT_QUICK,
      machine: TEXT_MACHINE,
      paper: { ...NEWSGROUPS_PAPER, modelOptions: { embeddingDim: 100, filters: 100, dropout: 0.5 }, batch: 64, epochs: 100, lr: 0.001, schedule: 'multistep:0.5', select: 'accuracy' },
    },
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'ls', label: 'LS ε=0.05', loss: 'ls', lossOptions: { epsilon: 0.05 } },
      { name: 'focal', label: 'FL γ=3', loss: 'focal', lossOptions: { gamma: 3 } },
      { name: 'mbls', label: 'MbLS m=6', loss: 'mbls', lossOptions: { margin: 6 } },
    ],
    seeds: [0, 1, 2],
    posthoc: ['temperature'],
    compare: ['mbls < ce on ece', 'mbls < ls on ece', 'mbls < focal on ece', 'mbls < ce on ece after temperature'],
  },
};
