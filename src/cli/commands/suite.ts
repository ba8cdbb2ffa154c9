import { existsSync } from 'node:fs';
import { isOptInMetricName } from '../../metrics/record/opt-in-metrics.js';
import { readFile, stat } from 'node:fs/promises';
import { availableParallelism, hostname } from 'node:os';
import { join } from 'node:path';
import { expandSuite, explicitThreads, type SuiteRun } from '../../suite/expand-suite.js';
import { planReuse, reuseSummary, type ReusePlan } from '../../suite/identity/reuse-plan.js';
import { reusableRuns } from '../../suite/identity/run-reuse.js';
import { evaluationHash, trainingHash } from '../../suite/identity/run-identity.js';
import { readScaleReport, scaleComparisonMarkdown } from '../../suite/report/scale-comparison.js';
import { budgetMarkdown, formatBudget, suiteBudget } from '../../suite/estimate/suite-budget.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { loadSuite } from '../../suite/load-suite.js';
import { scaledSuite } from '../../suite/scale-grid.js';
import { BUILTIN_SUITE_NAMES, BUILTIN_SUITES } from '../../suite/builtin-suites.js';
import { localExecutor } from '../../suite/local-executor.js';
import { mergeConfig } from '../../train/train-config.js';
import { maskQueueUrl, parseQueueUrl } from '../../suite/queue/queue-connection.js';
import { runSuite, type SuiteOutcome } from '../../suite/run-suite.js';
import { checkSuiteOutDirectory, prepareSuiteDirectory, readSuiteRecord, SUITE_FILE } from '../../suite/suite-directory.js';
import { checkRunData } from '../../suite/suite-limits.js';
import { suiteStatus } from '../../suite/suite-status.js';
import { ConsoleSuiteProgress, SILENT_SUITE_PROGRESS, type SuiteProgress } from '../../suite/suite-progress.js';
import { SUITE_SCALES, type Suite, type SuiteScale } from '../../suite/suite-schema.js';
import { writeSuiteReport } from '../../suite/report/write-suite-report.js';
import { estimateSuite, formatEstimate } from '../../suite/estimate/suite-estimate.js';
import { suiteRunProgress } from '../../suite/estimate/suite-run-times.js';
import { formatMeasured, measureSuite, type SuiteMeasurement } from '../../suite/estimate/suite-measured.js';
import { recordSuiteSession } from '../../suite/estimate/suite-sessions.js';
import { CALIBKIT_VERSION } from '../../util/version.js';
import { pathExists } from '../../util/path-exists.js';
import { README_FILE, reproductionsReadme, writeReproductionsReadme } from '../../suite/report/reproductions-readme.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import { requireOutputPath } from '../output-path.js';
import { UsageError } from '../args.js';
import { type CliIO, defineCommand } from '../command.js';
import { flag } from '../flag.js';
import { boolean, described, number, optional, string } from '../../util/schema.js';

/**
 * `calib suite list | show NAME | run FILE|NAME | status DIR | readme DIR`: experiment suites (src/suite/). `run`
 * expands the suite into runs, trains them `--jobs` side by side (locally, or on BullMQ workers with `--queue`), fits
 * the post-hoc calibrators, and writes the report; it resumes a suite directory where it stopped. `readme` writes the
 * README of a folder of reports (docs/reproductions) from their report.json files.
 */

/** A suite at one scale as a standalone file: the scale's overrides merged into `base`. */
export function suiteAtScale(suite: Suite, scale: SuiteScale): Record<string, unknown> {
  const defined = (o: object): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const { scales, defaultScale: _d, ...rest } = suite;
  const over = scales[scale];
  return { ...defined(rest), base: mergeConfig(defined(suite.base), defined(over ?? {})), methods: suite.methods.map(defined), sweeps: suite.sweeps.map(defined) };
}

function isTty(io: CliIO): boolean {
  return (io.stdout as { isTTY?: boolean }).isTTY === true;
}

