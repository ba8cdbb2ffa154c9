/**
 * Benchmark: per-step cost of every calibration loss relative to plain CE, on logits [128, 10] and [128, 1000].
 *
 * 1. Loss + gradient graph alone (logits in, loss and d loss / d logits out), float32 on ONNX Runtime (2 threads):
 *    min and median over interleaved rounds; `extraMs` = loss − CE.
 * 2. Inside the compiled ResNet-20 train step (src/train compileTrainStep, SGD momentum, batch 128, 32×32×3 inputs,
 *    numClasses = C): the CE step and the loss's step are run alternately; `stepOverheadPct` = min(loss step) /
 *    min(the CE steps interleaved with it) − 1. The 2-core machine is shared and noisy (ENGINE-NOTES: ±15 %), so the in-step ratio of small
 *    losses is within noise; `estimatedOverheadPct` = extraMs / min(CE step) is the precise estimate.
 * Terms (SB-ECE, MMCE, …) are measured as CE + 1·term (how they are trained); other losses alone.
 * Prints JSON.
 *
 * Usage: node dist/bench/losses-overhead.js [--classes 10,1000] [--rounds 7] [--step-rounds 3] [--no-step] [--only a,b]
 */
import { loadavg } from 'node:os';
import { compile, grad, trace, type Session, type Tensor } from '../src/engine/index.js';
import { calibrationObjective, LOSSES, LOSS_NAMES, type LossName, type LossResult, type LossTargets } from '../src/losses/index.js';
import { cifarResNet } from '../src/nn/index.js';
import { sgd } from '../src/optim/index.js';
import { compileTrainStep, type TrainStep } from '../src/train/steps/compile-train-step.js';
import type { LossFn } from '../src/train/steps/loss-fn.js';
import { createTrainState } from '../src/train/steps/train-state.js';
import { Random } from '../src/util/random.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
const CLASSES = flag('classes', '10,1000').split(',').map(Number);
const ROUNDS = Number(flag('rounds', '7'));
const STEP_ROUNDS = Number(flag('step-rounds', '3'));
const WITH_STEP = !args.includes('--no-step');
const ONLY = args.includes('--only') ? flag('only', '').split(',') : null;
const B = 128;
const NAMES = LOSS_NAMES.filter((n) => n !== 'soft-ce' && (!ONLY || ONLY.includes(n) || n === 'ce'));

/** The objective as trained: terms are CE + 1·term; everything else alone. CRL reads the history counts. */
function objective(name: LossName): (z: Tensor, y: Tensor, counts?: Tensor) => LossResult {
  if (LOSSES[name].role === 'term') {
    const f = calibrationObjective({ secondary: { name, weight: 1 } });
    return (z, y) => f(z, y);
  }
  return (z, y, counts) => {
    const targets: LossTargets = name === 'crl' ? { labels: y, history: { counts: counts!, epochs: 5 } } : { labels: y };
    return LOSSES[name].apply(z, targets);
  };
}

function ms(run: () => void): number {
  const t0 = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
const stats = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]! };
};
const round3 = (x: number) => Math.round(x * 1000) / 1000;

