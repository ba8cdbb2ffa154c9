/**
 * Group-wise (Mondrian) calibration: one calibrator of a method per group of rows (a site, a device, a
 * demographic segment), each fitted by `fitCalibrator` on that group's rows alone, plus a pooled calibrator fitted
 * on all rows. A row is calibrated by its group's calibrator; rows of a group that had fewer than `minGroupSize`
 * rows at fit time, whose own fit failed (a `CalibrationFitError` such as temperature scaling on rows that are all
 * correct, an `InvalidArgumentError` such as a binary method on a group with one class, or non-finite fitted
 * parameters), or of a group not seen at fit time, are calibrated by the pooled one. The name follows Vovk's
 * Mondrian taxonomies (categories chosen before seeing the data, a predictor per category).
 *
 * Not a `Calibrator` of the CALIBRATORS record: `apply` needs a group id per row, so code that applies a calibrator
 * from predictions alone (calib export, calib eval) must not receive it — `calibratorFromJSON` refuses its JSON
 * naming why. Its JSON:
 * `{ kind: 'groupwise', version, classes, settings: { method, min_group_size[, columns] }, groups: [{ id, rows,
 * calibrator | null[, fallback: { reason: 'too_small' | 'fit_failed', detail }] }], pooled: calibrator JSON }`
 * (`calibrator: null` with its `fallback` for a group that uses the pooled calibrator; files without `fallback`,
 * written before it existed, read as 'too_small'). Group ids are strings (integer ids are written in decimal, as
 * `calib eval --groups` reads them); `columns` names the group columns whose intersection cells are the groups
 * (ids 'a × b', see group-cells.ts) when there were several.
 */