export function suiteProgressFor(mode: string, io: CliIO): SuiteProgress {
  if (mode === 'none') return SILENT_SUITE_PROGRESS;
  return new ConsoleSuiteProgress(io.stdout, { live: mode === 'bar' || (mode === 'auto' && isTty(io)) });
}

/** Print the outcome lines of a suite run; returns the exit code (0 all done, 1 failures, 130 stopped). */
export function reportOutcome(outcome: SuiteOutcome, total: number, dir: string, io: CliIO): number {
  const more = [
    outcome.reused ? `${outcome.reused} reused` : '',
    outcome.reevaluated ? `${outcome.reevaluated} re-evaluated from their final checkpoint` : '',
    outcome.refitted ? `${outcome.refitted} post-hoc refitted` : '',
    outcome.adopted ? `${outcome.adopted} adopted` : '',
  ]
    .filter((x) => x)
    .join(', ');
  io.stdout.write(`suite ${dir}: ${outcome.done.length}/${total} runs done (${outcome.executed - outcome.reevaluated} trained now, ${more ? `${more}, ` : ''}${outcome.seconds.toFixed(1)} s)\n`);
  for (const f of outcome.failed) io.stdout.write(`  failed: ${f.id}: ${f.error}\n`);
  if (outcome.stopped.length) io.stdout.write(`  stopped: ${outcome.stopped.length} run(s); continue with the same command\n`);
  if (outcome.stopped.length) return 130;
  return outcome.failed.length ? 1 : 0;
}

