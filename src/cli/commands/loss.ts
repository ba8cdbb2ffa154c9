import { readLabelsFile, readMatrixFile, readNpy, writeNpy, fileFormat } from '../../io/index.js';
import { evaluateLoss, type HostArray } from '../../losses/evaluate-loss.js';
import { termWeight } from '../../losses/define-loss.js';
import { LOSSES, LOSS_NAMES, lossDefinition } from '../../losses/registry.js';
import { describeOptions } from '../../losses/options.js';
import { invalidArgument } from '../../util/errors.js';
import { parseKeyValues, UsageError } from '../args.js';
import { defineCommand } from '../command.js';
import { requireOutputPath, writingOutput } from '../output-path.js';
import { flag } from '../flag.js';
import { boolean, described, number, optional, string } from '../../util/schema.js';

const PRIMARY_NAMES = LOSS_NAMES.filter((n) => LOSSES[n].role !== 'term');
const TERM_NAMES = LOSS_NAMES.filter((n) => LOSSES[n].role === 'term');

/**
 * `calib loss`: evaluate one calibration loss of src/losses on a whole file of logits (one batch) and print the loss
 * and its terms; optionally write d loss / d logits. Methods the papers define as CE + term (mbls, acls, ecp, erl,
 * cpc, crl) give the whole objective; pure terms (sb-ece-*, avuc*, s-avuc, mmce*, mdca, dca, arc) give the term
 * alone, or primary + β·term with --primary. Logits may be dense [N, C, H, W] (.npy) with labels [N, H, W] and
 * --ignore-index; --labels may also be soft targets (a float .npy of the logits' shape, e.g. mixup targets).
 */
