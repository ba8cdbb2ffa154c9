/**
 * MbLS (Liu et al., CVPR 2022) on text, Table 6 (with App. D's Table 7 row "20 News"): CE, LS, focal loss, FLSD-53 and
 * MbLS (m = 6, the margin the paper chose for 20 Newsgroups, λ = 0.1) on 20 Newsgroups with a global-pooling CNN
 * (GPCN) over GloVe embeddings, Adam η = 10⁻³, 100 epochs, η ÷10 after 50 (App. B). The official code's text trainer
 * (calibrate/engine/nlp_trainer.py) keeps the epoch of best validation accuracy and fits T by validation ECE on the
 * grid 0.1 … 10 (`set_temperature_ng`, `cross_validate='ece'`): the suite does both (`select: 'accuracy'`,
 * `ts-grid-ece`), and reports Guo et al.'s NLL fit (`temperature`) beside it. Claims: mbls-claims.ts (MBLS_TEXT_CLAIMS).
 * A separate suite from `mbls` because its scales change the dataset and model (see thulasidasan-text.ts).
 */
import { BASE } from './scales.js';
import { NEWSGROUPS_PAPER, TEXT_MACHINE, TEXT_QUICK } from './text-scales.js';
import { MARGIN_SEEDS, TEN_CLASS_MARGIN } from './margin-scales.js';
import { MBLS_TEXT_CLAIMS } from './mbls-claims.js';
import type { BuiltinSuite, SettingsInput } from '../suite-schema.js';

/** The margin MbLS chose on 20 Newsgroups (§5 "Our method"; the same value as CIFAR-10's). */
export const NEWSGROUPS_MARGIN = TEN_CLASS_MARGIN;

/**
 * The machine scale of mbls-text: TEXT_MACHINE (its 5,000-description validation split is what the checkpoint
 * selection and the TS fit use) with the checkpoint of best validation accuracy instead of the last epoch and η ÷ 10
 * after half the epochs (App. B: after 50 of 100), as the paper and its code.
 */
export const MBLS_TEXT_MACHINE: SettingsInput = { ...TEXT_MACHINE, select: 'accuracy', schedule: 'multistep:0.5' };

export const MBLS_TEXT_SUITE = {
  summary: 'MbLS (Liu et al. 2022) Table 6: text CNN, CE, LS, FL, FLSD and MbLS m=6 on Debian package descriptions / 20 Newsgroups',
  suite: {
    name: 'mbls-text',
    description:
      'Liu et al. 2022, Table 6 and Table 7 (20 News): does margin-based label smoothing (m = 6, λ = 0.1) give a text CNN lower ECE than CE, LS, focal loss and FLSD-53, with accuracy at least as good, and how does it compare after TS? quick: a small text CNN on 2,000 Debian package descriptions, 5 epochs (smoke test); ' +
      "machine: Debian package descriptions by Section (20 sections, read from apt's lists; 10,000 train, 5,000 validate), a 64-dimensional text CNN, 15 epochs of Adam η = 10⁻³ ÷10 after 7.5 epochs (the paper: after 50 of 100), without dropout or weight decay, the epoch of best validation accuracy, TS by validation ECE on the grid 0.1…10 (the official code), 5 seeds; " +
      "paper: 20 Newsgroups bydate (900 validation posts as in the paper's split), a text CNN with 100-d embeddings trained from scratch (the paper's GPCN starts from GloVe), Adam η = 10⁻³ for 100 epochs, ÷10 after 50, best validation accuracy.",
    base: BASE,
    scales: {
      quick: TEXT_QUICK,
      machine: MBLS_TEXT_MACHINE,
      paper: { ...NEWSGROUPS_PAPER, modelOptions: { embeddingDim: 100, filters: 100, dropout: 0.5 }, batch: 64, epochs: 100, lr: 0.001, schedule: 'multistep:0.5', select: 'accuracy' },
    },
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'ls', label: 'LS ε=0.05', loss: 'ls', lossOptions: { epsilon: 0.05 } },
      { name: 'focal', label: 'FL γ=3', loss: 'focal', lossOptions: { gamma: 3 } },
      { name: 'flsd', label: 'FLSD-53', loss: 'flsd53' },
      { name: 'mbls', label: 'MbLS m=6', loss: 'mbls', lossOptions: { margin: NEWSGROUPS_MARGIN, alpha: 0.1 } },
    ],
    seeds: MARGIN_SEEDS,
    posthoc: ['ts-grid-ece', 'temperature'],
    claims: MBLS_TEXT_CLAIMS,
  },
} satisfies BuiltinSuite;