export const suiteCommand = defineCommand({
  name: 'suite',
  summary: 'Experiment suites: run a comparison (methods × sweeps × seeds, post-hoc calibration) and report it.',
  usage:
    'list | show NAME [--scale S] | run FILE|NAME [--out DIR] [--jobs N] [--scale S] [--reuse-from DIR[,DIR…]] [--dry-run] [--queue URL [--worker-wait S]] | status DIR [--jobs N] | budget [NAME,NAME…] [--scale S] [--jobs N] [--threads T] [--markdown FILE] [--measured-root DIR] | compare-scales FIRST SECOND [--scale S] [--markdown FILE] | readme DIR [--check]',
  description: [
    'A suite is a JSON file (see calib suite show demo): a base training configuration (the keys of calib train',
    '--config), per-scale overrides (quick, machine, paper), named methods, one-dimensional sweeps of a key over',
    'values, seeds, post-hoc calibrators (fitted on validation, applied to test), OOD evaluation, the validation',
    "metric that picks a swept value, the paper's claims (`claims`: each decided as holds / contradicted /",
    'inconclusive, equivalent within a margin, or a shape criterion met / not met, with Holm-adjusted outcomes) and',
    'the suite\'s own comparisons for the report ("mbls < ce on ece").',
    'run: every run is an ordinary run directory DIR/runs/<method>[-<key>=<value>]-seed<s>; --jobs N trains N side by',
    'side with --threads split between them; a finished run is skipped and an interrupted one resumes from its',
    'checkpoint, so re-running the same command continues a stopped suite. A failing run does not stop the others',
    '(exit code 1 names it). With --queue the runs go to a BullMQ queue in Redis and `calib worker` processes on any',
    'machine train them. Ends by writing DIR/report.md, report.html and report.json (calib report DIR).',
    'A rerun recomputes exactly what is stale and says why: each run records its identity (runs/<id>/identity.json:',
    'the hash of its settings; posthoc.json: calibrators, bins, calibkit version), so a changed training setting',
    'retrains that run; a changed evaluation setting (ood, oodDataset, oodDatasetOptions, oodSubset, evaluateTrain,',
    'mcDropout, testSubset: read only after the last epoch) re-evaluates it from its final checkpoint (weights and',
    'log.jsonl kept, only the finishing redone; retrained when its checkpoints are gone); a changed bins or calibrator',
    'list only refits post-hoc; and a run with broken files',
    '(non-finite or deleted logits, a corrupt posthoc.json, a copy of another run) is repaired. Runs trained before',
    'identities were recorded are adopted from their own config.json. --out must be new, empty, or the directory',
    'of the same suite at the same scale. Limits checked before anything trains: a suite file of at most 1 MiB, at',
    'most 10000 runs, at most 1000 bins, subset / testSubset / validation within the dataset.',
    '--queue URL: redis://HOST:PORT, redis://[USER]:PASSWORD@HOST:PORT, rediss://… (TLS), /DB; the password is',
    'never printed. An unreachable server is refused before DIR is created; a lost connection, jobs Redis lost',
    '(re-queued) and no worker for --worker-wait seconds are reported.',
    'status: every run with its state (done, running, trained, partial, failed, pending, stale, broken) and, for',
    'running runs the process holding its lock, for stale and broken runs the reason naming the file ("re-evaluate',
    '(ood false → true)" for a run whose evaluation settings changed; --dry-run and status price it as its finishing only).',
    '--dry-run prints the plan and writes nothing: runs left (from DIR when it holds the suite already) × measured',
    "minutes per run = machine time with --jobs side by side. Minutes per run come from the run's own trained",
    "epochs, else the suite's runs of the same method and cost (model, data, batch, threads per run), else a measured",
    'reference (the deep-scale pilot, docs/reproductions/deep-scale-pilot.md); runs with none are named as such.',
    'status then says what was measured so far: runs trained, their run time (the wall seconds of their epochs in',
    'log.jsonl plus their finishing, log.jsonl to the later of summary.json and ood.json) ÷ the runs side by side =',
    'machine-hours, minutes per finished run, the wall span during which at least one run was in progress (the union',
    "of the runs' launch-to-finish intervals; a run resumed after a stop keeps its pause inside it), and the epochs' CPU",
    'time (log.jsonl cpu_time_s), which other work on the machine does not inflate. Each suite run records its --jobs',
    'and threads in DIR/sessions.json; without that record (suites started before it) --jobs is used, and said so.',
    'status ends with what is left and roughly how long it takes with --jobs side by side',
    '(the same estimate).',
    '--reuse-from DIR[,DIR…]: before training, every run of the suite whose evaluation identity (the hash of its resolved',
    'settings and data split, runs/<id>/identity.json) equals that of a finished, whole run in DIR/runs is copied in',
    '(atomically; identity.json records reusedFrom) instead of trained, and the count is printed ("N reused"). A run',
    'whose settings equal another run of the same suite (a sweep value equal to a method) is copied from it once it',
    'has finished, with or without the flag. With --dry-run the reused runs are left out of the estimate: those',
    "finished in DIR now, and those DIR's suite plans (copied once it has trained them).",
    'budget: the machine time of several suites run in this order at one scale (default: the five paper suites in',
    'reuse order, --scale deep), each reusing the runs of the earlier ones: per suite runs, reused runs, trained runs,',
    "estimated hours, claims tested at the scale and what its trimmed grid (the suite's grids.<scale>) left out;",
    '--markdown FILE writes the same as a Markdown page (docs/reproductions/deep-budget.md). --measured-root DIR adds',
    "what the suites' directories DIR/<name>-<scale> measured so far (as status: runs trained, machine-hours) beside",
    'the planned hours of the same runs; a suite without a directory there reads "not started".',
    "compare-scales FIRST SECOND: one paper's claims at two scales from two report.json files (or their directories),",
    'e.g. machine vs deep: per claim both verdicts with their differences and intervals, and whether it flipped (flips',
    'first); when SECOND does not exist yet it says "<scale>-scale report not yet produced" (--scale names SECOND\'s',
    'scale, default deep). --markdown FILE writes the table to FILE as well.',
    "readme DIR: write DIR/README.md from the reports DIR/*/report.json (per suite: settings, coverage, the paper's",
    "claims and the suite's own checks, and whether the report was produced with the built-in suite's current",
    'runs, settings, calibrators, bins and claims — "produced with earlier settings; rerun pending" and what differs',
    'when not). A paper with a deep-scale report in DIR/NAME-deep/ leads its section with the deep verdicts, the machine',
    'scale second, and the compare-scales flip table; a suite with a deep scale but no such report says "deep-scale',
    'report not yet produced (runs in progress)". Hand-written <!-- prose:NAME --> blocks are kept; --check writes nothing',
    'and exits 1 when the README is not what the reports give.',
  ].join('\n'),
  examples: [
    'calib suite list',
    'calib suite show demo --scale machine > my-suite.json',
    'calib suite run demo --out suites/demo --jobs 2',
    'calib suite run my-suite.json --out suites/mine --scale machine --queue redis://127.0.0.1:6379',
    'calib suite run my-suite.json --out suites/mine --queue rediss://calib:s3cret@redis.example.org:6380 --worker-wait 120',
    'calib suite run mbls --scale deep --jobs 2 --threads 2 --dry-run',
    'calib suite run acls --scale deep --out suites/acls-deep --reuse-from suites/mbls-deep --jobs 2 --threads 2',
    'calib suite budget --scale deep --jobs 2 --threads 1',
    'calib suite compare-scales docs/reproductions/mbls repro/mbls-deep',
    'calib suite status suites/demo',
    'calib suite status suites/mbls-deep --jobs 2 --threads 2',
    'calib suite budget --scale deep --jobs 2 --threads 2 --measured-root suites --markdown deep-budget.md',
    'calib suite readme docs/reproductions',
  ],
  positional: ['action', 'target', 'second'],
  flags: {
    action: flag(described(string(['list', 'show', 'run', 'status', 'budget', 'compare-scales', 'readme']), 'list, show, run, status, budget, compare-scales or readme'), { valueName: 'ACTION' }),
    second: flag(described(optional(string()), 'compare-scales: the second directory (a report.json or the directory holding one)'), { valueName: 'SECOND' }),
    target: flag(described(optional(string()), 'the suite (show, run), suite directory (status) or folder of reports (readme)'), { valueName: 'NAME|FILE|DIR' }),
    out: flag(described(optional(string()), 'suite directory (default suites/<name>-<scale>)'), { valueName: 'DIR' }),
    scale: flag(described(optional(string(SUITE_SCALES)), "the suite's scale (default: the suite's defaultScale)")),
    jobs: flag(optional(number({ integer: true }), 1, 'runs trained side by side (local; status: for its estimate)'), { valueName: 'N' }),
    threads: flag(described(optional(number({ integer: true })), "ONNX Runtime threads in total, split across jobs (default: the suite's threads where it states them, else the CPU count)"), {
      valueName: 'T',
    }),
    queue: flag(described(optional(string()), 'put the runs on a BullMQ queue for calib worker processes: redis://[USER:PASSWORD@]HOST:PORT[/DB], rediss:// for TLS'), { valueName: 'URL' }),
    'worker-wait': flag(optional(number(), 60, 'with --queue: say so when no worker has been connected for S seconds while runs wait (repeated every S s)'), { valueName: 'S' }),
    'reuse-from': flag(described(optional(string()), 'run: copy in the finished runs of these suite directories whose evaluation identity equals a run of the suite, instead of training them'), {
      valueName: 'DIR[,DIR…]',
    }),
    markdown: flag(described(optional(string()), 'budget: also write the budget as a Markdown page'), { valueName: 'FILE' }),
    'measured-root': flag(described(optional(string()), "budget: the folder holding the suites' directories <name>-<scale>; adds their measured machine-hours"), {
      valueName: 'DIR',
    }),
    'dry-run': flag(optional(boolean(), false, 'run: print the runs left and the estimated machine time, write nothing')),
    report: flag(optional(boolean(), true, 'write the report when the suite ends (--report=false: do not)')),
    progress: flag(optional(string(['auto', 'bar', 'lines', 'none']), 'auto', 'progress display: auto = live line on a terminal')),
    check: flag(optional(boolean(), false, 'readme: write nothing; exit 1 when DIR/README.md differs from what the reports give')),
  },
  async run(flags, io) {
    const needTarget = (what: string): string => {
      if (flags.target === undefined) throw new UsageError(`suite ${flags.action}: give ${what}`);
      return flags.target;
    };
    switch (flags.action) {
      case 'list': {
        for (const name of BUILTIN_SUITE_NAMES) io.stdout.write(`${name.padEnd(14)} ${BUILTIN_SUITES[name]!.summary}\n`);
        io.stdout.write('\ncalib suite show NAME prints one as a file to copy and edit; calib suite run NAME|FILE runs it\n');
        return 0;
      }
      case 'show': {
        const suite = await loadSuite(needTarget('a suite name or file'), 'suite show');
        const text = flags.scale === undefined ? structuredCloneSuite(suite) : suiteAtScale(suite, flags.scale as SuiteScale);
        io.stdout.write(`${JSON.stringify(text, null, 2)}\n`);
        return 0;
      }
      case 'status': {
        const dir = needTarget('a suite directory');
        const s = await suiteStatus(dir);
        const count = (...st: string[]): number => s.runs.filter((r) => st.includes(r.state)).length;
        const reevaluate = s.runs.filter((r) => r.state === 'stale' && r.detail?.startsWith('re-evaluate')).length;
        const extra = [
          count('running') ? `${count('running')} running` : '',
          count('stale') ? `${count('stale')} stale${reevaluate ? ` (${reevaluate} to re-evaluate)` : ''}` : '',
          count('broken') ? `${count('broken')} broken` : '',
        ]
          .filter((x) => x)
          .join(', ');
        io.stdout.write(
          `suite ${s.record.suite.name} (${s.record.scale}) in ${dir}: ${s.runs.length} runs — ${count('done')} done, ${count('failed')} failed, ${count('partial', 'trained')} interrupted, ${count('pending')} not started${extra ? `, ${extra}` : ''}\n`,
        );
        for (const r of s.runs) io.stdout.write(`  ${r.state.padEnd(8)} ${r.id}  ${r.epochs}/${r.totalEpochs} epochs${r.detail ? `  ${r.detail}` : ''}\n`);
        if (count('stale', 'broken', 'trained')) io.stdout.write('calib suite run with the same suite and --out recomputes the stale and broken runs\n');
        const { jobs: estimateJobs, threads } = jobsAndThreads(flags);
        for (const line of formatMeasured(await measureSuite(dir, s.record.runs, estimateJobs))) io.stdout.write(`${line}\n`);
        const estimate = estimateSuite(await suiteRunProgress(dir, s.record.runs, threads), estimateJobs);
        for (const line of formatEstimate(estimate, threads)) io.stdout.write(`${line}\n`);
        return count('done') === s.runs.length ? 0 : 1;
      }
      case 'budget': {
        const names = (flags.target ?? DEEP_BUDGET_ORDER.join(',')).split(',').filter((x) => x !== '');
        const scale = (flags.scale ?? 'deep') as SuiteScale;
        const suites = [];
        for (const name of names) suites.push({ name, suite: await loadSuite(name, 'suite budget') });
        const { jobs, threads } = jobsAndThreads(flags);
        // A --markdown path that cannot be written is refused before the plan is printed.
        if (flags.markdown !== undefined) await requireOutputPath(flags.markdown, '--markdown');
        const measured = flags['measured-root'] === undefined ? undefined : await measuredSuites(flags['measured-root'], names, scale, jobs);
        const budget = suiteBudget(suites, scale, jobs, threads);
        for (const line of formatBudget(budget, scale === 'deep' ? DEEP_BUDGET_HOURS : undefined, measured)) io.stdout.write(`${line}\n`);
        if (flags.markdown !== undefined) {
          const root = flags['measured-root'] === undefined ? '' : ` --measured-root ${flags['measured-root']}`;
          const command = `calib suite budget ${flags.target ?? ''}${flags.target ? ' ' : ''}--scale ${scale} --jobs ${jobs} --threads ${threads * jobs}${root} --markdown ${flags.markdown}`;
          await atomicWriteFile(flags.markdown, budgetMarkdown(budget, command, measured));
          io.stdout.write(`wrote ${flags.markdown}\n`);
        }
        return 0;
      }
      case 'compare-scales': {
        // Errors name the two positional arguments as the user gave them: the first and the second directory.
        const a = await readScaleReport(needTarget('the first directory (a report.json or the directory holding one)'), 'first directory');
        if (a === null) invalidArgument('first directory', 'a suite report.json (or a directory holding one)', JSON.stringify(flags.target));
        if (flags.second === undefined) throw new UsageError('suite compare-scales: give the second directory (a report.json or the directory holding one)');
        if (flags.markdown !== undefined) await requireOutputPath(flags.markdown, '--markdown');
        const b = await readScaleReport(flags.second, 'second directory');
        const text = scaleComparisonMarkdown(a, b, flags.scale ?? 'deep');
        io.stdout.write(text);
        if (flags.markdown !== undefined) await atomicWriteFile(flags.markdown, text);
        return 0;
      }
      case 'readme': {
        const dir = needTarget('a folder of suite reports (e.g. docs/reproductions)');
        if (flags.check) {
          const path = join(dir, README_FILE);
          const existing = existsSync(path) ? await readFile(path, 'utf8') : '';
          const fresh = await reproductionsReadme(dir, existing);
          io.stdout.write(fresh === existing ? `${path}: up to date\n` : `${path}: differs from what the reports give (run calib suite readme ${dir})\n`);
          return fresh === existing ? 0 : 1;
        }
        const written = await writeReproductionsReadme(dir);
        io.stdout.write(`${written.changed ? 'wrote' : 'unchanged:'} ${written.path}\n`);
        return 0;
      }
      case 'run': {
        const target = needTarget('a suite name or file');
        const suite = await loadSuite(target, 'suite run');
        const scale = (flags.scale ?? suite.defaultScale) as SuiteScale;
        const path = BUILTIN_SUITES[target] ? `suite ${target}` : target;
        const runs = expandSuite(suite, scale, path);
        const dir = flags.out ?? `suites/${suite.name}-${scale}`;
        const jobs = requireNumber('--jobs', flags.jobs, { integer: true, min: 1 });
        const total = requireNumber('--threads', flags.threads ?? availableParallelism(), { integer: true, min: 1 });
        const share = Math.max(1, Math.floor(total / jobs));
        // --threads, when given, overrides the suite; otherwise a method's, scale's or base's `threads` is honoured.
        const threadsOf = (run: { method: string }): number => (flags.threads !== undefined ? share : (explicitThreads(suite, scale, run.method) ?? share));
        const workerWait = requireNumber('--worker-wait', flags['worker-wait'], { min: 1 });
        if (flags.queue !== undefined) parseQueueUrl(flags.queue);
        const reuseFrom = flags['reuse-from'] === undefined ? [] : await reuseDirectories(flags['reuse-from']);
        // --out is checked first (read-only), so a dry run refuses what the real run would refuse.
        await checkSuiteOutDirectory(dir, suite.name, scale);
        if (flags['dry-run']) {
          const existing = (await pathExists(join(dir, SUITE_FILE))) ? dir : undefined;
          io.stdout.write(`suite ${suite.name} (${scale}): ${runs.length} runs${existing ? ` in ${dir}` : ''}, ${jobs} side by side with ${share} thread(s) each (dry run: nothing trains)\n`);
          const progress = await suiteRunProgress(existing, runs, share);
          const reuse = await dryRunReuse(runs, reuseFrom);
          const pending = new Set(progress.filter((p) => !p.done).map((p) => p.id));
          const plan = { reused: new Map([...reuse.reused].filter(([id]) => pending.has(id))) };
          const summary = reuseSummary(plan);
          if (summary) io.stdout.write(`${summary}\n`);
          // A run reused for its weights only still pays its finishing (re-evaluated from its final checkpoint).
          const estimate = estimateSuite(
            progress.map((p) => {
              const r = plan.reused.get(p.id);
              if (r === undefined) return p;
              return r.reevaluate ? { ...p, epochsDone: p.epochs, finishing: p.finishing ?? Number.NaN } : { ...p, done: true };
            }),
            jobs,
          );
          for (const line of formatEstimate(estimate, share)) io.stdout.write(`${line}\n`);
          return 0;
        }
        // Everything is checked before anything is written: --out (above), the data sizes, and the queue's Redis.
        await checkRunData(runs, path);
        const executor =
          flags.queue !== undefined
            ? await (
                await import('../../suite/queue/queue-executor.js')
              ).queueExecutor(flags.queue, {
                suiteName: suite.name,
                posthoc: suite.posthoc,
                bins: suite.bins,
                metrics: suite.metrics.filter(isOptInMetricName),
                workerWaitSeconds: workerWait,
                log: (line) => io.stderr.write(`calib: ${line}\n`),
              })
            : localExecutor(dir, jobs);
        // The suite as it runs at this scale (its trimmed grid applied: scale-grid.ts) is what the report reads.
        const record = { format: 1 as const, scale, suite: scaledSuite(suite, scale), runs };
        await prepareSuiteDirectory(dir, record);
        // What nothing else records: the runs side by side, for the measured machine-hours (suite-sessions.ts).
        await recordSuiteSession(dir, {
          started: new Date().toISOString(),
          jobs: flags.queue ? null : jobs,
          threads: [...new Set(runs.map(threadsOf))],
          executor: flags.queue ? 'queue' : 'local',
          host: hostname(),
          pid: process.pid,
          calibkit: CALIBKIT_VERSION,
        });
        const threadsText = [...new Set(runs.map(threadsOf))].join('/');
        io.stdout.write(
          `suite ${suite.name} (${scale}): ${runs.length} runs into ${dir}/runs, ${flags.queue ? `on the queue ${maskQueueUrl(flags.queue)}` : `${jobs} side by side with ${threadsText} thread(s) each`}\n`,
        );
        const controller = new AbortController();
        let interrupts = 0;
        const onSigint = (): void => {
          interrupts++;
          if (interrupts > 1) process.exit(130);
          io.stderr.write('\ncalib: stopping the suite after the current updates (Ctrl-C again to quit now)\n');
          controller.abort();
        };
        process.on('SIGINT', onSigint);
        let outcome: SuiteOutcome;
        try {
          outcome = await runSuite(dir, record, {
            executor,
            threads: threadsOf,
            progress: suiteProgressFor(flags.progress, io),
            signal: controller.signal,
            notify: (line) => io.stdout.write(`${line}\n`),
            reuseFrom,
          });
        } finally {
          process.removeListener('SIGINT', onSigint);
        }
        const code = reportOutcome(outcome, runs.length, dir, io);
        if (flags.report && outcome.done.length > 0 && outcome.stopped.length === 0) {
          const written = await writeSuiteReport(dir);
          io.stdout.write(`${written.summary}\nwrote ${written.paths.join(' ')}\n`);
        }
        return code;
      }
    }
    return 2;
  },
});

