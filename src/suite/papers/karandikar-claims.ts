/**
 * The claims of Karandikar, Cain, Tran, Lakshminarayanan, Shlens, Mozer, Roelofs, "Soft Calibration Objectives for
 * Neural Networks" (NeurIPS 2021; ../shared/papers/004_9ecc4742ac49a960.txt), as data for the `karandikar` suite
 * (issue #22, CLAIMS-SPEC.md): every quantitative claim of the paper with where it makes it, the comparison as the
 * paper makes it, the paper's own number where it gives one, and the claims the suite cannot test with the reason.
 *
 * The metric: every ECE in the paper's tables is ℓ2 over 15 equal-mass bins ("The ECE measured here is ℓ2 norm
 * equal-mass ECE with 15 bins", App. A; the captions of Tables 1, 2, 5, 6 and Figs. 1, 2, 5, 9), so the clean-data
 * claims use `adaece_l2` (15 bins: the runs' `bins`) and the shift claims `shift_adaece_l2` (the same ECE on each
 * corrupted test set, averaged over the corruptions × severities, as Figs. 2, 7 and 9 average over CIFAR-10-C's
 * corruption types). Only Table 3 (train-set memorisation) uses ℓ1 equal-width ECE.
 *
 * The paper's numbers: the CIFAR-10 rows (Tables 1b and 2, WRN-28-10, 10 runs each, mean ± SEM), the 10-class task
 * closest to the suite's Fashion-MNIST; other datasets are quoted in `text` where the claim rests on them. Differences
 * are left − right in points of % (ECE and accuracy are shown in %).
 *
 * Equivalence margins: the paper states none. For ECE "as good as" claims the margin is 0.25 pt, midway between
 * the largest difference the paper calls equivalent in Table 1b (0.10 pt: focal + SB-ECE 1.19 vs NLL + MMCE + TS
 * 1.09; focal + S-AvUC 1.58 vs NLL + MMCE 1.55) and the smallest it reports as a win there (0.36 pt: focal + SB-ECE
 * 1.19 vs NLL + MMCE 1.55). For "less than 1 % decrease in accuracy" the margin is 1 pt (the paper's 1 %; read as
 * relative — App. G's rule — it is 0.85 pt at the machine scale's ≈ 85 % accuracy; the paper's largest Table 1b
 * drop is 1.1 pt, focal + S-AvUC).
 */
import type { SuiteClaimInput } from '../claims/claim-schema.js';
import { deepRunsCost } from './deep-grids.js';

/** The metric of the paper's tables: ECE, ℓ2, 15 equal-mass bins. */
const ECE = 'adaece_l2';
/** The same ECE under shift: mean over the corrupted test sets (9 corruptions × severities 1–5). */
const SHIFT_ECE = 'shift_adaece_l2';

/** Why App. B's memorisation claims are not tested where cross-entropy does not memorise its training set. */
const NOT_MEMORISING =
  "App. B's premise is NLL memorising its training set (near-perfect training accuracy and calibration; train ECE 0.05 % on CIFAR-10, Table 3); at this scale NLL does not (machine scale: ≈ 91 % training accuracy, ≈ 1.5 % train ECE). Tested at deep scale, where NLL reaches 100 % training accuracy.";

const SHIFT_NOTE =
  "Shift: the suite's 9 single-filter corruptions of the Fashion-MNIST test images at severities 1–5 (2,000 images per set at machine scale) stand in for CIFAR-10-C's corruption types; calibrators fitted on the clean validation split, as the paper fits TS in distribution.";

