/**
 * The claims of Liu, Ben Ayed, Galdran, Dolz, "The Devil is in the Margin: Margin-based Label Smoothing for Network
 * Calibration" (CVPR 2022; ../shared/papers/002_a8406c0a1464dc50.txt), read claim by claim (CLAIMS-SPEC.md): every
 * quantitative statement of §5, Tables 1–8 and Appendices C–F, each with the comparison exactly as the paper makes
 * it. Three registries, one per suite that tests them: MBLS_CLAIMS (image classification, Tables 1–4, 7, 8,
 * Fig. 2; suite `mbls`), MBLS_TEXT_CLAIMS (20 Newsgroups, Table 6 and Table 7's "20 News" row; `mbls-text`) and
 * MBLS_SEGMENTATION_CLAIMS (PASCAL VOC, Table 5; `mbls-segmentation`).
 *
 * Numbers: `paper.text` quotes the paper's CIFAR-10 ResNet-50 column (the setting the machine scale stands in for)
 * unless said otherwise; `paper.difference` is left − right of the claim in percentage points. Table 1 / 7's
 * Tiny-ImageNet and CUB rows and the ResNet-101 columns are quoted where the claim rests on them.
 *
 * How the paper's temperatures are read (Table 7, App. D): T > 1 means TS lowered the confidences (the model was
 * overconfident), T < 1 raised them (underconfident). A claim about T is tested through the mean confidence before
 * and after the suite's TS (`ts-grid-ece`, the code's fit): softmax(z/T)'s top probability falls as T grows, so
 * "raw > after TS" on mean_confidence holds exactly when the fitted T > 1.
 *
 * Equivalence margins: "on par" / "almost consistent" claims get ±1 point (0.01): the paper calls gaps of 1–3 %
 * between losses real differences (§5.1, FL/FLSD accuracy) and calls LS and "Ours (m = 0)" almost consistent at
 * gaps up to 0.93 point (Table 1, CIFAR-10 ResNet-50).
 */
import type { SuiteClaimInput } from '../claims/claim-schema.js';

const TS_NOTE =
  "TS is the official code's fit (ts-grid-ece: T from 0.1, 0.2, …, 10 at the lowest validation ECE, 15 bins; by-liu/MbLS calibrate/net/temperature_scaling.py); the paper cites Guo et al. [9], whose NLL fit the report shows beside it.";

