/**
 * Thulasidasan et al. (NeurIPS 2019) §4, "Experiments on natural language data": a sentence-level CNN (Kim 2014)
 * trained with mixup on the word embeddings ("we modify the mixup strategy to perform mixup on the embeddings layer
 * rather than directly on the input documents"), against plain CE, on MR, TREC and IMDB (Fig. 4: mixup improves
 * ECE and overconfidence on every set). The text of §4 does not give α; the paper's image experiments find the best
 * ECE for α ∈ [0.2, 0.4] and use α = 0.4 in Table 1, so the text rows use α = 0.4. Label smoothing (ε = 0.1 on
 * the other classes) and ERL are the paper's comparison methods (Fig. 2, middle row), here on text (the suite's own
 * checks: the paper has them on images only). The claims are THULASIDASAN_TEXT_CLAIMS (thulasidasan-claims.ts).
 * Every run at its best validation-accuracy epoch (§3.1, "for all experiments"; Kim 2014 early-stops on a dev set
 * too), 5 seeds at every scale.
 * A separate suite from `thulasidasan` because its scales change the dataset and model (text CNN on token ids);
 * methods override scales, so text rows inside the image suite would train text at every scale.
 */
import { BASE } from './scales.js';
import { THULASIDASAN_TEXT_CLAIMS } from './thulasidasan-claims.js';
import { NEWSGROUPS_PAPER, TEXT_MACHINE, TEXT_QUICK } from './text-scales.js';
import type { BuiltinSuite } from '../suite-schema.js';

export const THULASIDASAN_TEXT_SUITE = {
  summary: 'Thulasidasan et al. 2019 §4: text CNN, CE vs embedding mixup (α=0.4), LS and ERL on Debian package descriptions / 20 Newsgroups',
  suite: {
    name: 'thulasidasan-text',
    description:
      "Thulasidasan et al. 2019, §4 and Fig. 4: does mixup on the word embeddings of a text CNN lower ECE and overconfidence relative to CE (and to LS, ERL)? quick: a small text CNN on 2,000 Debian package descriptions, 5 epochs (smoke test); machine: Debian package descriptions by Section (20 sections, read from apt's lists; 10,000 train, 5,000 validate), a 64-dimensional text CNN, 15 epochs of Adam without dropout or weight decay, best validation-accuracy epoch (§3.1; CE is overconfident there), 5 seeds (20 runs); paper: 20 Newsgroups (the closest to the paper's MR/TREC/IMDB the loaders support), Kim's CNN (300-d embeddings trained from scratch, no GloVe), 25 epochs, batch 50.",
    base: { ...BASE, epochLogits: true },
    scales: {
      quick: { ...TEXT_QUICK, select: 'accuracy' },
      // TEXT_MACHINE's 10,000 training and 5,000 validation descriptions (the epoch is chosen on the latter, TS fitted on it).
      machine: { ...TEXT_MACHINE, select: 'accuracy' },
      // Kim 2014: widths 3, 4, 5 × 100 filters, dropout 0.5, batch 50, 25 epochs (Adadelta there; Adam here).
      paper: { ...NEWSGROUPS_PAPER, modelOptions: { embeddingDim: 300, filters: 100, dropout: 0.5 }, batch: 50, epochs: 25, lr: 0.001, schedule: 'constant', select: 'accuracy' },
    },
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'mixup', label: 'Embedding mixup α=0.4', loss: 'ce', mixup: 0.4, mixupKind: 'embedding' },
      { name: 'ls', label: 'LS ε=0.1 (others)', loss: 'ls', lossOptions: { epsilon: 0.1, variant: 'others' } },
      { name: 'erl', label: 'ERL', loss: 'erl' },
    ],
    seeds: [0, 1, 2, 3, 4],
    posthoc: ['temperature'],
    claims: THULASIDASAN_TEXT_CLAIMS,
  },
} satisfies BuiltinSuite;
