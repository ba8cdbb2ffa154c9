/**
 * The per-epoch training log, `log.jsonl`: one JSON object per finished epoch, appended as the epoch ends (JSON
 * Lines, so a log of a running or killed job is readable line by line). Keys:
 *
 *   epoch            1-based epoch number
 *   steps            optimizer updates done so far
 *   lr               learning rate of the epoch's last update
 *   train_loss       mean training loss over the epoch's updates, weighted by batch size (interleaved training:
 *                    over both passes)
 *   train_terms      { name: mean } of the loss's named terms over the updates that report them, weighted by batch
 *                    size (e.g. { mbls: …, "mbls.ce": …, "mbls.margin": … })
 *   val_accuracy, val_nll, val_ece, val_adaece   validation metrics (fractions; ECE/AdaECE with `bins` bins, (l,u])
 *   val_refinement_nll   validation NLL after temperature scaling fitted on the validation split (the criterion of
 *                    `select: 'refinement'`; absent in logs written before it existed)
 *   best             whether this epoch is the best so far by the selection criterion
 *   epoch_time_s     wall time of the epoch (training + validation)
 *   cpu_time_s       CPU time of the run's process in the epoch (training + validation; user + system, all threads):
 *                    what the epoch cost whatever else the machine ran (absent in logs written before it existed)
 *   train_time_s     wall time of the training updates alone
 *   samples_per_s    training samples per second of `train_time_s`
 */
import { appendFile, readFile } from 'node:fs/promises';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { invalidArgument } from '../../util/errors.js';

/** One line of log.jsonl. */
export interface EpochRecord {
  readonly epoch: number;
  readonly steps: number;
  readonly lr: number;
  readonly train_loss: number;
  readonly train_terms: Readonly<Record<string, number>>;
  readonly val_accuracy: number;
  readonly val_nll: number;
  readonly val_ece: number;
  readonly val_adaece: number;
  readonly val_refinement_nll?: number;
  readonly best: boolean;
  readonly epoch_time_s: number;
  readonly cpu_time_s?: number;
  readonly train_time_s: number;
  readonly samples_per_s: number;
}

/** JSON text of a record (non-finite numbers become null, as JSON has no NaN). */
export function formatRecord(record: EpochRecord): string {
  return JSON.stringify(record, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
}

/** Append one record as a line. */
export async function appendRecord(path: string, record: EpochRecord): Promise<void> {
  await appendFile(path, `${formatRecord(record)}\n`, 'utf8');
}

/** Replace the whole log with `records` (atomically; used when a run resumes). */
export async function writeLog(path: string, records: readonly EpochRecord[]): Promise<void> {
  await atomicWriteFile(path, records.map((r) => `${formatRecord(r)}\n`).join(''));
}

/** Read every record of a log (empty when the file does not exist); a malformed line names its number. */
export async function readLog(path: string): Promise<EpochRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  const out: EpochRecord[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push(JSON.parse(line) as EpochRecord);
    } catch {
      invalidArgument(`${path}:${i + 1}`, 'a JSON object per line', JSON.stringify(line.slice(0, 40)));
    }
  });
  return out;
}
