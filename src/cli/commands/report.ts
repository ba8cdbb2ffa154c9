import { writeSuiteReport } from '../../suite/report/write-suite-report.js';
import { defineCommand } from '../command.js';
import { flag } from '../flag.js';
import { described, string } from '../../util/schema.js';

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
  ].join('\n'),
  examples: ['calib report suites/demo-quick'],
  positional: 'dir',
  flags: {
    dir: flag(described(string(), 'suite directory (written by calib suite run)'), { valueName: 'DIR' }),
  },
  async run(flags, io) {
    const written = await writeSuiteReport(flags.dir);
    io.stdout.write(`${written.summary}\nwrote ${written.paths.join(' ')}\n`);
  },
});