/** Claims of the image-classification experiments (suite `mbls`). */
export const MBLS_CLAIMS: readonly SuiteClaimInput[] = [
  // ---- Table 1 (§5.1): ECE of every loss, CIFAR-10 ResNet-50 -------------------------------------------------
  {
    id: 'mbls-beats-ce',
    statement: 'MbLS (m = 6) is better calibrated than cross-entropy: "both versions of our model yield the best results in nearly all of the cases".',
    source: 'Table 1, §5.1',
    headline: true,
    paper: { text: 'CIFAR-10 ResNet-50: ECE 1.16 % (MbLS) vs 5.85 % (CE)', difference: -4.69 },
    compare: 'mbls < ce on ece',
    note: 'm = 6 is the paper\'s CIFAR-10 margin (§5 "Our method"), λ = 0.1 fixed "in all our experiments".',
  },
  {
    id: 'mbls-beats-ecp',
    statement: 'MbLS is better calibrated than the explicit confidence penalty (ECP).',
    source: 'Table 1, §5.1',
    headline: true,
    paper: { text: 'CIFAR-10 ResNet-50: ECE 1.16 % vs 3.01 % (ECP)', difference: -1.85 },
    compare: 'mbls < ecp on ece',
    note: 'ECP weight 0.1, as the paper (§5 "Baselines") and its code.',
  },
  {
    id: 'mbls-beats-ls',
    statement: 'MbLS is better calibrated than label smoothing.',
    source: 'Table 1, §5.1',
    headline: true,
    paper: { text: 'CIFAR-10 ResNet-50: ECE 1.16 % vs 2.79 % (LS)', difference: -1.63 },
    compare: 'mbls < ls on ece',
    note: "LS ε = 0.05 (the code's configs/loss/ls.yaml).",
  },
  {
    id: 'mbls-beats-focal',
    statement: 'MbLS is better calibrated than focal loss.',
    source: 'Table 1, §5.1',
    headline: true,
    paper: { text: 'CIFAR-10 ResNet-50: ECE 1.16 % vs 3.90 % (FL)', difference: -2.74 },
    compare: 'mbls < focal on ece',
    note: 'FL γ = 3.',
  },
  {
    id: 'mbls-beats-flsd',
    statement: 'MbLS is better calibrated than the sample-dependent focal loss FLSD.',
    source: 'Table 1, §5.1',
    headline: true,
    paper: { text: 'CIFAR-10 ResNet-50: ECE 1.16 % vs 3.84 % (FLSD)', difference: -2.68 },
    compare: 'mbls < flsd on ece',
    note: 'FLSD: γ = 5 for p < 0.2, 3 otherwise (FLSD-53).',
  },
  {
    id: 'margin-beats-m0',
    statement: 'A positive margin matters: "the significant improvement observed when the margin is included, i.e., m > 0" over Ours (m = 0).',
    source: 'Table 1, §5.1',
    headline: true,
    paper: { text: 'CIFAR-10 ResNet-50: ECE 1.16 % (m = 6) vs 3.72 % (m = 0)', difference: -2.56 },
    compare: 'mbls < mbls-m0 on ece',
    note: 'Ours (m = 0) takes λ = ε = 0.05, "setting equivalent balancing weight of λ in Ours (m=0) to ε" (§5.1, Equivalence with Label Smoothing); Ours keeps λ = 0.1, as the table.',
  },
  {
    id: 'ecp-beats-ce',
    statement: 'Penalising low-entropy predictions explicitly (ECP) trains better calibrated networks than CE ("we can typically train better calibrated networks").',
    source: 'Table 1, §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: ECE 3.01 % (ECP) vs 5.85 % (CE)', difference: -2.84 },
    compare: 'ecp < ce on ece',
  },
  {
    id: 'ls-beats-ce',
    statement: 'Penalising low-entropy predictions implicitly with LS trains better calibrated networks than CE.',
    source: 'Table 1, §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: ECE 2.79 % (LS) vs 5.85 % (CE)', difference: -3.06 },
    compare: 'ls < ce on ece',
  },
  {
    id: 'focal-beats-ce',
    statement: 'Penalising low-entropy predictions implicitly with focal loss trains better calibrated networks than CE.',
    source: 'Table 1, §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: ECE 3.90 % (FL) vs 5.85 % (CE)', difference: -1.95 },
    compare: 'focal < ce on ece',
  },
  {
    id: 'flsd-beats-ce',
    statement: 'Penalising low-entropy predictions implicitly with FLSD trains better calibrated networks than CE.',
    source: 'Table 1, §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: ECE 3.84 % (FLSD) vs 5.85 % (CE)', difference: -2.01 },
    compare: 'flsd < ce on ece',
  },
  {
    id: 'mbls-beats-ce-aece',
    statement: 'MbLS has a lower adaptive ECE (equal-mass bins) than CE.',
    source: 'Table 1 (AECE), §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: AECE 3.18 % vs 5.84 % (CE)', difference: -2.66 },
    compare: 'mbls < ce on adaece',
  },
  {
    id: 'mbls-beats-ls-aece',
    statement: 'MbLS has a lower adaptive ECE than LS.',
    source: 'Table 1 (AECE), §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: AECE 3.18 % vs 3.85 % (LS)', difference: -0.67 },
    compare: 'mbls < ls on adaece',
  },
  {
    id: 'mbls-beats-focal-aece',
    statement: 'MbLS has a lower adaptive ECE than focal loss.',
    source: 'Table 1 (AECE), §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: AECE 3.18 % vs 3.86 % (FL)', difference: -0.68 },
    compare: 'mbls < focal on adaece',
  },
  {
    id: 'mbls-beats-flsd-aece',
    statement: 'MbLS has a lower adaptive ECE than FLSD.',
    source: 'Table 1 (AECE), §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: AECE 3.18 % vs 3.60 % (FLSD)', difference: -0.42 },
    compare: 'mbls < flsd on adaece',
    note: 'No AECE claim against ECP: on CIFAR-10 ResNet-50 the paper\'s own table has ECP lower (2.99 % vs 3.18 %), the "one setting ranking second" of §5.1.',
  },
  {
    id: 'mbls-robust-across-backbones',
    statement: "With a higher-capacity backbone on CIFAR-10 the other losses' calibration degrades (ECP +2.4, LS +0.77, FL +0.7, FLSD +0.74 points) while MbLS changes little (+0.22).",
    source: 'Table 1, §5.1',
    paper: { text: 'CIFAR-10 ECE, ResNet-101 − ResNet-50: MbLS +0.22 vs ECP +2.4, LS +0.77, FL +0.7, FLSD +0.74 points' },
    notTested: 'needs two backbones of different capacity (ResNet-50 and -101 on CIFAR-10); the machine scale trains one model, and the paper scale needs CIFAR-10 (not offline) and GPU-days',
  },
  {
    id: 'tiny-imagenet-mbls-best',
    statement: 'On Tiny-ImageNet (ResNet-50 and -101) MbLS with m = 10 has the lowest ECE and AECE of all losses.',
    source: 'Table 1',
    paper: { text: 'Tiny-ImageNet ResNet-50: ECE 1.64 % vs 2.91 % (FLSD, the best baseline), 3.73 % (CE)', difference: -1.27 },
    notTested: 'Tiny-ImageNet is not available offline (200 classes, 64×64 images); the 10-class machine scale stands in for CIFAR-10 only',
  },
  // ---- Table 2 (§5.1): accuracy -------------------------------------------------------------------------------
  {
    id: 'mbls-accuracy-on-par-ls',
    statement: 'MbLS yields accuracy "on par with LS and CE, sometimes ranking as the best" (it "maintains, or improves, the discriminative power").',
    source: 'Table 2, §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: accuracy 95.25 % (MbLS) vs 94.87 % (LS)', difference: 0.38 },
    equivalent: 'mbls ~ ls on accuracy',
    margin: 0.01,
    note: 'Equivalence within ±1 point (the paper calls the 1–3 % gaps of FL/FLSD real differences). A gain beyond +1 point would contradict "on par" but not "maintains, or improves".',
  },
  {
    id: 'mbls-accuracy-on-par-ce',
    statement: 'MbLS yields accuracy on par with CE.',
    source: 'Table 2, §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: 95.25 % vs 93.20 % (CE), a +2.05-point gain; Tiny-ImageNet ResNet-50: 64.74 % vs 65.02 %', difference: 2.05 },
    equivalent: 'mbls ~ ce on accuracy',
    margin: 0.01,
    note: "Equivalence within ±1 point, as mbls-accuracy-on-par-ls; on CIFAR-10 ResNet-50 the paper's own gap (+2.05) exceeds it, on Tiny-ImageNet (−0.28) it does not.",
  },
  {
    id: 'mbls-accuracy-beats-focal',
    statement: 'FL obtains worse accuracy than MbLS ("performance gaps of 1-3% lower than the proposed model").',
    source: 'Table 2, §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: 95.25 % vs 94.82 % (FL); Tiny-ImageNet ResNet-50: 64.74 % vs 63.09 %', difference: 0.43 },
    compare: 'mbls > focal on accuracy',
  },
  {
    id: 'mbls-accuracy-beats-flsd',
    statement: 'FLSD obtains worse accuracy than MbLS.',
    source: 'Table 2, §5.1',
    paper: { text: 'CIFAR-10 ResNet-50: 95.25 % vs 94.77 % (FLSD); Tiny-ImageNet ResNet-50: 64.74 % vs 64.09 %', difference: 0.48 },
    compare: 'mbls > flsd on accuracy',
  },
  // ---- Table 3 (CUB-200-2011) ---------------------------------------------------------------------------------
  {
    id: 'cub-mbls-best',
    statement: 'On the fine-grained CUB-200-2011, MbLS obtains the best calibration and classification "with a remarkable gap compared to the existing methods".',
    source: 'Table 3, §5.1',
    paper: { text: 'CUB-200-2011 ResNet-101: ECE 2.78 % (MbLS) vs 5.11 % (m = 0), 5.16 % (LS), 6.75 % (CE); accuracy 74.56 % vs 74.51 % (LS)', difference: -2.38 },
    notTested: 'CUB-200-2011 (200 bird species, ImageNet-pretrained ResNet-101) is not available offline',
  },
  {
    id: 'cub-ecp-ls-beat-ce',
    statement:
      'On CUB-200-2011, "explicitly penalizing low entropy predictions, i.e., ECP, or implicitly with LS results in better calibrated and higher performing models" than CE, whose hard labels lead to overconfident networks.',
    source: 'Table 3, §5.1 (Fine-grained image classification)',
    paper: { text: 'CUB-200-2011 ResNet-101: ECE 5.55 % (ECP), 5.16 % (LS) vs 6.75 % (CE); accuracy 73.51 %, 74.51 % vs 73.09 %', difference: -1.2 },
    notTested:
      "CUB-200-2011 (200 bird species, ImageNet-pretrained ResNet-101) is not available offline; on the machine scale's 10-class task the same comparisons are ecp-beats-ce and ls-beats-ce (Table 1)",
  },
  {
    id: 'cub-focal-degrades',
    statement: 'On CUB-200-2011, FL and FLSD degrade both calibration and classification, the worst results across models ("its calibration benefits might vanish on more complex datasets").',
    source: 'Table 3, §5.1',
    paper: { text: 'CUB-200-2011: ECE 8.41 % (FL), 8.54 % (FLSD) vs 6.75 % (CE); accuracy 72.87 %, 72.59 % vs 73.09 %', difference: 1.66 },
    notTested: 'CUB-200-2011 is not available offline',
  },
  // ---- §5.1 "Equivalence with Label Smoothing", Tables 1, 3, 4, App. C ----------------------------------------
  {
    id: 'ls-equals-mbls-m0',
    statement: 'Label smoothing approximates MbLS with m = 0: "the results of LS and Ours (m=0) are almost consistent for all cases".',
    source: '§5.1 (Equivalence with Label Smoothing), Tables 1 and 3',
    paper: { text: 'ECE, LS vs Ours (m = 0): CIFAR-10 ResNet-50 2.79 % vs 3.72 %, Tiny-ImageNet ResNet-50 3.17 % vs 2.50 %, CUB 5.16 % vs 5.11 %', difference: -0.93 },
    equivalent: 'ls ~ mbls-m0 on ece',
    margin: 0.01,
    note: 'LS ε = 0.05 against m = 0 with λ = ε = 0.05 (LS is CE + ε·mean_k(z_y − z_k), the m = 0 penalty with λ = ε, on every correctly classified sample). Margin ±1 point: the paper calls gaps up to 0.93 point "almost consistent".',
  },
  {
    id: 'ls-m0-weight-sweep',
    statement: 'Varying the trade-off weight of LS (ε) and of MbLS with m = 0 (λ) gives "similar trends and scores, particularly for smaller values of the balancing terms".',
    source: 'Table 4, App. C (Fig. 4)',
    notTested:
      "a point-by-point comparison of two sweep curves is not a claim kind of the suite, and Table 4's numbers are lost in the text copy used here; its Table 1 point (ε = λ = 0.05) is ls-equals-mbls-m0",
  },
  {
    id: 'mbls-robust-to-lambda',
    statement: 'Unlike LS, MbLS with a margin is robust to its balancing weight λ, on Tiny-ImageNet validation and test.',
    source: 'App. C (Fig. 4)',
    notTested: 'Tiny-ImageNet is not available offline, and "more robust" (a flatter curve over the weight) is not a claim kind of the suite',
  },
  // ---- Fig. 2 (§5.1 "Effect of the margin m") and the margin rule (§5 "Our method") -------------------------------
  {
    id: 'ece-u-shaped-in-margin',
    statement: 'A small margin hurts calibration, and "once the optimal m is obtained, larger values result in slightly worst calibrated networks" (test ECE against m).',
    source: 'Fig. 2, §5.1 (Effect of the margin m)',
    qualitative: { kind: 'u-shape', method: 'mbls-margin', sweep: 'lossOptions.margin', metric: 'ece' },
    note: 'm ∈ {2, 4, 6, 8, 10, 15} at λ = 0.1 (the values of Fig. 2 are lost in the text copy used here).',
  },
  {
    id: 'margin-optimum-validation',
    statement: 'The margin chosen on the validation set of a 10-class image task is m = 6 (CIFAR-10: m = 6; "relatively stable margin values across different tasks").',
    source: '§5 (Our method), Fig. 2',
    paper: { text: 'm = 6 on CIFAR-10 and 20 Newsgroups, m = 10 on Tiny-ImageNet, CUB-200-2011 and VOC' },
    qualitative: { kind: 'argmin', method: 'mbls-margin', sweep: 'lossOptions.margin', metric: 'ece', split: 'validation', expect: [6] },
    note: 'The criterion is the validation ECE (Fig. 2 plots ECE on validation and test); the paper does not name the metric it chose m by.',
  },
  {
    id: 'margin-optimum-test',
    statement: 'The optimal margin is consistent between validation and test data: the test ECE is lowest at the validation choice, m = 6.',
    source: 'Fig. 2, §5 (Our method)',
    qualitative: { kind: 'argmin', method: 'mbls-margin', sweep: 'lossOptions.margin', metric: 'ece', expect: [6] },
  },
  {
    id: 'suboptimal-margin-comparable',
    statement: 'Even with a suboptimal margin, MbLS calibrates at least comparably to LS and FL (ECE 3.05 % on CIFAR-10 and 2.99 % on Tiny-ImageNet vs LS 2.79 / 3.17 %, FL 3.90 / 2.96 %).',
    source: '§5.1 (Effect of the margin m)',
    notTested:
      "the margin of the paper's example is lost in the text copy used here, so the claim has no definite comparison; the report's sweep table gives the test ECE at every margin beside LS and FL",
  },
  // ---- Table 7 (App. D): temperature scaling -----------------------------------------------------------------
  {
    id: 'mbls-beats-ce-ts',
    statement: 'MbLS without TS beats CE with TS: "the PreT scores obtained by our method outperform the PosT results from CE across all the cases".',
    source: 'Table 7 (App. D)',
    headline: true,
    paper: {
      text: 'CIFAR-10 ResNet-50: ECE 1.16 % (MbLS, no TS) vs 2.34 % (CE + TS, T = 3.9); the paper\'s own 20 News (5.40 vs 3.01 %) and CUB (2.78 vs 2.00 %) rows do not bear out "all the cases"',
      difference: -1.18,
    },
    compare: 'mbls < ce+ts-grid-ece on ece',
    note: TS_NOTE,
  },
  {
    id: 'mbls-ts-beats-ce-ts',
    statement: 'With TS applied to every model, MbLS + TS "also achieves the best performance across the datasets and backbones" — better than CE + TS.',
    source: 'Table 7 (App. D)',
    paper: { text: 'CIFAR-10 ResNet-50 after TS: 1.16 % vs 2.34 % (CE)', difference: -1.18 },
    compare: 'mbls < ce on ece after ts-grid-ece',
    note: TS_NOTE,
  },
  {
    id: 'mbls-ts-beats-ls-ts',
    statement: 'After TS, MbLS is better calibrated than LS.',
    source: 'Table 7 (App. D)',
    paper: { text: 'CIFAR-10 ResNet-50 after TS: 1.16 % vs 1.75 % (LS)', difference: -0.59 },
    compare: 'mbls < ls on ece after ts-grid-ece',
  },
  {
    id: 'mbls-ts-beats-focal-ts',
    statement: 'After TS, MbLS is better calibrated than FL.',
    source: 'Table 7 (App. D)',
    paper: { text: 'CIFAR-10 ResNet-50 after TS: 1.16 % vs 1.34 % (FL)', difference: -0.18 },
    compare: 'mbls < focal on ece after ts-grid-ece',
  },
  {
    id: 'mbls-ts-beats-flsd-ts',
    statement: 'After TS, MbLS is better calibrated than FLSD.',
    source: 'Table 7 (App. D)',
    paper: { text: 'CIFAR-10 ResNet-50 after TS: 1.16 % vs 1.30 % (FLSD)', difference: -0.14 },
    compare: 'mbls < flsd on ece after ts-grid-ece',
  },
  {
    id: 'mbls-temperature-near-one',
    statement: 'MbLS "has optimal temperature values very close to 1", "indicating that our models are already well calibrated": TS barely changes its confidences.',
    source: 'Table 7 (App. D)',
    paper: { text: 'CIFAR-10 ResNet-50: T = 1.0 (no change); ResNet-101 0.9, Tiny-ImageNet 1.0, CUB 1.2', difference: 0 },
    equivalent: 'mbls ~ mbls+ts-grid-ece on mean_confidence',
    margin: 0.01,
    note: 'T is tested through the mean confidence before and after TS: equivalence within ±1 point of mean confidence. The paper calls all its MbLS temperatures (0.9–1.2) close to 1; on a model near 86 % accuracy T = 0.9 moves the mean confidence by about 2 points, so this margin is stricter than that reading.',
  },
  {
    id: 'ce-overconfident',
    statement: 'Training with hard targets (CE) "leads to miscalibrated predictions": CE is overconfident, TS fits it a temperature above 1.',
    source: '§5.1, Table 7 (App. D)',
    paper: { text: 'CIFAR-10 ResNet-50: CE ECE 5.85 %, TS temperature 3.9 (ResNet-101 3.9, Tiny-ImageNet 1.1–1.2)' },
    compare: 'ce > ce+ts-grid-ece on mean_confidence',
    note: 'T > 1 ⇔ TS lowers the mean confidence (raw > after TS).',
  },
  {
    id: 'ls-underconfident',
    statement: 'TS fits LS a temperature below 1 on CIFAR-10 (T = 0.9): LS leaves the ResNets slightly underconfident there.',
    source: 'Table 7 (App. D)',
    paper: { text: 'CIFAR-10 ResNet-50 and -101: T = 0.9 for LS (ECE 2.79 → 1.75 %)' },
    compare: 'ls < ls+ts-grid-ece on mean_confidence',
    note: "Read from Table 7's temperatures (the paper does not comment on them); T < 1 ⇔ TS raises the mean confidence.",
  },
  {
    id: 'focal-underconfident',
    statement: 'TS fits FL a temperature below 1 on CIFAR-10 ResNet-50 (T = 0.7): FL leaves the model underconfident there.',
    source: 'Table 7 (App. D)',
    paper: { text: 'CIFAR-10 ResNet-50: T = 0.7 for FL (ECE 3.90 → 1.34 %); ResNet-101: T = 1.4' },
    compare: 'focal < focal+ts-grid-ece on mean_confidence',
    note: "Read from Table 7's temperatures; T < 1 ⇔ TS raises the mean confidence.",
  },
  {
    id: 'flsd-underconfident',
    statement: 'TS fits FLSD a temperature below 1 on CIFAR-10 ResNet-50 (T = 0.7): FLSD leaves the model underconfident there.',
    source: 'Table 7 (App. D)',
    paper: { text: 'CIFAR-10 ResNet-50: T = 0.7 for FLSD (ECE 3.84 → 1.30 %); ResNet-101: T = 1.9' },
    compare: 'flsd < flsd+ts-grid-ece on mean_confidence',
    note: "Read from Table 7's temperatures; T < 1 ⇔ TS raises the mean confidence.",
  },
  // ---- App. E (Table 8, ViT) and App. F (reliability diagrams) -----------------------------------------------
  {
    id: 'vit-mbls-best',
    statement: 'With vision transformers, MbLS outperforms the other calibration losses on CIFAR-10 and Tiny-ImageNet.',
    source: 'Table 8 (App. E)',
    paper: { text: 'CIFAR-10 ViT: ECE 0.39 % (MbLS) vs 1.13 % (FLSD, best baseline); Tiny-ImageNet: 1.26 % vs 2.37 % (LS)', difference: -0.74 },
    notTested: 'no vision transformer at machine scale, and neither CIFAR-10 nor Tiny-ImageNet is available offline',
  },
  {
    id: 'reliability-ls-high-fl-low',
    statement: "LS gives better estimates for high probabilities and FL for low ones, while MbLS's reliability diagram has a slope much closer to 1 (Tiny-ImageNet ResNet-50).",
    source: 'App. F (Fig. 5)',
    notTested: 'Tiny-ImageNet is not available offline, and a per-confidence-range comparison of reliability diagrams is not a claim kind of the suite (the report draws the diagrams)',
  },
  // ---- the suite's own checks ---------------------------------------------------------------------------------
  {
    id: 'mbls-beats-ce-nll-ts',
    statement: "App. D's comparison with Guo et al.'s TS (T by validation NLL) instead of the code's grid-ECE fit: MbLS without TS against CE with it.",
    origin: 'suite',
    compare: 'mbls < ce+temperature on ece',
  },
  {
    id: 'mbls-validation-margin-beats-ce-ts',
    statement:
      "App. D's comparison with the margin chosen by the paper's own rule (\"chosen based on the validation set of each dataset\"): the margin sweep's row, m of lowest validation ECE, without TS against CE with TS.",
    origin: 'suite',
    compare: 'mbls-margin < ce+ts-grid-ece on ece',
    note: "Added after the machine-scale run showed validation ECE lowest at m = 8 rather than the paper's CIFAR-10 m = 6; the mbls row keeps m = 6.",
  },
];

