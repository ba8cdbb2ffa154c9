/**
 * The claims of Thulasidasan, Chennupati, Bilmes, Bhattacharya, Michalak, "On Mixup Training: Improved Calibration
 * and Predictive Uncertainty for Deep Neural Networks" (NeurIPS 2019; ../shared/papers/001_89eb2f32d8707467.txt),
 * read claim by claim (CLAIMS-SPEC.md): THULASIDASAN_CLAIMS for the image suite `thulasidasan` (§3, §5–§7 and the
 * appendices), THULASIDASAN_TEXT_CLAIMS for the text suite `thulasidasan-text` (§4). Each `paper.text` quotes the
 * paper's own numbers with their setting; `paper.difference` is left − right in the verdict's units (percentage
 * points for ECE, accuracy, AUROC and confidence). Checks the suites add that the paper does not make have origin
 * 'suite'.
 *
 * Which mixup a claim names (method names of thulasidasan.ts):
 * - `mixup`: α ∈ {0.1, 0.2, 0.4, 1} chosen by validation accuracy, the paper's rule for its in-distribution
 *   comparisons (§3.4: "We report the calibration error for the best performing model (in terms of validation
 *   accuracy)"); the α sweep itself is Fig. 2h–j;
 * - `mixup-04`: α = 0.4, the value of the paper's OOD table (Table 1: "Mixup (α = 0.4)") and of its best CIFAR-10
 *   model (App. A Table 2), also used where two mixup variants are compared at one α (feature-only mixup, Fig. 6;
 *   manifold mixup, App. C Table 3, whose "Mixup (200 epochs)" row is App. A's α = 0.4 model).
 */
import type { SuiteClaimInput } from '../claims/claim-schema.js';
import { deepRunsCost, deepRunsHours } from './deep-grids.js';

/** Why the paper's own settings are not those of the machine scale (said once, referred to by the notes). */
const SCALE = 'machine scale: a 512-unit MLP on Fashion-MNIST (the paper: VGG-16 / ResNets on STL-10, CIFAR-10/100, Fashion-MNIST with a ResNet-18)';