/** --jobs and the threads of each run (--threads, default the CPU count, split between the jobs). */
function jobsAndThreads(flags: { readonly jobs?: number; readonly threads?: number }): { jobs: number; threads: number } {
  const jobs = requireNumber('--jobs', flags.jobs, { integer: true, min: 1 });
  const total = requireNumber('--threads', flags.threads ?? availableParallelism(), { integer: true, min: 1 });
  return { jobs, threads: Math.max(1, Math.floor(total / jobs)) };
}

/**
 * budget --measured-root ROOT: each suite's directory ROOT/<name>-<scale> measured (suite-measured.ts), null when it
 * holds no suite.json (not started); ROOT itself must be a directory.
 */
async function measuredSuites(root: string, names: readonly string[], scale: SuiteScale, jobs: number): Promise<Map<string, SuiteMeasurement | null>> {
  let isDirectory = false;
  try {
    isDirectory = (await stat(root)).isDirectory();
  } catch {
    invalidArgument('--measured-root', 'a folder holding suite directories <name>-<scale>', `${JSON.stringify(root)} (not found)`);
  }
  if (!isDirectory) invalidArgument('--measured-root', 'a folder holding suite directories <name>-<scale>', `${JSON.stringify(root)} (not a directory)`);
  const out = new Map<string, SuiteMeasurement | null>();
  for (const name of names) {
    const dir = join(root, `${name}-${scale}`);
    if (!(await pathExists(join(dir, SUITE_FILE)))) {
      out.set(name, null);
      continue;
    }
    const record = await readSuiteRecord(dir);
    if (record.suite.name !== name || record.scale !== scale)
      invalidArgument('--measured-root', `suite directories named <name>-<scale> (${dir}: suite ${name} at scale ${scale})`, `suite ${record.suite.name} at scale ${record.scale}`);
    out.set(name, await measureSuite(dir, record.runs, jobs));
  }
  return out;
}