const rng = new Random(7);
const results: Record<string, unknown>[] = [];
for (const C of CLASSES) {
  const z = Float32Array.from({ length: B * C }, () => rng.normal() * 3);
  const y = Int32Array.from({ length: B }, () => rng.int(C));
  const counts = Float32Array.from({ length: B }, () => rng.int(6));

  // 1. loss + gradient graphs alone, interleaved rounds
  const sessions = new Map<LossName, Session>();
  for (const name of NAMES) {
    const f = objective(name);
    const graph = trace(
      ({ logits, labels, counts: h }) => {
        const r = f(logits!, labels!, h);
        return { loss: r.loss, grad: grad(r.loss, [logits!])[0]! };
      },
      { logits: { dtype: 'float32', shape: [B, C] }, labels: { dtype: 'int32', shape: [B] }, counts: { dtype: 'float32', shape: [B] } },
    );
    sessions.set(name, compile(graph));
  }
  const feeds = { logits: z, labels: y, counts };
  for (const s of sessions.values()) s.run(feeds); // warm-up
  const alone = new Map<LossName, number[]>();
  for (let r = 0; r < ROUNDS; r++) for (const [name, s] of sessions) (alone.get(name) ?? alone.set(name, []).get(name)!).push(ms(() => s.run(feeds)));
  for (const s of sessions.values()) s.dispose();
  const ceAlone = stats(alone.get('ce')!);

  // 2. inside the ResNet-20 train step
  let ceStep: { min: number; median: number } | null = null;
  const stepOf = new Map<LossName, { min: number; median: number; ratio: number }>();
  if (WITH_STEP) {
    const model = cifarResNet({ depth: 20, numClasses: C });
    const optimizer = sgd({ momentum: 0.9, weightDecay: 5e-4 });
    const x = Float32Array.from({ length: B * 3 * 32 * 32 }, () => rng.normal());
    const makeStep = (name: LossName): TrainStep => {
      const f = objective(name);
      const lossFn: LossFn = (logits, targets, extras) => f(logits, targets, extras['crl-counts'] as Tensor | undefined);
      return compileTrainStep(model, lossFn, optimizer, { batch: B, extras: { 'crl-counts': { dtype: 'float32', shape: [-1] } } });
    };
    const batch = { x, y, extras: { 'crl-counts': counts } };
    const ceTrain = makeStep('ce');
    const ceState = createTrainState(model, optimizer, 1);
    ceTrain.run(ceState, batch, 0.01);
    const ceTimes: number[] = [];
    for (const name of NAMES) {
      if (name === 'ce') continue;
      const step = makeStep(name);
      const state = createTrainState(model, optimizer, 1);
      step.run(state, batch, 0.01);
      const mine: number[] = [];
      const paired: number[] = [];
      for (let r = 0; r < STEP_ROUNDS; r++) {
        paired.push(ms(() => ceTrain.run(ceState, batch, 0.01)));
        mine.push(ms(() => step.run(state, batch, 0.01)));
      }
      step.dispose();
      ceTimes.push(...paired);
      // ratio against the CE runs interleaved with this loss's runs (same machine load)
      stepOf.set(name, { ...stats(mine), ratio: stats(mine).min / stats(paired).min });
    }
    ceTrain.dispose();
    ceStep = stats(ceTimes);
  }

  for (const name of NAMES) {
    const a = stats(alone.get(name)!);
    const extra = a.min - ceAlone.min;
    const s = stepOf.get(name);
    results.push({
      classes: C,
      loss: name,
      role: LOSSES[name].role,
      aloneMs: { min: round3(a.min), median: round3(a.median) },
      extraMs: round3(extra),
      ...(ceStep ? { estimatedOverheadPct: round3((100 * Math.max(extra, 0)) / ceStep.min) } : {}),
      ...(s ? { stepMs: { min: round3(s.min), median: round3(s.median) }, stepOverheadPct: round3(100 * (s.ratio - 1)) } : {}),
    });
  }
  if (ceStep) results.push({ classes: C, loss: 'ce (ResNet-20 step)', stepMs: { min: round3(ceStep.min), median: round3(ceStep.median) } });
}

process.stdout.write(
  `${JSON.stringify(
    {
      bench: 'losses-overhead',
      batch: B,
      dtype: 'float32',
      threads: 2,
      rounds: ROUNDS,
      stepRounds: WITH_STEP ? STEP_ROUNDS : 0,
      loadAverage: loadavg().map((v) => Math.round(v * 100) / 100),
      note: 'terms measured as CE + 1·term; estimatedOverheadPct = (loss+grad graph − CE graph) / ResNet-20 CE step',
      results,
    },
    null,
    1,
  )}\n`,
);
