import { writeSuiteReport } from '../../suite/report/write-suite-report.js';
import { defineCommand } from '../command.js';
import { flag } from '../flag.js';
import { described, number, optional, string } from '../../util/schema.js';
import { requireNumber } from '../../util/errors.js';

/** `calib report DIR`: the comparison report of a suite directory (src/suite/report/). */
export const reportCommand = defineCommand({
  name: 'report',
  summary: 'Write the comparison report of a suite directory: report.md, report.html (self-contained), report.json.',
  usage: 'DIR',
  description: [
    'The paper-style table per dataset · model (test metrics as mean ± std over seeds, best per column in bold, before',
    'and after each post-hoc calibrator with the fitted temperature, the bin count and convention stated), the verdicts',
    'of the comparisons the suite names, reliability diagrams per method as small multiples (before and after),',
    'metric-versus-hyper-parameter curves with error bars, validation ECE and accuracy per epoch, OOD AUROC where',
    "evaluated, and sentences stating what the suite found. report.json holds every run's settings and metrics under",
    'the keys of calib eval --json. Works on an unfinished suite: the missing runs are listed, and a claim that reads',
    'a method with an unfinished run (any seed, any swept value) is not evaluated.',
    'The Compute paragraph (report.json `compute`) states the runs trained and reused, the run time (epochs in',
    'log.jsonl plus finishing), machine-hours = run time ÷ the runs side by side recorded in DIR/sessions.json by',
    'calib suite run (--jobs N when a suite started before that record), minutes per run and the wall span.',
  ].join('\n'),
  examples: ['calib report suites/demo-quick', 'calib report suites/karandikar-deep --jobs 2'],
  positional: 'dir',
  flags: {
    dir: flag(described(string(), 'suite directory (written by calib suite run)'), { valueName: 'DIR' }),
    jobs: flag(described(optional(number({ integer: true })), 'runs trained side by side, for the machine-hours when DIR/sessions.json does not record them'), {
      valueName: 'N',
    }),
  },
  async run(flags, io) {
    const jobs = flags.jobs === undefined ? undefined : requireNumber('--jobs', flags.jobs, { integer: true, min: 1 });
    const written = await writeSuiteReport(flags.dir, jobs);
    io.stdout.write(`${written.summary}\nwrote ${written.paths.join(' ')}\n`);
  },
});