export const lossCommand = defineCommand({
  name: 'loss',
  positional: 'name',
  summary: 'Evaluate a training loss (CE, LS, focal, MbLS, ACLS, SB-ECE, S-AvUC, MMCE, ...) and its gradient on saved logits.',
  usage: 'LOSS --logits FILE --labels FILE [--opt KEY=VALUE ...] [--primary LOSS --weight BETA] [options]',
  description: [
    `Losses: ${PRIMARY_NAMES.join(', ')} (whole objectives);`,
    `terms: ${TERM_NAMES.join(', ')} (alone, or PRIMARY + BETA * term with --primary).`,
    'The whole file is one batch (batch-level terms couple all its samples). Options per loss (--opt / --primary-opt):',
    ...LOSS_NAMES.filter((n) => Object.keys(LOSSES[n].options).length).map(
      (n) =>
        `  ${n}: ${describeOptions(LOSSES[n].options)
          .map((l) => l.split(':')[0])
          .join('; ')}`,
    ),
    'Every loss also takes ignoreIndex (or --ignore-index). CRL needs --history COUNTS.npy and --epochs E.',
    'Per-example losses (not the batch-level terms) can write one value per sample with --per-sample FILE: the loss',
    'of each sample, or with --per-sample-of its regulariser (R_i of CE + R, e.g. ACLS alpha*reg) or one of its terms.',
  ].join('\n'),
  examples: [
    'calib loss focal --logits val-logits.npy --labels val-labels.npy --opt gamma=3',
    'calib loss sb-ece-lb --primary ce --weight 0.5 --logits L.npy --labels Y.npy --json',
    'calib loss mbls --opt margin=6 --logits L.npy --labels Y.npy --grad dL.npy --dtype float64',
    'calib loss arc --opt version=v2 --opt bins=5,15,30 --logits L.npy --labels Y.npy',
    'calib loss acls --logits L.npy --labels Y.npy --per-sample reg.npy --per-sample-of regulariser',
  ],
  flags: {
    name: flag(described(string(LOSS_NAMES), 'the loss or term to evaluate'), { valueName: 'LOSS' }),
    logits: flag(described(string(), 'logits N × C (.npy, .csv, .json) or N × C × H × W (.npy)'), { valueName: 'FILE' }),
    labels: flag(described(string(), 'integer labels N (or N × H × W), or soft targets shaped like the logits (float .npy)'), { valueName: 'FILE' }),
    opt: flag(described(string(), 'an option of the loss (e.g. gamma=3, bins=5,15,30)'), { repeatable: true, valueName: 'KEY=VALUE' }),
    primary: flag(described(optional(string(PRIMARY_NAMES)), 'primary loss: evaluate PRIMARY + BETA * term'), { valueName: 'LOSS' }),
    'primary-opt': flag(described(string(), 'an option of the primary loss'), { repeatable: true, valueName: 'KEY=VALUE' }),
    weight: flag(described(optional(number()), "weight β of the term (with --primary; default the term's: 2 for mmce and mmce-weighted as in the focal-calibration code, else 1)"), {
      valueName: 'BETA',
    }),
    'ignore-index': flag(described(optional(number({ integer: true })), 'label value of positions to leave out (segmentation)'), { valueName: 'K' }),
    history: flag(described(optional(string()), 'CRL: per-sample correctness counts (N values)'), { valueName: 'FILE' }),
    epochs: flag(described(optional(number()), 'CRL: number of epochs the counts were accumulated over (≥ 1)'), { valueName: 'E' }),
    dtype: flag(optional(string(['float32', 'float64']), 'float32', 'computation dtype')),
    grad: flag(described(optional(string()), "write d loss / d logits here (float64 .npy, the logits' shape)"), { valueName: 'FILE' }),
    'per-sample': flag(described(optional(string()), 'write one value per sample here (float64 .npy, shape N or N × H × W; 0 at ignored positions)'), { valueName: 'FILE' }),
    'per-sample-of': flag(described(optional(string()), "with --per-sample: 'loss' (default), 'regulariser' (R_i of a CE + R method, e.g. ACLS alpha*reg) or a term's name (e.g. reg)"), {
      valueName: 'WHAT',
    }),
    json: flag(optional(boolean(), false, 'print {"loss": number, "terms": {...}} as JSON')),
  },
  async run(flags, io) {
    if (flags.primary === undefined && flags['primary-opt'].length) throw new UsageError('loss: --primary-opt needs --primary');
    if (flags.primary === undefined && flags.weight !== undefined) throw new UsageError('loss: --weight needs --primary (the total is primary + weight * term)');
    if ((flags.history === undefined) !== (flags.epochs === undefined)) throw new UsageError('loss: give --history and --epochs together');
    if (flags.history !== undefined && flags.name !== 'crl') throw new UsageError(`loss: --history is for crl, not ${flags.name}`);
    if (flags['per-sample-of'] !== undefined && flags['per-sample'] === undefined) throw new UsageError('loss: --per-sample-of needs --per-sample FILE');
    if (flags['per-sample'] !== undefined && flags.primary !== undefined) throw new UsageError('loss: --per-sample is for a loss alone, not PRIMARY + BETA * term');
    for (const [flag, path] of [
      ['--grad', flags.grad],
      ['--per-sample', flags['per-sample']],
    ] as const) {
      if (path === undefined) continue;
      if (fileFormat(path, flag) !== 'npy') invalidArgument(flag, 'a .npy path', JSON.stringify(path));
      await requireOutputPath(path, flag, [
        { argName: '--logits', path: flags.logits },
        { argName: '--labels', path: flags.labels },
        { argName: '--history', path: flags.history },
      ]);
    }
    if (flags.grad !== undefined && flags.grad === flags['per-sample']) throw new UsageError('loss: --grad and --per-sample name the same file');
    const options = parseKeyValues('opt', flags.opt);
    const primaryOptions = parseKeyValues('primary-opt', flags['primary-opt']);

    const logits = await readLogits(flags.logits);
    const targets = await readTargets(flags.labels, logits);
    const history = flags.history === undefined ? undefined : { counts: (await readLabelsLike(flags.history, '--history')).data, epochs: flags.epochs! };
    const result = evaluateLoss(
      { logits, ...targets, ...(history ? { history } : {}) },
      {
        name: flags.name,
        options,
        ...(flags.primary !== undefined ? { primary: { name: flags.primary, options: primaryOptions } } : {}),
        ...(flags.weight !== undefined ? { weight: flags.weight } : {}),
        ...(flags['ignore-index'] !== undefined ? { ignoreIndex: flags['ignore-index'] } : {}),
        dtype: flags.dtype as 'float32' | 'float64',
        gradient: flags.grad !== undefined,
        ...(flags['per-sample'] !== undefined ? { perSample: flags['per-sample-of'] ?? 'loss' } : {}),
        argumentNames: { logits: '--logits', labels: '--labels', soft: '--labels', history: '--history', perSample: '--per-sample', perSampleOf: '--per-sample-of' },
      },
    );
    requireFiniteResult(result, flags.dtype, logits);
    if (flags.grad !== undefined) await writingOutput(flags.grad, '--grad', () => writeNpy(flags.grad!, result.gradient!, logits.shape));
    const perSample = flags['per-sample'];
    if (perSample !== undefined) await writingOutput(perSample, '--per-sample', () => writeNpy(perSample, result.perSample!, [logits.shape[0]!, ...logits.shape.slice(2)]));
    if (flags.json) {
      io.stdout.write(`${JSON.stringify({ loss: result.loss, terms: result.terms })}\n`);
      return;
    }
    const title = flags.primary !== undefined ? `${flags.primary} + ${termWeight(lossDefinition(flags.name), flags.weight)} * ${flags.name}` : flags.name;
    const shape = logits.shape.length > 2 ? ` × ${logits.shape.slice(2).join(' × ')}` : '';
    const lines = [`${title}: ${fmt(result.loss)}  (${logits.shape[0]!.toLocaleString('en-US')} samples${shape}, ${logits.shape[1]} classes, ${flags.dtype})`];
    const width = Math.max(...Object.keys(result.terms).map((k) => k.length));
    for (const [k, v] of Object.entries(result.terms)) lines.push(`  ${k.padEnd(width)}  ${fmt(v)}`);
    if (flags.grad !== undefined) lines.push(`gradient d loss / d logits -> ${flags.grad}`);
    if (perSample !== undefined) lines.push(`per-sample ${flags['per-sample-of'] ?? 'loss'} -> ${perSample}`);
    io.stdout.write(`${lines.join('\n')}\n`);
  },
});