/** Claims of the text experiment (suite `mbls-text`): 20 Newsgroups, Table 6 and Table 7's "20 News" row. */
export const MBLS_TEXT_CLAIMS: readonly SuiteClaimInput[] = [
  {
    id: 'text-mbls-beats-ce',
    statement: 'On 20 Newsgroups the proposed model achieves better calibration than the competing losses, with "substantial" differences — here, than CE.',
    source: 'Table 6, §5.1 (Results on text classification)',
    headline: true,
    paper: { text: "20 Newsgroups GPCN: ECE 5.40 % (MbLS) vs 22.75 % (CE) (Table 7's PreT column)", difference: -17.35 },
    compare: 'mbls < ce on ece',
    note: 'm = 6, the margin the paper chose for 20 Newsgroups; λ = 0.1. Debian package descriptions (20 sections) stand in for 20 Newsgroups, which is not available offline.',
  },
  {
    id: 'text-mbls-beats-ls',
    statement: 'On text, MbLS is better calibrated than LS.',
    source: 'Table 6, §5.1',
    headline: true,
    paper: { text: '20 Newsgroups: ECE 5.40 % vs 8.07 % (LS)', difference: -2.67 },
    compare: 'mbls < ls on ece',
  },
  {
    id: 'text-mbls-beats-focal',
    statement: 'On text, MbLS is better calibrated than FL.',
    source: 'Table 6, §5.1',
    headline: true,
    paper: { text: '20 Newsgroups: ECE 5.40 % vs 10.80 % (FL)', difference: -5.4 },
    compare: 'mbls < focal on ece',
  },
  {
    id: 'text-mbls-beats-flsd',
    statement: 'On text, MbLS is better calibrated than FLSD.',
    source: 'Table 6, §5.1',
    headline: true,
    paper: { text: '20 Newsgroups: ECE 5.40 % vs 10.87 % (FLSD)', difference: -5.47 },
    compare: 'mbls < flsd on ece',
  },
  {
    id: 'text-mbls-accuracy-beats-ce',
    statement: 'On text, the proposed model achieves better discriminative performance than the competing losses — here, than CE.',
    source: 'Table 6, §5.1',
    paper: { text: 'Table 6 accuracies (not legible in the text copy used here)' },
    compare: 'mbls > ce on accuracy',
  },
  {
    id: 'text-mbls-accuracy-beats-ls',
    statement: 'On text, MbLS has higher accuracy than LS.',
    source: 'Table 6, §5.1',
    compare: 'mbls > ls on accuracy',
  },
  {
    id: 'text-mbls-accuracy-beats-focal',
    statement: 'On text, MbLS has higher accuracy than FL.',
    source: 'Table 6, §5.1',
    compare: 'mbls > focal on accuracy',
  },
  {
    id: 'text-mbls-accuracy-beats-flsd',
    statement: 'On text, MbLS has higher accuracy than FLSD.',
    source: 'Table 6, §5.1',
    compare: 'mbls > flsd on accuracy',
  },
  {
    id: 'text-mbls-beats-ce-ts',
    statement: 'App. D\'s sentence, on text: MbLS without TS outperforms CE with TS "across all the cases".',
    source: 'Table 7 (App. D)',
    paper: { text: "20 News GPCN: ECE 5.40 % (MbLS, no TS) vs 3.01 % (CE + TS, T = 3.1): the paper's own row goes against its sentence here", difference: 2.39 },
    compare: 'mbls < ce+ts-grid-ece on ece',
    note: TS_NOTE.replace('calibrate/net/temperature_scaling.py', 'calibrate/net/temperature_scaling.py, set_temperature_ng'),
  },
  {
    id: 'text-mbls-ts-beats-ce-ts',
    statement: 'After TS, MbLS is the best calibrated on text too — better than CE + TS.',
    source: 'Table 7 (App. D)',
    paper: { text: '20 News after TS: 2.09 % (MbLS) vs 3.01 % (CE)', difference: -0.92 },
    compare: 'mbls < ce on ece after ts-grid-ece',
  },
  {
    id: 'text-mbls-ts-beats-ls-ts',
    statement: 'After TS, MbLS is better calibrated than LS on text.',
    source: 'Table 7 (App. D)',
    paper: { text: '20 News after TS: 2.09 % vs 3.69 % (LS)', difference: -1.6 },
    compare: 'mbls < ls on ece after ts-grid-ece',
  },
  {
    id: 'text-mbls-ts-beats-focal-ts',
    statement: 'After TS, MbLS is better calibrated than FL on text.',
    source: 'Table 7 (App. D)',
    paper: { text: '20 News after TS: 2.09 % vs 3.33 % (FL)', difference: -1.24 },
    compare: 'mbls < focal on ece after ts-grid-ece',
  },
  {
    id: 'text-mbls-ts-beats-flsd-ts',
    statement: 'After TS, MbLS is better calibrated than FLSD on text.',
    source: 'Table 7 (App. D)',
    paper: { text: '20 News after TS: 2.09 % vs 4.10 % (FLSD)', difference: -2.01 },
    compare: 'mbls < flsd on ece after ts-grid-ece',
  },
  {
    id: 'text-ce-overconfident',
    statement: 'On text, CE is strongly overconfident: TS fits it a temperature above 1.',
    source: 'Table 7 (App. D)',
    paper: { text: '20 News: T = 3.1 for CE (ECE 22.75 → 3.01 %)' },
    compare: 'ce > ce+ts-grid-ece on mean_confidence',
    note: 'T > 1 ⇔ TS lowers the mean confidence.',
  },
  {
    id: 'text-ls-overconfident',
    statement: 'On text, LS stays overconfident: TS fits it a temperature above 1.',
    source: 'Table 7 (App. D)',
    paper: { text: '20 News: T = 1.2 for LS' },
    compare: 'ls > ls+ts-grid-ece on mean_confidence',
    note: "Read from Table 7's temperatures.",
  },
  {
    id: 'text-focal-overconfident',
    statement: 'On text, FL stays overconfident: TS fits it a temperature above 1.',
    source: 'Table 7 (App. D)',
    paper: { text: '20 News: T = 1.4 for FL' },
    compare: 'focal > focal+ts-grid-ece on mean_confidence',
    note: "Read from Table 7's temperatures.",
  },
  {
    id: 'text-flsd-overconfident',
    statement: 'On text, FLSD stays overconfident: TS fits it a temperature above 1.',
    source: 'Table 7 (App. D)',
    paper: { text: '20 News: T = 1.4 for FLSD' },
    compare: 'flsd > flsd+ts-grid-ece on mean_confidence',
    note: "Read from Table 7's temperatures.",
  },
  {
    id: 'text-mbls-temperature-near-one',
    statement: "MbLS's optimal temperature is very close to 1 on text too: TS barely changes its confidences.",
    source: 'Table 7 (App. D)',
    paper: { text: '20 News: T = 1.1 for MbLS (ECE 5.40 → 2.09 %)' },
    equivalent: 'mbls ~ mbls+ts-grid-ece on mean_confidence',
    margin: 0.01,
    note: 'Equivalence within ±1 point of mean confidence, as mbls-temperature-near-one.',
  },
  {
    id: 'text-glove-gpcn',
    statement: 'The 20 Newsgroups results are for a global-pooling CNN over GloVe embeddings.',
    source: 'App. B',
    notTested:
      'a setting rather than a claim: 20 Newsgroups and GloVe vectors are not available offline; the machine scale trains a text CNN with embeddings learned from scratch on Debian package descriptions',
  },
];