export const KARANDIKAR_CLAIMS: readonly SuiteClaimInput[] = [
  // ---- Headline claims (abstract, §1 contributions, §5.1–5.3) ----
  {
    id: 'focal-sbece-beats-nll-ts',
    statement:
      'Soft calibration objectives without post-hoc temperature scaling are better than or as good as other methods with post-hoc temperature scaling: focal + SB-ECE has lower ECE than NLL + TS.',
    source: '§5.1; Table 1b',
    headline: true,
    paper: { text: 'CIFAR-10 WRN-28-10: ECE 1.19 ± 0.088 % (focal + SB-ECE) vs 1.95 ± 0.127 % (NLL + TS)', difference: -0.76 },
    compare: `focal-sbece < nll+temperature on ${ECE}`,
    note: 'As the paper compares: the soft objective raw against NLL after TS fitted on held-out data.',
  },
  {
    id: 'focal-savuc-beats-nll-ts',
    statement:
      'Our methods (especially S-AvUC) without post-hoc temperature scaling are better than or as good as other methods with post-hoc temperature scaling: focal + S-AvUC has lower ECE than NLL + TS.',
    source: '§5.1; Table 1b; abstract',
    headline: true,
    paper: { text: 'CIFAR-10: 1.58 ± 0.146 % (focal + S-AvUC) vs 1.95 ± 0.127 % (NLL + TS); abstract, CIFAR-100: 1.57 % vs 5.36 %, "70% relative to the post-hoc rescaled ECE"', difference: -0.37 },
    compare: `focal-savuc < nll+temperature on ${ECE}`,
  },
  {
    id: 'focal-sbece-beats-focal',
    statement: 'SB-ECE as a secondary loss achieves lower ECE than the corresponding primary loss alone (focal).',
    source: 'Fig. 5; Table 1b; Table 2',
    headline: true,
    paper: { text: 'CIFAR-10: 1.19 ± 0.088 % (focal + SB-ECE) vs 5.45 ± 0.079 % (focal)', difference: -4.26 },
    compare: `focal-sbece < focal on ${ECE}`,
  },
  {
    id: 'focal-sbece-beats-nll-mmce',
    statement: 'Soft calibration objectives outperform prior calibration-incentivising losses: focal + SB-ECE has lower ECE than NLL + MMCE, the best MMCE configuration.',
    source: 'Table 1b; §1 ("soft-calibration losses outperform prior work on in-distribution test sets")',
    headline: true,
    paper: { text: 'CIFAR-10: 1.19 ± 0.088 % (focal + SB-ECE) vs 1.55 ± 0.053 % (NLL + MMCE)', difference: -0.36 },
    compare: `focal-sbece < nll-mmce on ${ECE}`,
    note: 'The paper\'s SB-ECE–MMCE comparison is between their best configurations (Table 1b); with the NLL primary its Table 2 has MMCE below SB-ECE (CIFAR-10 1.55 % vs 5.84 %), so "NLL + SB-ECE < NLL + MMCE" is not a claim of the paper.',
  },
  {
    id: 'ts-sbece-beats-ts',
    statement: 'Optimising the temperature for SB-ECE (TS-SB-ECE) instead of NLL improves upon temperature scaling on the in-distribution test set (NLL-trained model).',
    source: 'abstract; §1; §5.2; Table 2; App. C',
    headline: true,
    paper: { text: 'CIFAR-10 NLL: ECE after TS-SB-ECE 1.16 ± 0.106 % vs after TS 1.95 ± 0.127 %', difference: -0.79 },
    compare: `nll+ts-sb-ece < nll+temperature on ${ECE}`,
  },
  {
    id: 'ts-sbece-beats-ts-under-shift',
    statement: 'TS-SB-ECE reduces ECE more than standard TS, particularly under distribution shift (NLL-trained model, mean ECE across corruption types).',
    source: 'Fig. 2; §5.2',
    headline: true,
    compare: `nll+ts-sb-ece < nll+temperature on ${SHIFT_ECE}`,
    note: `Fig. 2 gives no numbers in the text. ${SHIFT_NOTE}`,
  },
  {
    id: 'focal-beats-nll-ts-under-shift',
    statement: 'Methods which train for calibration "also outperform the cross-entropy loss with TS under dataset shift": focal loss has a lower ECE under shift than NLL + TS.',
    source: '§5.3; Fig. 7; abstract',
    headline: true,
    compare: `focal < nll+temperature on ${SHIFT_ECE}`,
    note: `Fig. 7 gives no numbers in the text. §5.3's other half, focal doing better than the soft objectives on CIFAR-10-C, is focal-overtakes-sbece-under-shift and focal-overtakes-savuc-under-shift. ${SHIFT_NOTE}`,
  },
  {
    id: 'focal-sbece-keeps-accuracy',
    statement: 'Soft calibration losses reach their ECE with less than 1 % decrease in accuracy relative to the cross-entropy baseline (focal + SB-ECE vs NLL).',
    source: 'abstract; §5.1; Fig. 5; App. A',
    headline: true,
    paper: { text: 'CIFAR-10 accuracy: 95.1 ± 0.056 % (focal + SB-ECE) vs 95.5 ± 0.040 % (NLL)', difference: -0.4 },
    equivalent: 'focal-sbece ~ nll on accuracy',
    margin: 0.01,
    note: 'The paper bounds the loss only ("less than 1%"); tested as equivalence within ±1 pt (a gain above 1 pt would also fail it; none of the paper\'s cells gains).',
  },

  // ---- §5.1 / Table 1 / Fig. 5: soft objectives against the primaries and the baselines ----
  {
    id: 'focal-savuc-beats-focal',
    statement: 'S-AvUC as a secondary loss achieves lower ECE than the corresponding primary loss alone (focal); S-AvUC shows the strongest effect of the secondary losses.',
    source: 'Fig. 5; Fig. 1; Table 1b',
    paper: { text: 'CIFAR-10: 1.58 ± 0.146 % (focal + S-AvUC) vs 5.45 ± 0.079 % (focal)', difference: -3.87 },
    compare: `focal-savuc < focal on ${ECE}`,
  },
  {
    id: 'mse-sbece-beats-mse',
    statement: 'SB-ECE as a secondary loss achieves lower ECE than the corresponding primary loss alone (MSE).',
    source: 'Fig. 5; Table 2',
    paper: { text: 'CIFAR-10: 4.37 ± 0.143 % (MSE + SB-ECE) vs 6.58 ± 0.034 % (MSE)', difference: -2.21 },
    compare: `mse-sbece < mse on ${ECE}`,
  },
  {
    id: 'mse-savuc-beats-mse',
    statement: 'S-AvUC as a secondary loss achieves lower ECE than the corresponding primary loss alone (MSE).',
    source: 'Fig. 5; Fig. 1; Table 2',
    paper: { text: 'CIFAR-10: 3.40 ± 0.126 % (MSE + S-AvUC) vs 6.58 ± 0.034 % (MSE)', difference: -3.18 },
    compare: `mse-savuc < mse on ${ECE}`,
  },
  {
    id: 'nll-sbece-beats-nll',
    statement: 'SB-ECE as a secondary loss achieves lower ECE than the corresponding primary loss alone (NLL).',
    source: 'Fig. 5; Table 2; App. B',
    paper: {
      text: 'CIFAR-10: 5.84 ± 0.121 % (NLL + SB-ECE) vs 5.59 ± 0.119 % (NLL) — no gain; CIFAR-100 (with interleaved training, App. B): 6.86 % vs 9.10 %; ImageNet: 3.11 % vs 3.81 %',
      difference: 0.25,
    },
    compare: `nll-sbece < nll on ${ECE}`,
    note: "The paper's own CIFAR-10 table shows no NLL gain: App. B attributes it to NLL memorising the CIFAR training set (train ECE 0.05 %, Table 3), where the secondary loss has nothing left to correct; the gains it reports with NLL are on CIFAR-100 (interleaved training) and ImageNet. At machine scale NLL does not memorise (≈ 91 % training accuracy), so Fig. 5's claim applies.",
    atScale: {
      deep: {
        compare: `nll-sbece < nll on ${ECE}`,
        note: "At deep scale NLL memorises its training set (100 % training accuracy), CIFAR-10's regime, where the paper's own row shows no gain (App. B, Table 3); Fig. 5's claim is decided as stated, and the memorising regime's reading — no gain — is nll-sbece-no-gain-when-nll-memorises (NLL + SB-ECE at β = 1, 3 seeds; the deep grid).",
      },
    },
  },
  {
    id: 'nll-savuc-beats-nll',
    statement: 'S-AvUC as a secondary loss achieves lower ECE than the corresponding primary loss alone (NLL).',
    source: 'Fig. 5; Fig. 1; Table 2',
    paper: { text: 'CIFAR-10: 5.87 ± 0.113 % (NLL + S-AvUC) vs 5.59 ± 0.119 % (NLL) — no gain; CIFAR-100: 6.10 % vs 9.10 %; ImageNet: 2.26 % vs 3.81 %', difference: 0.28 },
    compare: `nll-savuc < nll on ${ECE}`,
    note: "As nll-sbece-beats-nll: no gain in the paper's CIFAR-10 row (memorisation, App. B); gains on CIFAR-100 and ImageNet.",
  },
  {
    id: 'focal-savuc-beats-nll',
    statement: 'Soft calibration objectives give a large reduction in ECE relative to the cross-entropy baseline (focal + S-AvUC vs NLL; "an 82% reduction in ECE" on CIFAR-100).',
    source: 'abstract; Table 1',
    paper: { text: 'CIFAR-100: 1.57 ± 0.122 % (focal + S-AvUC) vs 9.10 ± 0.139 % (NLL), an 82 % reduction; CIFAR-10: 1.58 % vs 5.59 %', difference: -4.01 },
    compare: `focal-savuc < nll on ${ECE}`,
  },
  {
    id: 'focal-savuc-on-par-with-nll-mmce',
    statement: 'Soft calibration objectives result in better or equivalent ECEs compared to previous methods: focal + S-AvUC is on par with NLL + MMCE.',
    source: 'Table 1 caption; Table 1b',
    paper: { text: 'CIFAR-10: 1.58 ± 0.146 % (focal + S-AvUC) vs 1.55 ± 0.053 % (NLL + MMCE)', difference: 0.03 },
    equivalent: `focal-savuc ~ nll-mmce on ${ECE}`,
    margin: 0.0025,
    note: 'Margin 0.25 pt (see the file header: midway between what Table 1b calls equivalent and what it calls a win).',
  },
  {
    id: 'focal-sbece-on-par-with-nll-mmce-ts',
    statement: 'Our methods without post-hoc temperature scaling are as good as other methods with post-hoc temperature scaling: focal + SB-ECE is on par with NLL + MMCE + TS.',
    source: '§5.1; Table 1b',
    paper: { text: 'CIFAR-10: 1.19 ± 0.088 % (focal + SB-ECE) vs 1.09 ± 0.098 % (NLL + MMCE + TS)', difference: 0.1 },
    equivalent: `focal-sbece ~ nll-mmce+temperature on ${ECE}`,
    margin: 0.0025,
    note: 'Margin 0.25 pt (file header).',
  },
  {
    id: 'focal-savuc-keeps-accuracy',
    statement: 'Soft calibration losses cost less than 1 % accuracy relative to the cross-entropy baseline (focal + S-AvUC vs NLL).',
    source: 'abstract; §5.1; Fig. 5',
    paper: {
      text: "CIFAR-10: 94.4 ± 0.145 % (focal + S-AvUC) vs 95.5 ± 0.040 % (NLL) — more than the paper's own 1 % bound; CIFAR-100: 78.1 % vs 78.7 % (0.7 % relative, abstract)",
      difference: -1.1,
    },
    equivalent: 'focal-savuc ~ nll on accuracy',
    margin: 0.01,
    note: 'Tested as equivalence within ±1 pt, as focal-sbece-keeps-accuracy.',
  },
  {
    id: 'ts-does-not-always-help',
    statement: 'Temperature scaling does not always improve ECE, especially when the training loss is different from NLL: TS raises the ECE of focal + SB-ECE.',
    source: 'Table 1 caption; Table 1b; §5.2; App. A',
    paper: { text: 'CIFAR-10 focal + SB-ECE: 2.08 ± 0.143 % after TS vs 1.19 ± 0.088 % raw', difference: 0.89 },
    compare: `focal-sbece+temperature > focal-sbece on ${ECE}`,
  },

  // ---- Fig. 1: secondary losses still help after temperature scaling ----
  {
    id: 'focal-savuc-beats-focal-after-ts',
    statement: 'Secondary losses which incentivise calibration show a strong positive effect for reducing ECE even after temperature scaling (S-AvUC, focal primary).',
    source: 'Fig. 1; Table 2',
    paper: { text: 'CIFAR-10, ECE after TS: 1.34 ± 0.172 % (focal + S-AvUC) vs 2.69 ± 0.190 % (focal)', difference: -1.35 },
    compare: `focal-savuc < focal on ${ECE} after temperature`,
  },
  {
    id: 'mse-savuc-beats-mse-after-ts',
    statement: 'Secondary losses which incentivise calibration reduce ECE even after temperature scaling (S-AvUC, MSE primary).',
    source: 'Fig. 1; Table 2',
    paper: { text: 'CIFAR-10, ECE after TS: 1.87 ± 0.080 % (MSE + S-AvUC) vs 5.33 ± 0.122 % (MSE)', difference: -3.46 },
    compare: `mse-savuc < mse on ${ECE} after temperature`,
  },
  {
    id: 'nll-savuc-beats-nll-after-ts',
    statement: 'Secondary losses which incentivise calibration reduce ECE even after temperature scaling (S-AvUC, NLL primary).',
    source: 'Fig. 1; Table 2',
    paper: { text: 'CIFAR-10, ECE after TS: 2.24 ± 0.130 % (NLL + S-AvUC) vs 1.95 ± 0.127 % (NLL) — no gain; CIFAR-100: 9.13 % vs 5.36 % — worse; ImageNet: 2.02 % vs 2.17 %', difference: 0.29 },
    compare: `nll-savuc < nll on ${ECE} after temperature`,
    note: "Fig. 1 pools the effect over datasets and primaries; the paper's own NLL rows do not show it on CIFAR-10 or CIFAR-100.",
  },
  {
    id: 'secondary-loss-effect-ranking',
    statement: "Across datasets and primary losses, S-AvUC has the largest effect size (Cohen's d) on ECE, followed by MMCE and SB-ECE, with and without temperature scaling.",
    source: 'Fig. 1; §1',
    notTested:
      "Cohen's d pooled over 7 dataset × primary settings (CIFAR-10/100 × 3 primaries, ImageNet × NLL); the suite has one dataset, and no qualitative kind ranks pooled effect sizes. The per-primary S-AvUC effects are tested (focal-savuc-beats-focal, mse-savuc-beats-mse, nll-savuc-beats-nll and their after-TS versions).",
  },
  {
    id: 'soft-objectives-best-after-ts',
    statement: '"Soft Calibration Objectives are also either the best or equivalent to other methods for all datasets when we consider the numbers after temperature scaling."',
    source: 'App. A; Table 2',
    paper: { text: 'CIFAR-10 (Table 2), ECE after TS: 1.34 % (focal + S-AvUC), the lowest soft-objective row, vs 1.09 % (NLL + MMCE), the lowest of all' },
    notTested:
      "a best-or-equivalent-of-group criterion over the 18 configurations is not among the qualitative kinds (as soft-objectives-best-ece); the after-TS comparisons per primary are tested (focal-savuc-beats-focal-after-ts, mse-savuc-beats-mse-after-ts, nll-savuc-beats-nll-after-ts), and the report's results table shows every method's ECE after TS",
  },
  {
    id: 'soft-objectives-best-ece',
    statement: 'The best ECE for each dataset is attained using soft calibration objectives as secondary losses (state-of-the-art single-model ECE).',
    source: '§5.1; Fig. 5; Table 2; App. A',
    notTested:
      "A best-of-group criterion (the lowest seed-mean ECE of the 18 configurations belongs to an SB-ECE or S-AvUC one) is not among the qualitative kinds (argmin/argmax over a sweep, u-shape, monotone, order); the pairwise claims against the paper's strongest baselines (NLL + MMCE, NLL + TS, focal) are tested. The report's results table shows the lowest mean ECE per column.",
  },
  {
    id: 'savuc-sbece-lowest-ece-order',
    statement: 'In the ECE vs average-uncertainty plots, S-AvUC results in the lowest ECE and SB-ECE is the next best (CIFAR-10, CIFAR-100), ahead of NLL + MMCE.',
    source: 'Fig. 10 (App. D)',
    qualitative: { kind: 'order', methods: ['focal-savuc', 'focal-sbece', 'nll-mmce'], metric: ECE },
    note: 'Fig. 10 shows the Table 1 methods; its text ranks S-AvUC first and SB-ECE second (the table-1b numbers put focal + SB-ECE 1.19 % ahead of focal + S-AvUC 1.58 % on CIFAR-10). Criterion: seed means in this order, lowest first; the other Fig. 10 methods (NLL, focal, MSE) are compared by the claims above.',
  },

  // ---- §5.2 / App. C / Fig. 9: TS-SB-ECE vs TS on the other primaries, and under shift ----
  {
    id: 'ts-sbece-beats-ts-under-shift-severity-5',
    statement: 'TS-SB-ECE reduces ECE more than TS across distribution-shift intensities, up to the strongest (severity 5; NLL-trained model).',
    source: 'Fig. 2; App. C ("under all levels of skew")',
    compare: `nll+ts-sb-ece < nll+temperature on ${SHIFT_ECE}_s5`,
    note: `The report's shift table gives TS-SB-ECE − TS at every severity. ${SHIFT_NOTE}`,
  },
  {
    id: 'ts-sbece-beats-ts-focal',
    statement: 'TS-SB-ECE outperforms TS on the i.i.d. test set for models trained with the focal primary loss.',
    source: 'App. C; Fig. 9; Table 2',
    paper: { text: 'CIFAR-10 focal: 1.77 ± 0.115 % (TS-SB-ECE) vs 2.69 ± 0.190 % (TS)', difference: -0.92 },
    compare: `focal+ts-sb-ece < focal+temperature on ${ECE}`,
  },
  {
    id: 'ts-sbece-beats-ts-mse',
    statement: 'TS-SB-ECE outperforms TS on the i.i.d. test set for models trained with the MSE primary loss.',
    source: 'App. C; Fig. 9; Table 2',
    paper: { text: 'CIFAR-10 MSE: 4.43 ± 0.106 % (TS-SB-ECE) vs 5.33 ± 0.122 % (TS)', difference: -0.9 },
    compare: `mse+ts-sb-ece < mse+temperature on ${ECE}`,
  },
  {
    id: 'ts-sbece-beats-ts-focal-under-shift',
    statement: 'TS-SB-ECE outperforms TS under distribution shift for the focal primary loss.',
    source: 'Fig. 9 (App. C)',
    compare: `focal+ts-sb-ece < focal+temperature on ${SHIFT_ECE}`,
    note: `Fig. 9 gives no numbers in the text. ${SHIFT_NOTE}`,
  },
  {
    id: 'ts-sbece-beats-ts-mse-under-shift',
    statement: 'TS-SB-ECE outperforms TS under distribution shift for the MSE primary loss.',
    source: 'Fig. 9 (App. C)',
    compare: `mse+ts-sb-ece < mse+temperature on ${SHIFT_ECE}`,
    note: `Fig. 9 gives no numbers in the text. ${SHIFT_NOTE}`,
  },
  {
    id: 'ts-sbece-beats-ts-other-measures',
    statement: 'TS-SB-ECE consistently beats original temperature scaling across datasets, loss functions and calibration error measures (here: ℓ1 equal-width ECE, NLL-trained model).',
    source: '§1 (contributions)',
    compare: 'nll+ts-sb-ece < nll+temperature on ece',
    note: 'The paper does not say which other measures; ℓ1 over 15 equal-width bins is the common one (its Table 3 uses it).',
  },
  {
    id: 'ts-sbece-wins-35-of-42',
    statement: 'TS-SB-ECE outperforms TS in 35 of the 42 settings of Table 2.',
    source: 'App. C; Table 2',
    notTested:
      "A count over configurations (how many of the 18 methods have a lower seed-mean ECE after TS-SB-ECE than after TS) is not among the qualitative kinds; the report's results table has both columns for every method, and the per-primary claims are tested.",
  },

  {
    id: 'ts-hbece-higher-variance',
    statement: '"TS-HB-ECE has higher variance than TS-SB-ECE for a given sample size, which risks a suboptimal solution even if TS-HB-ECE is the quantity we wish to optimize."',
    source: 'App. C',
    notTested:
      "the variance of a fitted temperature over resamples of the recalibration set is not recorded by a run and is not a claim metric; the suite's own check suite-ts-hbece-vs-ts compares the two fits' test ECE",
  },

  // ---- §5.3 / Fig. 7: training for calibration under shift ----
  {
    id: 'focal-beats-nll-under-shift',
    statement: 'Under distribution shift, methods which train for calibration outperform NLL: focal loss has lower ECE than NLL.',
    source: '§5.3; Fig. 7',
    compare: `focal < nll on ${SHIFT_ECE}`,
    note: `Fig. 7 gives no numbers in the text. ${SHIFT_NOTE}`,
  },
  {
    id: 'nll-mmce-beats-nll-ts-under-shift',
    statement: 'The MMCE secondary loss results in one of the lowest ECEs under shift, below NLL + TS.',
    source: '§5.3; Fig. 7',
    compare: `nll-mmce < nll+temperature on ${SHIFT_ECE}`,
    note: `MMCE with the NLL primary, the MMCE configuration of Table 1 (Fig. 7's legend is not in the text). ${SHIFT_NOTE}`,
  },
  {
    id: 'focal-overtakes-sbece-under-shift',
    statement: 'Focal loss starts off with worse ECE than the SB-ECE method on the test set but ends up with better ECE under increasing levels of skew (severity 5).',
    source: 'Fig. 7',
    compare: `focal < focal-sbece on ${SHIFT_ECE}_s5`,
    note: `The in-distribution half ("starts off worse") is focal-sbece-beats-focal. The SB-ECE method is focal + SB-ECE, Table 1's (Fig. 7's legend is not in the text). ${SHIFT_NOTE}`,
  },
  {
    id: 'mmce-overtakes-sbece-under-shift',
    statement: 'MMCE starts off with worse ECE than the SB-ECE method on the test set but ends up with better ECE under increasing levels of skew (severity 5).',
    source: 'Fig. 7',
    compare: `nll-mmce < focal-sbece on ${SHIFT_ECE}_s5`,
    note: `The in-distribution half ("starts off worse") is focal-sbece-beats-nll-mmce. ${SHIFT_NOTE}`,
  },
  {
    id: 'focal-overtakes-savuc-under-shift',
    statement: 'Focal loss starts off with worse ECE than the S-AvUC method on the test set but ends up with better ECE under increasing levels of skew (severity 5).',
    source: 'Fig. 7',
    compare: `focal < focal-savuc on ${SHIFT_ECE}_s5`,
    note: `The in-distribution half ("starts off worse") is focal-savuc-beats-focal. The S-AvUC method is focal + S-AvUC, Table 1's. ${SHIFT_NOTE}`,
  },
  {
    id: 'mmce-overtakes-savuc-under-shift',
    statement: 'MMCE starts off with worse ECE than the S-AvUC method on the test set but ends up with better ECE under increasing levels of skew (severity 5).',
    source: 'Fig. 7',
    compare: `nll-mmce < focal-savuc on ${SHIFT_ECE}_s5`,
    note: `In distribution the paper has them on par (focal-savuc-on-par-with-nll-mmce: CIFAR-10 1.58 % vs 1.55 %). ${SHIFT_NOTE}`,
  },
  {
    id: 'savuc-best-under-shift-imagenet',
    statement: 'On ImageNet, the S-AvUC secondary loss yields the lowest ECEs under dataset shift.',
    source: '§5.3; Fig. 8',
    notTested: 'ImageNet and its shifted versions are not on this machine (no network); the suite is a 10-class task.',
  },

  // ---- §4.2 / App. F: AvUC and AvUC-GS ----
  {
    id: 'avuc-hurts-nll',
    statement: 'The addition of the AvUC loss term results in poorly calibrated models in non-SVI neural network settings (NLL primary).',
    source: '§4.2; App. F; Table 2',
    paper: { text: 'CIFAR-100: 11.4 ± 0.175 % (NLL + AvUC) vs 9.10 % (NLL); CIFAR-10: 5.27 ± 0.101 % vs 5.59 % (slightly better)', difference: -0.32 },
    compare: `nll-avuc > nll on ${ECE}`,
    note: "The paper's own CIFAR-10 row has AvUC slightly below NLL (and far below focal alone: 1.34 % vs 5.45 %), so the claim rests on CIFAR-100.",
  },
  {
    id: 'avucgs-beats-avuc-nll',
    statement: 'AvUC-GS (AvUC with the gradients through the confidence factors stopped) has lower ECE than AvUC (NLL primary).',
    source: 'App. F; Table 2',
    paper: { text: 'CIFAR-10 NLL: 4.94 ± 0.109 % (AvUC-GS) vs 5.27 ± 0.101 % (AvUC); CIFAR-100: 6.21 % vs 11.4 %', difference: -0.33 },
    compare: `nll-avucgs < nll-avuc on ${ECE}`,
  },
  {
    id: 'avucgs-beats-avuc-focal',
    statement: 'AvUC-GS has lower ECE than AvUC across primary losses (focal primary).',
    source: 'App. F; Table 2',
    paper: { text: 'CIFAR-10 focal: 1.39 ± 0.081 % (AvUC-GS) vs 1.34 ± 0.084 % (AvUC) — not lower; CIFAR-100: 3.38 % vs 5.68 %', difference: 0.05 },
    compare: `focal-avucgs < focal-avuc on ${ECE}`,
    note: 'App. F says the rows have lower ECE "on an average"; the paper\'s own CIFAR-10 focal and MSE rows do not.',
  },
  {
    id: 'avucgs-beats-avuc-mse',
    statement: 'AvUC-GS has lower ECE than AvUC across primary losses (MSE primary).',
    source: 'App. F; Table 2',
    paper: { text: 'CIFAR-10 MSE: 5.44 ± 0.146 % (AvUC-GS) vs 3.64 ± 0.066 % (AvUC) — higher; CIFAR-100: 4.31 % vs 4.27 %', difference: 1.8 },
    compare: `mse-avucgs < mse-avuc on ${ECE}`,
    note: "As avucgs-beats-avuc-focal: the paper's own MSE rows do not show it.",
  },
  {
    id: 'savuc-beats-avucgs-nll',
    statement: 'S-AvUC, inspired by AvUC-GS, generalises, outperforms and supersedes it (NLL primary).',
    source: 'App. F; Table 2',
    paper: { text: 'CIFAR-10 NLL: 5.87 ± 0.113 % (S-AvUC) vs 4.94 ± 0.109 % (AvUC-GS) — higher; CIFAR-100: 6.10 % vs 6.21 %', difference: 0.93 },
    compare: `nll-savuc < nll-avucgs on ${ECE}`,
  },
  {
    id: 'savuc-beats-avucgs-focal',
    statement: 'S-AvUC outperforms AvUC-GS (focal primary).',
    source: 'App. F; Table 2',
    paper: { text: 'CIFAR-10 focal: 1.58 ± 0.146 % (S-AvUC) vs 1.39 ± 0.081 % (AvUC-GS) — higher; CIFAR-100: 1.57 % vs 3.38 %', difference: 0.19 },
    compare: `focal-savuc < focal-avucgs on ${ECE}`,
  },
  {
    id: 'savuc-beats-avucgs-mse',
    statement: 'S-AvUC outperforms AvUC-GS (MSE primary).',
    source: 'App. F; Table 2',
    paper: { text: 'CIFAR-10 MSE: 3.40 ± 0.126 % (S-AvUC) vs 5.44 ± 0.146 % (AvUC-GS); CIFAR-100: 3.69 % vs 4.31 %', difference: -2.04 },
    compare: `mse-savuc < mse-avucgs on ${ECE}`,
  },

  // ---- App. D / Figs. 6 and 10: over- and underconfidence ----
  {
    id: 'mmce-reduces-nll-overconfidence',
    statement: 'NLL results in overconfident models, and adding MMCE as a secondary loss reduces the overconfidence.',
    source: 'App. D; Fig. 10; Fig. 6',
    compare: 'nll-mmce < nll on oe',
    note: 'Overconfidence measured by the overconfidence error OE (Thulasidasan et al. 2019: Σ_m (n_m/N)·conf_m·max(conf_m − acc_m, 0), 15 equal-width bins); the figures show reliability diagrams, no numbers.',
  },
  {
    id: 'focal-higher-uncertainty-than-nll',
    statement: 'NLL results in the least average uncertainty, whereas focal loss is amongst the highest average uncertainties.',
    source: 'App. D; Fig. 10',
    compare: 'focal > nll on mean_entropy',
    note: 'Average uncertainty read as the mean predictive entropy (the paper\'s "average uncertainty" axis is not defined further in the text).',
  },
  {
    id: 'focal-underconfident',
    statement: 'Models trained with focal loss are underconfident ("Focal loss, on the other hand, results in underconfident models").',
    source: 'App. D; Fig. 10; Fig. 6',
    paper: { text: 'reliability diagrams only (Figs. 6 and 10, CIFAR-100, CIFAR-10, ImageNet); no number in the text' },
    compare: 'focal < focal+temperature on mean_confidence',
    note: 'Underconfidence read through temperature scaling (T by validation NLL): T < 1 ⇔ TS raises the mean confidence (raw < after TS), as the mbls suite reads Table 7\'s temperatures. The sentence\'s other half, "augmenting it with Soft Calibration Objectives fixes this issue" (Fig. 6), is read through the lower ECE of focal + SB-ECE and focal + S-AvUC (focal-sbece-beats-focal, focal-savuc-beats-focal).',
  },

  {
    id: 'ts-less-effective-for-mse',
    statement:
      'The MSE primary loss gives models overconfident in some confidence bins and underconfident in others, "which helps to explain why temperature scaling is not as effective for MSE as compared to Focal and NLL".',
    source: 'App. D; Table 2',
    paper: { text: 'CIFAR-10 (Table 2), ECE raw → after TS: MSE 6.58 → 5.33 %, focal 5.45 → 2.69 %, NLL 5.59 → 1.95 %' },
    notTested: "a comparison of TS's gain between two methods (a difference of differences) is not in the claim grammar; the report's results table gives every method's ECE before and after TS",
  },
  // ---- App. G: the accuracy cost of the other calibration-incentivising losses ----
  ...(
    [
      ['mmce', 'nll-mmce', 'NLL + MMCE', 'CIFAR-10 (Table 2): 95.0 ± 0.031 % (NLL + MMCE) vs 95.5 ± 0.040 % (NLL); CIFAR-100: 77.2 % vs 78.7 %', -0.5],
      ['avuc', 'nll-avuc', 'NLL + AvUC', 'CIFAR-10 (Table 2): 95.5 ± 0.053 % (NLL + AvUC) vs 95.5 ± 0.040 % (NLL) — no loss; CIFAR-100: 76.2 % vs 78.7 %', 0],
      ['focal', 'focal', 'focal loss', 'CIFAR-10 (Table 2): 95.0 ± 0.085 % (focal) vs 95.5 ± 0.040 % (NLL); CIFAR-100: 78.3 % vs 78.7 %', -0.5],
      ['mse', 'mse', 'MSE loss', 'CIFAR-10 (Table 2): 95.0 ± 0.041 % (MSE) vs 95.5 ± 0.040 % (NLL); CIFAR-100: 77.9 % vs 78.7 %', -0.5],
    ] as const
  ).map(([key, method, label, text, difference]): SuiteClaimInput => ({
    id: `${key}-costs-accuracy`,
    statement: `"Other methods to train for calibration (MMCE, AvUC, Focal loss, MSE loss) also have to sacrifice a small amount of accuracy relative to the cross-entropy baseline in order to attain better calibrated models": ${label} has a lower accuracy than NLL.`,
    source: 'App. G; Table 2',
    paper: { text, difference },
    compare: `${method} < nll on accuracy`,
    note: "Each configuration at its β chosen by App. G's rule (the lowest validation ECE within 1 % of the best validation accuracy), as the other claims.",
  })),
  // ---- App. E / I / J: other measures and Dirichlet calibration ----
  {
    id: 'focal-sbece-beats-nll-mmce-ks',
    statement: 'The findings based on KS-error are consistent with those based on ECE: soft calibration objectives outperform all other methods (focal + SB-ECE vs NLL + MMCE).',
    source: 'Table 4b (App. E)',
    paper: { text: 'CIFAR-10 KS-error: 0.41 % (focal + SB-ECE) vs 0.83 % (NLL + MMCE)', difference: -0.42 },
    compare: 'focal-sbece < nll-mmce on ks',
  },
  {
    id: 'focal-sbece-beats-nll-mmce-sweep',
    statement: 'The findings based on mean-sweep CE are consistent with those based on ECE (focal + SB-ECE vs NLL + MMCE).',
    source: 'Table 4b (App. E)',
    paper: { text: 'CIFAR-10 mean-sweep CE: 0.77 % (focal + SB-ECE) vs 1.30 % (NLL + MMCE)', difference: -0.53 },
    compare: 'focal-sbece < nll-mmce on sweep_ece',
    note: "sweep_ece is Roelofs et al. 2020's monotonic-sweep ECE, ℓ2 over equal-mass bins, the estimator the paper cites for its mean-sweep CE.",
  },
  {
    id: 'focal-sbece-beats-nll-dirichlet',
    statement: 'Our methods outperform post-hoc Dirichlet calibration applied to the NLL primary loss.',
    source: 'Table 5 (App. I)',
    paper: { text: 'CIFAR-10: 1.19 % (focal + SB-ECE) vs 2.45 % (NLL + Dirichlet)', difference: -1.26 },
    compare: `focal-sbece < nll+dirichlet on ${ECE}`,
    note: "Dirichlet calibration with the suite's defaults (full matrix on log-probabilities, ODIR λ = μ = 1e-3), fitted on the validation split like TS; the paper does not state its regularisation.",
  },
  {
    id: 'focal-sbece-beats-focal-dirichlet',
    statement: 'Our methods outperform post-hoc Dirichlet calibration applied to the focal primary loss.',
    source: 'Table 5 (App. I)',
    paper: { text: 'CIFAR-10: 1.19 % (focal + SB-ECE) vs 2.48 % (focal + Dirichlet)', difference: -1.29 },
    compare: `focal-sbece < focal+dirichlet on ${ECE}`,
  },
  {
    id: 'focal-sbece-beats-mse-dirichlet',
    statement: 'Our methods outperform post-hoc Dirichlet calibration applied to the MSE primary loss.',
    source: 'Table 5 (App. I)',
    paper: { text: 'CIFAR-10: 1.19 % (focal + SB-ECE) vs 4.69 % (MSE + Dirichlet)', difference: -3.5 },
    compare: `focal-sbece < mse+dirichlet on ${ECE}`,
  },
  {
    id: 'focal-savuc-best-marginal-ece',
    statement: 'Methods trained to minimise top-label ECE yield the best marginal ECE as well (focal + S-AvUC vs NLL + MMCE).',
    source: 'Table 6b (App. J)',
    paper: { text: 'CIFAR-10 marginal ECE (ℓ2, equal-mass): 1.65 % (focal + S-AvUC) vs 2.06 % (NLL + MMCE)', difference: -0.41 },
    compare: 'focal-savuc < nll-mmce on marginal_ece',
    note: "Deviation: the runs' marginal_ece is Kumar et al. 2019's debiased ℓ2 marginal calibration error over 15 equal-width bins per class; the paper's Table 6 uses equal-mass bins.",
  },

  // ---- App. B / Table 3: training-set memorisation and interleaved training ----
  {
    id: 'nll-overfits-train-ece',
    statement:
      "Overconfident training-set memorisation happens with the NLL primary loss (a very low train ECE; CIFAR-10 test / train ECE ratio 49.82) and not with focal loss (ratio 0.74): NLL's train ECE is below focal's.",
    source: '§5.1; Table 3 (App. B)',
    paper: { text: 'CIFAR-10 train ECE (ℓ1, equal-width): 0.05 % (NLL) vs 7.13 % (focal); test ECE 2.66 % (NLL) and 5.28 % (focal)', difference: -7.08 },
    compare: 'nll < focal on train_ece',
    note: "Train ECE in Table 3's measure (ℓ1 over equal-width bins; 15 bins, the suite's), on the training split with the trained model's own predictions (evaluateTrain).",
  },
  {
    id: 'nll-train-ece-below-mse',
    statement: "Memorisation happens with the NLL primary loss and not with MSE (CIFAR-10 test / train ECE ratio 0.66): NLL's train ECE is below MSE's.",
    source: 'Table 3 (App. B)',
    paper: { text: 'CIFAR-10 train ECE (ℓ1, equal-width): 0.05 % (NLL) vs 9.82 % (MSE); test ECE 2.66 % (NLL) and 6.53 % (MSE)', difference: -9.77 },
    compare: 'nll < mse on train_ece',
    note: 'As nll-overfits-train-ece.',
    atScale: {
      deep: {
        notTested: `not tested at deep scale: MSE is not in the deep grid (issue #23's 20-machine-hour budget); NLL's memorised train ECE is (nll-overfits-train-ece, against focal). Testing it needs MSE at 3 seeds: ${deepRunsCost(3)}.`,
      },
    },
  },
  {
    id: 'nll-train-ece-below-test-ece',
    statement: 'With the NLL primary loss the train ECE falls far below the test ECE (CIFAR-10: 0.05 % vs 2.66 %, ratio 49.82), whereas with focal and MSE it does not (ratios 0.74, 0.66).',
    source: 'Table 3 (App. B); §5.1',
    notTested:
      "A comparison of one method's two splits is not in the claim grammar (its sides are two methods, or one method with two calibrators); Table 3's cross-primary comparisons of the train ECE are tested (nll-overfits-train-ece, nll-train-ece-below-mse), and the report's results table shows every method's train ECE beside its test ECE. At deep scale too: NLL's runs there record both ECEs (no run is missing); what testing it needs is a paired comparison of two metrics of one method in the claim grammar, not compute.",
  },
  {
    id: 'sbece-no-train-ece-gain-when-nll-memorises',
    statement:
      'When NLL memorises the training set (near-perfect training accuracy and calibration), "using Soft Calibration Objectives as secondary training losses did not help reduce train ECE": NLL + SB-ECE has the train ECE of NLL alone.',
    source: 'App. B; Table 3',
    paper: { text: 'CIFAR-10 NLL train ECE (ℓ1, equal-width) 0.05 %, CIFAR-100 0.45 % (Table 3); no train ECE is given for NLL + SB-ECE' },
    equivalent: 'nll-sbece ~ nll on train_ece',
    margin: 0.0025,
    note: "Train ECE in Table 3's measure (ℓ1, 15 equal-width bins) on the trained model's own training-split predictions (evaluateTrain). The paper gives no margin: ±0.25 pt, the file's ECE margin and a quarter of App. B's threshold for a memorised train ECE (\"suspiciously low (e.g. less than 1%)\"), so both sides equivalent stay memorised. NLL + SB-ECE at β = 1 (the deep grid), 3 seeds.",
    atScale: { quick: { notTested: NOT_MEMORISING }, machine: { notTested: NOT_MEMORISING } },
  },
  {
    id: 'nll-sbece-no-gain-when-nll-memorises',
    statement: 'Where NLL memorises the training set (CIFAR-10, train ECE 0.05 %, Table 3), SB-ECE as a secondary loss without interleaving gives no gain in test ECE over NLL alone.',
    source: 'App. B; Table 2; Table 3',
    paper: { text: 'CIFAR-10 WRN-28-10 (Table 2): ECE 5.84 ± 0.121 % (NLL + SB-ECE) vs 5.59 ± 0.119 % (NLL)', difference: 0.25 },
    equivalent: `nll-sbece ~ nll on ${ECE}`,
    margin: 0.005,
    note: '"No gain" tested as equivalence within ±0.5 pt (the paper gives no margin): midway between the NLL + SB-ECE difference the paper calls no gain (CIFAR-10, +0.25 pt) and the smallest it reports as a gain (ImageNet, −0.70 pt: 3.11 % vs 3.81 %), as the file\'s 0.25 pt is for Table 1b. A rise beyond the margin also fails it. NLL + SB-ECE at β = 1 (the deep grid), 3 seeds.',
    atScale: { quick: { notTested: NOT_MEMORISING }, machine: { notTested: NOT_MEMORISING } },
  },
  {
    id: 'interleaved-training-helps-nll',
    statement: 'Soft calibration objectives with interleaved training reduce test ECE relative to the baseline when NLL memorises the training set (CIFAR-100 + NLL).',
    source: 'App. B; Table 2',
    paper: { text: 'CIFAR-100: 6.86 ± 0.839 % (NLL + SB-ECE, interleaved) vs 9.10 ± 0.139 % (NLL)', difference: -2.24 },
    compare: `nll-sbece-interleaved < nll on ${ECE}`,
    note: "Interleaved: each epoch one pass of NLL over the majority part of the training set, then one of β · SB-ECE over the held-out part (App. B); App. B states no held-out fraction, the suite holds out 10 % (karandikar.ts). β = 1 at deep scale (the deep grid), 3 seeds; the paper's number is CIFAR-100's (its CIFAR-10 NLL + SB-ECE row is not interleaved). At machine scale the interleaved runs are not in the grid: NLL does not memorise there (≈ 91 % training accuracy, ≈ 1.5 % train ECE), so by the paper's own recommendation interleaving does not apply.",
    atScale: { quick: { notTested: NOT_MEMORISING } },
  },
  {
    id: 'imagenet-results',
    statement:
      'On ImageNet (ResNet-50, NLL primary), the soft objectives lower ECE relative to NLL (S-AvUC 2.26 % vs 3.81 %) at < 1 % accuracy cost; there "the cross-entropy loss outperforms the other two [primary] losses", so NLL is the only primary.',
    source: 'Table 1c; Table 2; Fig. 5; §5.1; App. A',
    notTested: 'ImageNet is not on this machine (no network).',
  },

  // ---- The suite's own checks (not claims of the paper) ----
  {
    id: 'suite-focal-sbece-vs-nll-ts-l1',
    statement: 'The headline focal + SB-ECE < NLL + TS comparison under the ℓ1 equal-width ECE the suite reported before (sensitivity to the metric).',
    origin: 'suite',
    compare: 'focal-sbece < nll+temperature on ece',
  },
  {
    id: 'suite-interleaved-vs-plain-sbece',
    statement:
      "Interleaved training is App. B's fix for SB-ECE not helping when NLL memorises: with it, NLL + SB-ECE reaches a lower test ECE than without (the paper reports no plain NLL + SB-ECE row beside its interleaved CIFAR-100 one).",
    origin: 'suite',
    compare: `nll-sbece-interleaved < nll-sbece on ${ECE}`,
    note: 'Both at β = 1 at deep scale (the deep grid), 3 seeds each.',
    atScale: { quick: { notTested: NOT_MEMORISING } },
  },
  {
    id: 'suite-ts-hbece-vs-ts',
    statement: 'Temperature fitted to the hard-binned ECE (TS-HB-ECE, App. C: "might be promising") against TS, NLL-trained model.',
    origin: 'suite',
    compare: `nll+ts-hb-ece < nll+temperature on ${ECE}`,
  },
];