function fmt(v: number): string {
  return Math.abs(v) >= 1e-4 || v === 0 ? v.toFixed(6) : v.toExponential(4);
}

/** Logits: any rank ≥ 2 from .npy; N × C from CSV/JSON. */
async function readLogits(path: string): Promise<HostArray> {
  if (fileFormat(path, '--logits') === 'npy') {
    const a = await readNpy(path, '--logits');
    if (a.dtype !== 'float32' && a.dtype !== 'float64') invalidArgument('--logits', 'a float32 or float64 array', `dtype ${a.dtype} in ${path}`);
    if (a.shape.length < 2) invalidArgument('--logits', 'shape (N, C) or (N, C, H, W, ...)', `(${a.shape.join(', ')}) in ${path}`);
    return { data: a.data, shape: a.shape };
  }
  const m = await readMatrixFile(path, '--logits', { key: 'logits' });
  return { data: m.data, shape: [m.rows, m.cols] };
}

/** Integer labels of any rank from .npy (or N from CSV/JSON), or float soft targets shaped like the logits. */
async function readTargets(path: string, logits: HostArray): Promise<{ labels: HostArray } | { soft: HostArray }> {
  if (fileFormat(path, '--labels') === 'npy') {
    const a = await readNpy(path, '--labels');
    if (a.dtype === 'float32' || a.dtype === 'float64') {
      const isSoft = a.shape.length === logits.shape.length && a.shape.every((d, i) => d === logits.shape[i]);
      if (!isSoft) {
        invalidArgument('--labels', `integer labels, or float soft targets of the logits' shape (${logits.shape.join(', ')})`, `a float array of shape (${a.shape.join(', ')})`);
      }
      return { soft: { data: a.data, shape: a.shape } };
    }
    if (a.dtype === 'bool') invalidArgument('--labels', 'integer labels', 'a bool array');
    return { labels: { data: a.data, shape: a.shape } };
  }
  return { labels: await readLabelsLike(path, '--labels') };
}

async function readLabelsLike(path: string, flag: string): Promise<HostArray> {
  const data = await readLabelsFile(path, flag);
  return { data, shape: [data.length] };
}

/**
 * A loss, term, gradient or per-sample value that is not finite is never printed or written: in float32 it is an overflow of the
 * computation (e.g. logits near ±1e38), for which float64 is the remedy; in float64 the inputs are beyond what
 * the loss can be evaluated on.
 */
function requireFiniteResult(
  result: { loss: number; terms: Record<string, number>; gradient?: Float64Array | undefined; perSample?: Float64Array | undefined },
  dtype: string,
  logits: HostArray,
): void {
  const bad = !Number.isFinite(result.loss)
    ? `loss ${result.loss}`
    : (Object.entries(result.terms)
        .find(([, v]) => !Number.isFinite(v))
        ?.map(String)
        .join(' ') ??
      (result.gradient && !result.gradient.every(Number.isFinite) ? 'a non-finite gradient entry' : undefined) ??
      (result.perSample && !result.perSample.every(Number.isFinite) ? 'a non-finite per-sample value' : undefined));
  if (bad === undefined) return;
  let largest = 0;
  for (let i = 0; i < logits.data.length; i++) largest = Math.max(largest, Math.abs(Number(logits.data[i])));
  if (dtype === 'float32') {
    invalidArgument('--dtype', `float64 for logits this large (largest |logit| ${largest.toPrecision(3)}; float32 overflows)`, `float32, which gave ${bad}`);
  }
  invalidArgument('--logits', 'logits on which the loss is finite in float64', `${bad} (largest |logit| ${largest.toPrecision(3)})`);
}