import { describe, InvalidArgumentError, invalidArgument, requireNumber } from '../../util/errors.js';
import { CalibrationFitError } from '../fit-error.js';
import { matrix, type Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { calibratorDefinition, type CalibratorKind, type CalibratorOptions } from '../calibrators.js';
import { predictionRows } from './cross-validation.js';
import { jsonHeader, readHeader, requireKnownKeys, requireRecord } from '../json.js';
import { calibratorFromJSON, fitCalibrator } from '../registry.js';

export const GROUPWISE_KIND = 'groupwise';

/** Default smallest group that gets its own calibrator (smaller ones use the pooled calibrator). */
export const DEFAULT_MIN_GROUP_SIZE = 20;

/** Why a group seen at fit time uses the pooled calibrator: too few rows, or its own fit failed (detail: why). */
export interface GroupFallback {
  readonly reason: 'too_small' | 'fit_failed';
  readonly detail: string;
}

/** One group seen at fit time: its id, its number of fitting rows, its own calibrator (null: pooled, see `fallback`). */
export interface GroupMember {
  readonly id: string;
  readonly rows: number;
  readonly calibrator: Calibrator | null;
  /** Null when the group has its own calibrator. */
  readonly fallback: GroupFallback | null;
}

/** How `route` assigned rows: per row the member calibrator (index into `groups`) or −1 for the pooled one. */
export interface GroupRouting {
  readonly member: Int32Array;
  /** Rows calibrated by their group's own calibrator. */
  readonly ownRows: number;
  /** Rows of groups too small at fit time (pooled). */
  readonly smallGroupRows: number;
  /** Rows of groups whose own fit failed at fit time (pooled). */
  readonly failedGroupRows: number;
  /** Rows of groups not seen at fit time (pooled), and those groups' ids in order of first appearance. */
  readonly unseenRows: number;
  readonly unseenGroups: readonly string[];
}

/** A fitted group-wise calibrator. Immutable. */
export class GroupwiseCalibrator {
  readonly kind = GROUPWISE_KIND;
  readonly classes: number;
  private readonly byId: ReadonlyMap<string, number>;

  constructor(
    readonly method: string,
    readonly minGroupSize: number,
    readonly groups: readonly GroupMember[],
    readonly pooled: Calibrator,
    /** Names of the group columns whose intersection cells are the groups (absent: one column). */
    readonly columns?: readonly string[],
  ) {
    this.classes = pooled.classes;
    groups.forEach((g, k) => {
      if ((g.calibrator === null) !== (g.fallback !== null)) invalidArgument(`groups[${k}]`, 'either a calibrator or a fallback reason', g.calibrator === null ? 'neither' : 'both');
      if (g.calibrator && (g.calibrator.kind !== pooled.kind || g.calibrator.classes !== pooled.classes))
        invalidArgument(`groups[${k}].calibrator`, `a ${pooled.kind} calibrator for ${pooled.classes} classes (as the pooled one)`, `${g.calibrator.kind} for ${g.calibrator.classes} classes`);
    });
    this.byId = new Map(groups.map((g, k) => [g.id, k]));
    if (this.byId.size !== groups.length) invalidArgument('groups', 'distinct group ids', 'a repeated id');
    Object.freeze(this);
  }

  /** Which calibrator calibrates each row (`groups`: one id per row; numbers are compared as their decimal string). */
  route(groups: ArrayLike<string | number>, argName = 'groups'): GroupRouting {
    const member = new Int32Array(groups.length);
    let ownRows = 0;
    let smallGroupRows = 0;
    let failedGroupRows = 0;
    let unseenRows = 0;
    const unseen = new Set<string>();
    for (let i = 0; i < groups.length; i++) {
      const raw = groups[i];
      if (typeof raw !== 'string' && typeof raw !== 'number') invalidArgument(argName, 'a group id (string or number) per row', `${describe(raw)} at row ${i}`);
      const id = String(raw);
      const k = this.byId.get(id);
      if (k === undefined) {
        member[i] = -1;
        unseenRows++;
        unseen.add(id);
      } else if (this.groups[k]!.calibrator === null) {
        member[i] = -1;
        if (this.groups[k]!.fallback!.reason === 'too_small') smallGroupRows++;
        else failedGroupRows++;
      } else {
        member[i] = k;
        ownRows++;
      }
    }
    return { member, ownRows, smallGroupRows, failedGroupRows, unseenRows, unseenGroups: [...unseen] };
  }

  /** Calibrated probabilities N × C: each row by its group's calibrator (or the pooled one, see `route`). */
  apply(input: Predictions, groups: ArrayLike<string | number>, argName = 'groups'): Matrix<Float64Array> {
    return this.applyWith(input, groups, argName, (c, x) => c.apply(x));
  }

  /** Whether every calibrator (members and pooled) has calibrated logits. */
  get hasLogits(): boolean {
    return this.pooled.applyLogits !== undefined && this.groups.every((g) => g.calibrator === null || g.calibrator.applyLogits !== undefined);
  }

  /** Calibrated logits N × C, row by row as `apply`; only when `hasLogits`. */
  applyLogits(input: Predictions, groups: ArrayLike<string | number>, argName = 'groups'): Matrix<Float64Array> {
    if (!this.hasLogits) invalidArgument('calibrator', 'a calibrator with calibrated logits', `a group-wise ${this.method} calibrator`);
    return this.applyWith(input, groups, argName, (c, x) => c.applyLogits!(x));
  }

  private applyWith(input: Predictions, groups: ArrayLike<string | number>, argName: string, map: (c: Calibrator, x: Predictions) => Matrix<Float64Array>): Matrix<Float64Array> {
    const m = 'logits' in input ? input.logits : input.probabilities;
    if (groups.length !== m.rows) invalidArgument(argName, `${m.rows} group ids, one per row of the predictions`, `${groups.length}`);
    if (m.cols !== this.classes) invalidArgument('predictions', `${this.classes} columns (the calibrators were fitted for ${this.classes} classes)`, `${m.cols}`);
    const { member } = this.route(groups, argName);
    const out = new Float64Array(m.rows * m.cols);
    const rowsOf = new Map<number, number[]>();
    member.forEach((k, i) => {
      const list = rowsOf.get(k);
      if (list) list.push(i);
      else rowsOf.set(k, [i]);
    });
    for (const [k, rows] of rowsOf) {
      const calibrator = k < 0 ? this.pooled : this.groups[k]!.calibrator!;
      const q = map(calibrator, predictionRows(input, rows)).data;
      rows.forEach((i, j) => out.set(q.subarray(j * m.cols, (j + 1) * m.cols), i * m.cols));
    }
    return matrix(m.rows, m.cols, out);
  }

  toJSON(): CalibratorJSON {
    return {
      ...jsonHeader(GROUPWISE_KIND, this.classes, { method: this.method, min_group_size: this.minGroupSize, ...(this.columns && { columns: [...this.columns] }) }),
      groups: this.groups.map((g) => ({ id: g.id, rows: g.rows, calibrator: g.calibrator === null ? null : g.calibrator.toJSON(), ...(g.fallback && { fallback: { ...g.fallback } }) })),
      pooled: this.pooled.toJSON(),
    };
  }
}

/** Whether every number in a calibrator's JSON is finite (a fit that returned NaN / ±∞ parameters is degenerate). */
function finiteParameters(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(finiteParameters);
  if (value !== null && typeof value === 'object') return Object.values(value).every(finiteParameters);
  return true;
}

/**
 * Fit `method` on each group's rows (groups with at least `minGroupSize` rows, default 20) and on all rows (the
 * pooled calibrator). `groups`: one id per row (numbers are stored as their decimal string). Each fit is exactly
 * `fitCalibrator(method, rows of the group, labels of the group, options, { sampleWeights: the group's weights })`.
 * A group's fit that fails on its rows (`CalibrationFitError`, `InvalidArgumentError` — the options were already
 * accepted by the pooled fit, so these are about the group's data — or non-finite parameters) falls back to the
 * pooled calibrator, recorded with the reason; a failing pooled fit fails the whole fit.
 */
export function fitGroupwise<K extends CalibratorKind>(
  method: K,
  input: Predictions,
  labels: Int32Array,
  groups: ArrayLike<string | number>,
  options?: CalibratorOptions[K],
  settings: { readonly minGroupSize?: number; readonly argName?: string; readonly sampleWeights?: Float64Array; readonly columns?: readonly string[] } = {},
): GroupwiseCalibrator {
  calibratorDefinition('method', method);
  const argName = settings.argName ?? 'groups';
  const minGroupSize = requireNumber('minGroupSize', settings.minGroupSize ?? DEFAULT_MIN_GROUP_SIZE, { integer: true, min: 1 });
  if (groups.length !== labels.length) invalidArgument(argName, `${labels.length} group ids, one per row of the predictions`, `${groups.length}`);
  const rowsOf = new Map<string, number[]>();
  for (let i = 0; i < groups.length; i++) {
    const raw = groups[i];
    if (typeof raw !== 'string' && typeof raw !== 'number') invalidArgument(argName, 'a group id (string or number) per row', `${describe(raw)} at row ${i}`);
    const id = String(raw);
    const list = rowsOf.get(id);
    if (list) list.push(i);
    else rowsOf.set(id, [i]);
  }
  const weights = settings.sampleWeights;
  if (weights !== undefined && weights.length !== labels.length) invalidArgument('sampleWeights', `${labels.length} weights, one per row`, `${weights.length}`);
  const pooled = fitCalibrator(method, input, labels, options, weights && { sampleWeights: weights });
  const members = [...rowsOf].map(([id, rows]): GroupMember => {
    if (rows.length < minGroupSize) return { id, rows: rows.length, calibrator: null, fallback: { reason: 'too_small', detail: `${rows.length} < ${minGroupSize} rows` } };
    let calibrator: Calibrator;
    try {
      const sampleWeights = weights && Float64Array.from(rows, (i) => weights[i]!);
      calibrator = fitCalibrator(
        method,
        predictionRows(input, rows),
        Int32Array.from(rows, (i) => labels[i]!),
        options,
        sampleWeights && { sampleWeights },
      );
    } catch (error) {
      if (error instanceof CalibrationFitError || error instanceof InvalidArgumentError) return { id, rows: rows.length, calibrator: null, fallback: { reason: 'fit_failed', detail: error.message } };
      if (error instanceof Error) error.message = `group ${JSON.stringify(id)} (${rows.length} rows): ${error.message}`;
      throw error;
    }
    if (!finiteParameters(calibrator.toJSON())) return { id, rows: rows.length, calibrator: null, fallback: { reason: 'fit_failed', detail: 'non-finite fitted parameters' } };
    return { id, rows: rows.length, calibrator, fallback: null };
  });
  return new GroupwiseCalibrator(method, minGroupSize, members, pooled, settings.columns);
}

/** Whether a parsed calibrator JSON is a group-wise one. */
export function isGroupwiseJSON(json: unknown): boolean {
  return json !== null && typeof json === 'object' && (json as Record<string, unknown>)['kind'] === GROUPWISE_KIND;
}

/** Rebuild from `toJSON()` (validated; errors name the field; unknown keys refused as for every calibrator JSON). */
export function groupwiseFromJSON(json: unknown): GroupwiseCalibrator {
  const record = requireRecord('json', json);
  const settings = requireRecord('json.settings', record.settings);
  const { classes } = readHeader({ ...record, settings: {} }, GROUPWISE_KIND, {});
  const method = settings.method;
  if (typeof method !== 'string') invalidArgument('json.settings.method', 'a calibration method name', describe(method));
  const minGroupSize = settings.min_group_size;
  if (typeof minGroupSize !== 'number' || !Number.isInteger(minGroupSize) || minGroupSize < 1) invalidArgument('json.settings.min_group_size', 'an integer ≥ 1', describe(minGroupSize));
  const member = (path: string, value: unknown): Calibrator => {
    let calibrator: Calibrator;
    try {
      calibrator = calibratorFromJSON(value);
    } catch (error) {
      if (error instanceof InvalidArgumentError) invalidArgument(path, 'a calibrator object', error.message);
      throw error;
    }
    if (calibrator.kind !== method) invalidArgument(`${path}.kind`, JSON.stringify(method), JSON.stringify(calibrator.kind));
    if (calibrator.classes !== classes) invalidArgument(`${path}.classes`, String(classes), String(calibrator.classes));
    return calibrator;
  };
  const pooled = member('json.pooled', record.pooled);
  const list = record.groups;
  if (!Array.isArray(list) || list.length === 0) invalidArgument('json.groups', 'a non-empty array of { id, rows, calibrator }', describe(list));
  const groups = list.map((value, k): GroupMember => {
    const g = requireRecord(`json.groups[${k}]`, value);
    if (typeof g.id !== 'string') invalidArgument(`json.groups[${k}].id`, 'a group id string', describe(g.id));
    if (typeof g.rows !== 'number' || !Number.isInteger(g.rows) || g.rows < 1) invalidArgument(`json.groups[${k}].rows`, 'an integer ≥ 1', describe(g.rows));
    const large = g.rows >= minGroupSize;
    if (!large && g.calibrator !== null)
      invalidArgument(`json.groups[${k}].calibrator`, `null (the group has ${g.rows} < min_group_size ${minGroupSize} rows: the pooled calibrator applies)`, describe(g.calibrator));
    if (g.calibrator !== null) {
      if (g.fallback !== undefined) invalidArgument(`json.groups[${k}].fallback`, 'no fallback for a group with its own calibrator', describe(g.fallback));
      return { id: g.id, rows: g.rows, calibrator: member(`json.groups[${k}].calibrator`, g.calibrator), fallback: null };
    }
    if (g.fallback === undefined) {
      // Files written before fallbacks were recorded: a null calibrator meant too few rows.
      if (large) invalidArgument(`json.groups[${k}].calibrator`, `a calibrator, or a fallback reason (the group has ${g.rows} ≥ min_group_size ${minGroupSize} rows)`, 'null');
      return { id: g.id, rows: g.rows, calibrator: null, fallback: { reason: 'too_small', detail: `${g.rows} < ${minGroupSize} rows` } };
    }
    const f = requireRecord(`json.groups[${k}].fallback`, g.fallback);
    const expected = large ? 'fit_failed' : 'too_small';
    if (f.reason !== expected)
      invalidArgument(`json.groups[${k}].fallback.reason`, `'${expected}' (the group has ${g.rows} ${large ? '≥' : '<'} min_group_size ${minGroupSize} rows)`, describe(f.reason));
    if (typeof f.detail !== 'string') invalidArgument(`json.groups[${k}].fallback.detail`, 'a string', describe(f.detail));
    return { id: g.id, rows: g.rows, calibrator: null, fallback: { reason: expected, detail: f.detail } };
  });
  const columns = settings.columns;
  if (columns !== undefined && (!Array.isArray(columns) || columns.length < 2 || !columns.every((c) => typeof c === 'string')))
    invalidArgument('json.settings.columns', 'an array of at least 2 group column names', describe(columns));
  if (new Set(groups.map((g) => g.id)).size !== groups.length) invalidArgument('json.groups', 'distinct group ids', 'a repeated id');
  const calibrator = new GroupwiseCalibrator(method, minGroupSize, groups, pooled, columns as string[] | undefined);
  requireKnownKeys('json', record, calibrator.toJSON(), 'a groupwise calibrator');
  return calibrator;
}