export const THULASIDASAN_CLAIMS: readonly SuiteClaimInput[] = [
  // ---- §3.4, Fig. 2 and App. A: in-distribution calibration ----
  {
    id: 'mixup-beats-ce-ece',
    statement: 'DNNs trained with mixup are significantly better calibrated than DNNs trained without mixup (lower ECE).',
    source: 'Abstract; §3.4, Fig. 2a–f; App. A Table 2',
    headline: true,
    paper: { text: 'CIFAR-10 ResNet-18 (App. A Table 2): ECE 0.019 (mixup α = 0.4) vs 0.023 (no mixup); CIFAR-100: 0.035 (α = 0.5) vs 0.049', difference: -0.4 },
    compare: 'mixup < ce on ece',
    note: `mixup's α chosen by validation accuracy (§3.4); every run at its best validation-accuracy epoch (§3.1); ${SCALE}.`,
  },
  {
    id: 'mixup-less-overconfident',
    statement: "Mixup tempers overconfidence: its overconfidence error (OE) is lower than the baseline's.",
    source: 'Abstract; §3.4, Fig. 2f',
    headline: true,
    paper: { text: 'bar plots only (Fig. 2f); no number in the text' },
    compare: 'mixup < ce on oe',
  },
  {
    id: 'mixup-beats-ls-ece',
    statement: 'Label smoothing via ε-smoothing, ERL or mixup generally provides a calibration advantage, mixup generally performing the best: mixup has a lower ECE than ε-label smoothing.',
    source: '§3.4, Fig. 2 (middle row); App. A Table 2',
    paper: { text: 'CIFAR-10 ResNet-18 (App. A Table 2): ECE 0.019 (mixup α = 0.4) vs 0.089 (LS ε = 0.1); CIFAR-100: 0.035 vs 0.066', difference: -7.0 },
    compare: 'mixup < ls on ece',
    note: 'LS ε ∈ {0.05, 0.1} (the paper: "an ε ∈ [0.05, 0.1] performed best"), spread on the other classes (§3.3), chosen by validation accuracy like mixup\'s α.',
  },
  {
    id: 'mixup-beats-erl-ece',
    statement: '… and mixup has a lower ECE than the entropy-regularised loss (ERL).',
    source: '§3.4, Fig. 2 (middle row); App. A Table 2',
    paper: { text: 'CIFAR-10 ResNet-18 (App. A Table 2): ECE 0.019 (mixup α = 0.4) vs 0.046 (ERL κ = 0.1)', difference: -2.7 },
    compare: 'mixup < erl on ece',
    note: "ERL κ = 0.1, the paper's best-performing confidence penalty (§3.4).",
  },
  {
    id: 'ls-beats-ce-ece',
    statement: 'ε-label smoothing generally provides a calibration advantage over the baseline (lower ECE).',
    source: '§3.4, Fig. 2 (middle row)',
    paper: {
      text: "no number in the text; the paper's only table with LS has it above the baseline: App. A Table 2, ECE 0.089 vs 0.023 (CIFAR-10 ResNet-18), 0.066 vs 0.049 (CIFAR-100)",
      difference: 6.6,
    },
    compare: 'ls < ce on ece',
    note: "The sentence of §3.4 and App. A Table 2 disagree in direction; the claim is tested as §3.4 states it, paper_value is App. A's CIFAR-10 difference.",
  },
  {
    id: 'erl-beats-ce-ece',
    statement: 'The entropy-regularised loss generally provides a calibration advantage over the baseline (lower ECE).',
    source: '§3.4, Fig. 2 (middle row)',
    paper: { text: 'no number in the text; App. A Table 2 has ERL above the baseline: ECE 0.046 vs 0.023 (CIFAR-10 ResNet-18; CIFAR-100 prints 0.6 vs 0.049)', difference: 2.3 },
    compare: 'erl < ce on ece',
    note: "As for LS: §3.4's sentence is tested; App. A Table 2 goes the other way.",
  },
  {
    id: 'ls-less-overconfident',
    statement: 'ε-label smoothing tempers overconfidence (lower OE than the baseline).',
    source: '§3.4, Fig. 2 (middle row)',
    compare: 'ls < ce on oe',
  },
  {
    id: 'erl-less-overconfident',
    statement: 'ERL tempers overconfidence (lower OE than the baseline).',
    source: '§3.4, Fig. 2 (middle row)',
    compare: 'erl < ce on oe',
  },
  {
    id: 'mixup-improves-accuracy',
    statement: 'Mixup improves classification performance over the baseline, in addition to calibration.',
    source: '§5 (first paragraph); §3.4; App. A Table 2',
    paper: { text: 'CIFAR-10 ResNet-18 (App. A Table 2): accuracy 96.16 % (mixup α = 0.4) vs 95.12 % (no mixup); CIFAR-100: 79.57 vs 78.28 %', difference: 1.04 },
    compare: 'mixup > ce on accuracy',
  },
  {
    id: 'ce-overconfident',
    statement:
      'Trained in the regular fashion (hard labels, no mixup), the DNN is overconfident on in-distribution data: "in the base case ... most of the points tend to lie in the overconfident region".',
    source: '§3.4, Fig. 2a–d (top row); §1, Fig. 1 (top row)',
    paper: { text: 'scatter plots and density plots only (STL-10 and CIFAR-100 VGG-16); no number in the text' },
    compare: 'ce > ce+temperature on mean_confidence',
    note: 'Overconfidence read through temperature scaling (T by validation NLL, Guo et al. [9]): T > 1 ⇔ TS lowers the mean confidence (raw > after TS).',
  },
  // ---- Fig. 2h–j and App. A: the α sweep ----
  {
    id: 'alpha-best-ece-02-04',
    statement: 'Best ECE is achieved for α in [0.2, 0.4].',
    source: 'Fig. 2h; §3.4',
    qualitative: { kind: 'argmin', method: 'mixup', sweep: 'mixup', metric: 'ece', expect: [0.2, 0.4] },
    note: 'α ∈ {0.1, 0.2, 0.4, 1}; the criterion: the seed-mean test ECE is lowest at α = 0.2 or 0.4.',
  },
  {
    id: 'alpha-ece-worsens-at-large-alpha',
    statement: 'For very low α the behaviour is similar to the base case, but ECE also noticeably worsens for higher values of α, the model being under-confident.',
    source: '§3.4, Fig. 2h; App. A Table 2',
    paper: { text: 'CIFAR-10 ResNet-18 (App. A Table 2): ECE 0.019 at α = 0.4 vs 0.1 at α = 1.0 (under-confident)' },
    qualitative: { kind: 'u-shape', method: 'mixup', sweep: 'mixup', metric: 'ece' },
  },
  {
    id: 'alpha-oe-decreases',
    statement: 'Overconfidence alone decreases monotonically as α increases.',
    source: 'Fig. 2i; §3.4',
    qualitative: { kind: 'monotone', method: 'mixup', sweep: 'mixup', metric: 'oe', trend: 'decreasing' },
  },
  {
    id: 'large-alpha-underconfident',
    statement: 'Mixup models can be under-confident if α is large: the high ECE of α = 1.0 comes from under-confidence, its training signal having higher entropies than with smaller α.',
    source: '§3.4; App. A (Table 2)',
    paper: { text: 'CIFAR-10 ResNet-18 (App. A Table 2): ECE 0.1 at α = 1.0 vs 0.019 at α = 0.4; CIFAR-100: 0.091 vs 0.035 (α = 0.5)' },
    notTested:
      "the claim grammar compares methods, and α = 1 is a value of the `mixup` method's α sweep, not a method of its own (a fixed-α = 1 method would be new runs); the report's sweep figures give ECE, accuracy and NLL against α but not the confidence, and the ECE half is alpha-ece-worsens-at-large-alpha",
  },
  {
    id: 'tuned-alpha-little-accuracy-loss',
    statement: 'A well-tuned α can result in a better-calibrated model with very little loss in performance.',
    source: 'Fig. 2j; §3.4',
    equivalent: 'mixup ~ ce on accuracy',
    margin: 0.01,
    note: '"Very little loss" read as test accuracy within ±1 point of the baseline (the margin is the suite\'s, the paper gives none).',
  },
  {
    id: 'lower-alpha-better-accuracy',
    statement: 'Lower α gives slightly better classification than α = 1.0 (and significantly better ECE); the best-performing α is in [0.1, 0.4], as in the mixup paper.',
    source: 'App. A Table 2; §3.4',
    paper: { text: 'CIFAR-10 ResNet-18: accuracy 96.16 % (α = 0.4) vs 96.04 % (α = 1.0); CIFAR-100: 79.57 % (α = 0.5) vs 79.54 %' },
    qualitative: { kind: 'argmax', method: 'mixup', sweep: 'mixup', metric: 'accuracy', expect: [0.1, 0.2, 0.4] },
    note: 'Criterion: the seed-mean test accuracy over α is highest at a value below 1; the ECE half is alpha-ece-worsens-at-large-alpha.',
  },
  // ---- §5, Fig. 6: mixing the labels matters ----
  {
    id: 'feature-only-mixup-no-benefit',
    statement: 'Merely mixing features (the mixed image keeps the hard label of the nearer class) does not provide the calibration benefit of full mixup.',
    source: 'Abstract; §5, Fig. 6',
    headline: true,
    paper: { text: 'bar plots only (Fig. 6); no number in the text' },
    compare: 'mixup-04 < mixup-feature on ece',
    note: "Both at α = 0.4 (the paper does not give Fig. 6's α).",
  },
  // ---- App. B, Fig. 9 ----
  {
    id: 'mixup-less-peaked',
    statement: 'Mixup models are less peaked in the very-high-confidence region (distribution of winning scores).',
    source: 'App. B, Fig. 9',
    compare: 'mixup < ce on mean_confidence',
    note: 'Criterion: the mean winning score (the paper shows histograms only).',
  },
  // ---- App. C, Table 3: manifold mixup ----
  {
    id: 'manifold-mixup-worse-ece',
    statement: 'Trained for the same number of epochs as regular mixup, manifold mixup generally has worse calibration errors than mixup.',
    source: 'App. C, Table 3',
    paper: { text: 'CIFAR-10 PreActResNet-18, 200 epochs: ECE 0.047 (manifold mixup) vs 0.02 (mixup); PreActResNet-34: 0.04 vs 0.04; CIFAR-100: 0.22 vs 0.047', difference: 2.7 },
    compare: 'mixup-manifold > mixup-04 on ece',
    note: 'Manifold mixup at α = 0.4 ("all other hyperparameters fixed to match the regular mixup experiments", App. C).',
  },
  {
    id: 'manifold-mixup-lower-accuracy',
    statement: 'Trained for the same number of epochs as regular mixup, manifold mixup generally has lower accuracy than mixup.',
    source: 'App. C, Table 3',
    paper: { text: 'CIFAR-10 PreActResNet-18, 200 epochs: accuracy 95.96 % (manifold mixup) vs 96.16 % (mixup); CIFAR-100: 74.79 vs 79.57 %', difference: -0.2 },
    compare: 'mixup-manifold < mixup-04 on accuracy',
  },
  {
    id: 'manifold-mixup-long-training',
    statement: 'After 2000 epochs manifold mixup is significantly more accurate, with ECE improving in a few cases only.',
    source: 'App. C, Table 3',
    paper: { text: 'CIFAR-10 PreActResNet-18: 97.07 % accuracy, ECE 0.077 after 2000 epochs (0.047 after 200)' },
    notTested: '2000 epochs of training (the machine scale trains 30).',
    atScale: {
      deep: {
        notTested: `not tested at deep scale (60 epochs; manifold mixup is not in the deep grid): it compares manifold mixup after 2000 epochs with itself after the usual length, 3 seeds each — ${deepRunsCost(3, 2000)}, plus ${deepRunsHours(3)} h for the 60-epoch runs — and the grammar compares methods, so the 2000-epoch runs would be a method of their own.`,
      },
    },
  },
  // ---- §7, Fig. 8 and Table 1: out-of-distribution and random noise (mixup α = 0.4) ----
  {
    id: 'mixup-less-confident-ood',
    statement: 'On out-of-distribution data (unseen classes) the mixup DNN is noticeably less confident than its non-mixup counterpart.',
    source: 'Abstract; §7, Fig. 8',
    headline: true,
    compare: 'mixup-04 < ce on ood_confidence',
    note: 'In: Fashion-MNIST test images; out: MNIST test digits (the paper: STL-10 in, unseen ImageNet classes out); mean winning score on the OOD set.',
  },
  {
    id: 'mixup-less-confident-noise',
    statement: 'On Gaussian random noise the mixup DNN is noticeably less confident than its non-mixup counterpart.',
    source: 'Abstract; §7, Fig. 8',
    headline: true,
    compare: 'mixup-04 < ce on noise_confidence',
    note: "Gaussian noise with the training set's mean and variance, as the paper.",
  },
  {
    id: 'ts-more-conservative-ood',
    statement: 'Temperature scaling is more conservative than mixup on real but out-of-sample data.',
    source: '§7, Fig. 8',
    compare: 'ce+temperature < mixup-04 on ood_confidence',
    note: 'TS fitted on the validation split by NLL (Guo et al. [9], as the paper); it is applied to the OOD logits too.',
  },
  {
    id: 'ts-more-confident-noise',
    statement: 'Temperature scaling is noticeably more overconfident than mixup in the random-noise case.',
    source: '§7, Fig. 8',
    compare: 'ce+temperature > mixup-04 on noise_confidence',
  },
  {
    id: 'mixup-less-confident-than-dropout-ood',
    statement: 'Mixup performs significantly better than MC dropout (less confident) on out-of-distribution data.',
    source: '§7, Fig. 8',
    compare: 'mixup-04 < mc-dropout on ood_confidence',
    note: 'MC dropout p = 0.3, the mean softmax of 10 passes (§7, Table 1).',
  },
  {
    id: 'mixup-less-confident-than-dropout-noise',
    statement: 'Mixup performs significantly better than MC dropout (less confident) on random noise.',
    source: '§7, Fig. 8',
    compare: 'mixup-04 < mc-dropout on noise_confidence',
  },
  {
    id: 'mixup-best-ood-detector-vs-ce',
    statement: 'Mixup is the best OOD detector (AUROC of the winning score, in vs out): better than the baseline on unseen classes.',
    source: '§7, Table 1',
    headline: true,
    paper: { text: 'STL-10 / ImageNet AUROC 83.28 (mixup α = 0.4) vs 80.57 (baseline)', difference: 2.71 },
    compare: 'mixup-04 > ce on ood_auroc',
  },
  {
    id: 'mixup-best-noise-detector-vs-ce',
    statement: 'Mixup is the best random-noise detector, significantly outperforming the baseline.',
    source: '§7, Table 1',
    headline: true,
    paper: { text: 'STL-10 / Gaussian AUROC 95.93 (mixup α = 0.4) vs 73.28 (baseline)', difference: 22.65 },
    compare: 'mixup-04 > ce on noise_auroc',
  },
  {
    id: 'mixup-beats-ts-ood-detection',
    statement: 'Mixup detects unseen classes better than the temperature-scaled baseline.',
    source: '§7, Table 1',
    paper: { text: 'STL-10 / ImageNet AUROC 83.28 (mixup) vs 56.2 (Temp. Scaling)', difference: 27.08 },
    compare: 'mixup-04 > ce+temperature on ood_auroc',
  },
  {
    id: 'mixup-beats-ts-noise-detection',
    statement: 'Mixup detects random noise better than the temperature-scaled baseline.',
    source: '§7, Table 1',
    paper: { text: 'STL-10 / Gaussian AUROC 95.93 (mixup) vs 54.2 (Temp. Scaling)', difference: 41.73 },
    compare: 'mixup-04 > ce+temperature on noise_auroc',
  },
  {
    id: 'mixup-beats-dropout-ood-detection',
    statement: 'Mixup detects unseen classes better than MC dropout.',
    source: '§7, Table 1',
    paper: { text: 'STL-10 / ImageNet AUROC 83.28 (mixup) vs 78.93 (Dropout p = 0.3)', difference: 4.35 },
    compare: 'mixup-04 > mc-dropout on ood_auroc',
  },
  {
    id: 'mixup-beats-dropout-noise-detection',
    statement: 'Mixup detects random noise better than MC dropout.',
    source: '§7, Table 1',
    paper: { text: 'STL-10 / Gaussian AUROC 95.93 (mixup) vs 70.57 (Dropout p = 0.3)', difference: 25.36 },
    compare: 'mixup-04 > mc-dropout on noise_auroc',
  },
  {
    id: 'ts-poor-ood-detector',
    statement:
      'Temperature scaling, while producing well-calibrated models in distribution, is not a reliable detector: scaling reduces the confidence on both in- and out-of-distribution data, significantly reducing the ability to discriminate them (lower AUROC than the unscaled baseline on unseen classes).',
    source: '§7, Table 1',
    paper: { text: 'STL-10 / ImageNet AUROC 56.2 (Temp. Scaling) vs 80.57 (baseline)', difference: -24.37 },
    compare: 'ce+temperature < ce on ood_auroc',
  },
  {
    id: 'ts-poor-noise-detector',
    statement: '… and lower AUROC than the unscaled baseline on random noise.',
    source: '§7, Table 1',
    paper: { text: 'STL-10 / Gaussian AUROC 54.2 (Temp. Scaling) vs 73.28 (baseline)', difference: -19.08 },
    compare: 'ce+temperature < ce on noise_auroc',
  },
  // ---- claims this machine does not test ----
  {
    id: 'training-drifts-overconfident',
    statement: 'In regular training the DNN moves from under-confidence at the beginning of training to overconfidence at the end; with mixup, at corresponding epochs, it is much better calibrated.',
    source: '§1, Fig. 1',
    notTested:
      "a figure of per-epoch joint densities (CIFAR-100, VGG-16) with no numeric criterion; the report draws the same figure from every epoch's validation logits (density figure) but no claim kind decides a per-epoch trajectory.",
  },
  {
    id: 'imagenet-calibration',
    statement:
      'On ImageNet mixup gives noticeable calibration benefits (ResNet-50, ResNeXt-101), better than label smoothing on ResNeXt-101 but not on ResNet-50; label smoothing also improves ECE and overconfidence over the baseline; mixup is ≈ 0.4 % more accurate.',
    source: '§3.4.1, Fig. 3',
    notTested: 'ImageNet (1.2 million images, trained on 32 GPUs in the paper) is not available offline.',
  },
  {
    id: 'extended-training-stays-calibrated',
    statement: "Trained for 1000 epochs, the baseline's training loss goes to zero while mixup's stays well above it, and mixup's calibration error shows no upward trend.",
    source: '§6, Fig. 7',
    notTested: '1000 epochs of training on CIFAR-10/100 (the machine scale trains 30 epochs).',
    atScale: {
      deep: {
        notTested: `not tested at deep scale (60 epochs, where CE already fits its training set): CE and mixup for 1000 epochs, 3 seeds each — ${deepRunsCost(6, 1000)} — and its criteria are per-epoch curves (training loss going to zero for CE and not for mixup, no upward trend of mixup's calibration error), which the runs log (train_loss, val_ece per epoch) but no claim kind decides.`,
      },
    },
  },
  {
    id: 'leaving-the-convex-hull',
    statement:
      "As images are perturbed along a random direction (X + μ·d̂), mixup's accuracy degrades more slowly than the baseline's, TS loses confidence quickly even at μ = 0.01, and at μ = 100 mixup keeps ≈ 25 % accuracy where the baseline is at chance (10 %).",
    source: 'App. D, Fig. 10',
    notTested: "the suite has no random-direction perturbation sweep over μ (its corruption set is a different shift, used only by the suite's own checks below).",
  },
  // ---- the suite's own checks (not claims of the paper) ----
  {
    id: 'suite-mixup-beats-ce-after-ts',
    origin: 'suite',
    statement: 'Mixup stays better calibrated than CE when both are temperature-scaled.',
    compare: 'mixup < ce on ece after temperature',
    note: "Not the paper's: §3.3 leaves temperature scaling out of the in-distribution comparisons; §7 uses it only as an OOD baseline.",
  },
  {
    id: 'suite-mixup-beats-dropout-ece',
    origin: 'suite',
    statement: 'Mixup has a lower in-distribution ECE than MC dropout.',
    compare: 'mixup < mc-dropout on ece',
    note: 'The paper compares with MC dropout only on OOD data (§7, Fig. 8, Table 1).',
  },
  {
    id: 'suite-label-mixing-matters-ood',
    origin: 'suite',
    statement: 'Full mixup detects OOD digits better than feature-only mixup (AUROC).',
    compare: 'mixup-04 > mixup-feature on ood_auroc',
    note: 'The paper tests feature-only mixup in distribution only (§5, Fig. 6).',
  },
  {
    id: 'suite-label-mixing-matters-noise',
    origin: 'suite',
    statement: 'Full mixup detects Gaussian noise better than feature-only mixup (AUROC).',
    compare: 'mixup-04 > mixup-feature on noise_auroc',
  },
  {
    id: 'suite-mixup-beats-ce-under-corruption',
    origin: 'suite',
    statement: 'Mixup has a lower ECE than CE under corruption (mean over 9 corruptions × 5 severities).',
    compare: 'mixup-04 < ce on shift_ece',
    note: 'The paper has no corruption experiment; an earlier version of this suite attributed this check to "Fig. 5", which is the histogram of training-label entropies against α.',
  },
  {
    id: 'suite-mixup-beats-ce-ts-under-corruption',
    origin: 'suite',
    statement: 'Mixup has a lower ECE under corruption than CE with temperature scaling fitted on clean validation data.',
    compare: 'mixup-04 < ce+temperature on shift_ece',
  },
];