/** Claims of the segmentation experiment (suite `mbls-segmentation`): PASCAL VOC 2012, Table 5. */
export const MBLS_SEGMENTATION_CLAIMS: readonly SuiteClaimInput[] = [
  {
    id: 'seg-mbls-beats-ce',
    statement: '"Regardless of the backbone network, the proposed approach leads to the best calibrated and highest performing models": lower pixel ECE than CE.',
    source: 'Table 5, §5.1 (Results on image segmentation)',
    headline: true,
    paper: { text: 'VOC DeepLabV3 ResNet-50: ECE 7.94 % vs 8.26 % (CE); ResNet-34: 7.93 % vs 8.94 %', difference: -0.32 },
    compare: 'mbls < ce on ece',
    note: 'm = 10: the paper runs VOC with Tiny-ImageNet\'s hyperparameters "without any further tuning" (App. B). mnist-seg and seg-net stand in for VOC and DeepLabV3 (not available offline).',
  },
  {
    id: 'seg-mbls-beats-ecp',
    statement: 'MbLS has lower pixel ECE than ECP.',
    source: 'Table 5, §5.1',
    headline: true,
    paper: { text: 'VOC ResNet-50: ECE 7.94 % vs 8.31 % (ECP)', difference: -0.37 },
    compare: 'mbls < ecp on ece',
  },
  {
    id: 'seg-mbls-beats-ls',
    statement: 'MbLS has lower pixel ECE than LS.',
    source: 'Table 5, §5.1',
    headline: true,
    paper: { text: 'VOC ResNet-50: ECE 7.94 % vs 9.35 % (LS)', difference: -1.41 },
    compare: 'mbls < ls on ece',
  },
  {
    id: 'seg-mbls-beats-focal',
    statement: 'MbLS has lower pixel ECE than FL.',
    source: 'Table 5, §5.1',
    headline: true,
    paper: { text: 'VOC ResNet-50: ECE 7.94 % vs 11.44 % (FL)', difference: -3.5 },
    compare: 'mbls < focal on ece',
  },
  {
    id: 'seg-mbls-beats-ce-aece',
    statement: 'MbLS has lower pixel AECE than CE.',
    source: 'Table 5 (AECE)',
    paper: { text: 'VOC ResNet-50: AECE 7.99 % vs 8.23 % (CE)', difference: -0.24 },
    compare: 'mbls < ce on adaece',
  },
  {
    id: 'seg-mbls-beats-ecp-aece',
    statement: 'MbLS has lower pixel AECE than ECP.',
    source: 'Table 5 (AECE)',
    paper: { text: 'VOC ResNet-50: AECE 7.99 % vs 8.26 % (ECP)', difference: -0.27 },
    compare: 'mbls < ecp on adaece',
  },
  {
    id: 'seg-mbls-beats-ls-aece',
    statement: 'MbLS has lower pixel AECE than LS.',
    source: 'Table 5 (AECE)',
    paper: { text: 'VOC ResNet-50: AECE 7.99 % vs 9.95 % (LS)', difference: -1.96 },
    compare: 'mbls < ls on adaece',
  },
  {
    id: 'seg-mbls-beats-focal-aece',
    statement: 'MbLS has lower pixel AECE than FL.',
    source: 'Table 5 (AECE)',
    paper: { text: 'VOC ResNet-50: AECE 7.99 % vs 11.43 % (FL)', difference: -3.44 },
    compare: 'mbls < focal on adaece',
  },
  {
    id: 'seg-mbls-miou-beats-ce',
    statement: 'MbLS gives the "highest performing" segmentation: higher mIoU than CE.',
    source: 'Table 5, §5.1',
    paper: { text: 'VOC ResNet-50: mIoU 71.20 % vs 70.92 % (CE); ResNet-34: 70.24 % vs 68.78 %', difference: 0.28 },
    compare: 'mbls > ce on miou',
  },
  {
    id: 'seg-mbls-miou-beats-ecp',
    statement: 'MbLS has higher mIoU than ECP.',
    source: 'Table 5, §5.1',
    paper: { text: 'VOC ResNet-50: mIoU 71.20 % vs 71.16 % (ECP)', difference: 0.04 },
    compare: 'mbls > ecp on miou',
  },
  {
    id: 'seg-mbls-miou-beats-ls',
    statement: 'MbLS has higher mIoU than LS.',
    source: 'Table 5, §5.1',
    paper: { text: 'VOC ResNet-50: mIoU 71.20 % vs 71.00 % (LS)', difference: 0.2 },
    compare: 'mbls > ls on miou',
  },
  {
    id: 'seg-mbls-miou-beats-focal',
    statement: 'MbLS has higher mIoU than FL.',
    source: 'Table 5, §5.1',
    paper: { text: 'VOC ResNet-50: mIoU 71.20 % vs 69.99 % (FL)', difference: 1.21 },
    compare: 'mbls > focal on miou',
  },
  {
    id: 'seg-capacity',
    statement: "The differences grow with the higher-capacity ResNet-50 backbone, and MbLS's calibration does not degrade with capacity.",
    source: 'Table 5, §5.1',
    notTested: 'needs two backbones (ResNet-34 and -50 DeepLabV3); the toolkit trains one seg-net width per scale',
  },
  {
    id: 'seg-boundary-confidence',
    statement: "MbLS's confidence maps are sharper at edges: less confident at region boundaries, confident within and outside the regions; other losses struggle at boundaries.",
    source: 'Fig. 3, App. G (Fig. 6)',
    notTested: 'a visual claim about confidence maps; the suite has no boundary-pixel metric to decide it',
  },
  // ---- the suite's own checks (Table 5 has neither background-free columns nor TS) -------------------------------
  { id: 'seg-fg-mbls-beats-ce', statement: "Without the background pixels (86 % of mnist-seg's labelled pixels), MbLS has lower ECE than CE.", origin: 'suite', compare: 'mbls < ce on fg_ece' },
  { id: 'seg-fg-mbls-beats-ecp', statement: 'Without background, MbLS has lower ECE than ECP.', origin: 'suite', compare: 'mbls < ecp on fg_ece' },
  { id: 'seg-fg-mbls-beats-ls', statement: 'Without background, MbLS has lower ECE than LS.', origin: 'suite', compare: 'mbls < ls on fg_ece' },
  { id: 'seg-fg-mbls-beats-focal', statement: 'Without background, MbLS has lower ECE than FL.', origin: 'suite', compare: 'mbls < focal on fg_ece' },
  { id: 'seg-ts-mbls-beats-ce', statement: 'After TS fitted on the validation pixels, MbLS has lower pixel ECE than CE.', origin: 'suite', compare: 'mbls < ce on ece after temperature' },
  { id: 'seg-ts-fg-mbls-beats-ce', statement: 'After TS, without background, MbLS has lower ECE than CE.', origin: 'suite', compare: 'mbls < ce on fg_ece after temperature' },
];