/** The paper suites in the order their deep reruns go (mbls first: acls and maronas reuse its runs). */
export const DEEP_BUDGET_ORDER = ['mbls', 'acls', 'maronas', 'thulasidasan', 'karandikar'];

/** Issue #23's budget for the five papers' deep reruns, in machine hours. */
export const DEEP_BUDGET_HOURS = 20;

/** --reuse-from's directories: each must be a suite directory (with suite.json). */
async function reuseDirectories(text: string): Promise<string[]> {
  const dirs = text.split(',').filter((d) => d !== '');
  if (dirs.length === 0) invalidArgument('--reuse-from', 'one or more suite directories, comma-separated', JSON.stringify(text));
  for (const d of dirs) if (!(await pathExists(join(d, SUITE_FILE)))) invalidArgument('--reuse-from', `a suite directory (with ${SUITE_FILE}, written by calib suite run)`, JSON.stringify(d));
  return dirs;
}

/** The reuse plan of a dry run: finished runs of the directories now, the runs their suite.json plans, twins within the suite. */
async function dryRunReuse(runs: readonly SuiteRun[], dirs: readonly string[]): Promise<ReusePlan> {
  const finished = new Map<string, string>();
  const planned = new Map<string, string>();
  const weights = { finished: new Map<string, string>(), planned: new Map<string, string>() };
  for (const d of dirs) {
    for (const [hash, run] of await reusableRuns(d)) {
      if (!finished.has(hash)) finished.set(hash, d);
      if (run.weights !== undefined && !weights.finished.has(run.weights)) weights.finished.set(run.weights, d);
    }
    for (const r of (await readSuiteRecord(d)).runs) {
      const hash = evaluationHash(r.config);
      if (!finished.has(hash) && !planned.has(hash)) planned.set(hash, d);
      const w = trainingHash(r.config);
      if (!weights.finished.has(w) && !weights.planned.has(w)) weights.planned.set(w, d);
    }
  }
  return planReuse(runs, finished, planned, weights);
}

function structuredCloneSuite(suite: Suite): Record<string, unknown> {
  return JSON.parse(JSON.stringify(suite)) as Record<string, unknown>;
}