export const THULASIDASAN_TEXT_CLAIMS: readonly SuiteClaimInput[] = [
  {
    id: 'text-mixup-beats-ce-ece',
    statement: 'On natural-language data, mixup on the embedding layer of a sentence-level CNN provides noticeable calibration gains for all datasets (lower ECE).',
    source: '§4, Fig. 4',
    headline: true,
    paper: { text: 'MR, TREC, IMDB, bar plots only (Fig. 4); no number in the text' },
    compare: 'mixup < ce on ece',
    note: "Debian package synopses by Section (MR / TREC / IMDB are not available offline); embeddings learned from scratch (the paper starts from GloVe); α = 0.4 (§4 gives none: Table 1's value); best validation-accuracy epoch (§3.1).",
  },
  {
    id: 'text-mixup-less-overconfident',
    statement: '… and in overconfidence (lower OE).',
    source: '§4, Fig. 4',
    headline: true,
    compare: 'mixup < ce on oe',
  },
  {
    id: 'suite-text-mixup-beats-ls',
    origin: 'suite',
    statement: 'Embedding mixup has a lower ECE than ε-label smoothing on text.',
    compare: 'mixup < ls on ece',
    note: 'The paper compares LS and ERL on images only (§3.4).',
  },
  {
    id: 'suite-text-mixup-beats-erl',
    origin: 'suite',
    statement: 'Embedding mixup has a lower ECE than ERL on text.',
    compare: 'mixup < erl on ece',
  },
  {
    id: 'suite-text-mixup-beats-ce-after-ts',
    origin: 'suite',
    statement: 'Embedding mixup stays better calibrated than CE when both are temperature-scaled.',
    compare: 'mixup < ce on ece after temperature',
    note: 'The paper has no temperature scaling on text.',
  },
];
