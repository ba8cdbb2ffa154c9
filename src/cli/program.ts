import { CALIBKIT_VERSION } from '../util/version.js';
import { CalibrationFitError } from '../posthoc/index.js';
import { TrainingError } from '../train/training-error.js';
import { InvalidArgumentError } from '../util/errors.js';
import { parseArgs, UsageError } from './args.js';
import type { CliIO, Command } from './command.js';
import { COMMANDS } from './commands/index.js';
import { commandHelp, programHelp } from './help.js';

/**
 * The `calib` program as a testable function: `main(argv, io)` runs one command with `argv` (the arguments
 * after `calib`), writes to `io.stdout`/`io.stderr` and returns the exit code. It never calls process.exit.
 *
 * Exit codes: 0 success; 2 a usage error or invalid input (`InvalidArgumentError`), printed as one line
 * `calib: error: <message>`; 1 a calibrator fit that failed (`CalibrationFitError`, e.g. no convergence), printed
 * as `calib: error: fit failed: <message>`; 1 a training run that failed (`TrainingError`, e.g. a loss that became
 * NaN), printed as `calib: error: training failed: <message>`; 1 any other exception (a bug), printed as
 * `calib: internal error: <message>` (with the stack only when `CALIB_DEBUG=1`).
 */

/** The package version (util/version.ts). */
export function calibVersion(): string {
  return CALIBKIT_VERSION;
}

/** A message on one printable line: newlines folded, control characters and U+FFFD (from binary files) as '?'. */
function oneLine(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '?')
    .trim();
}

function findCommand(commands: readonly Command[], name: string): Command {
  const command = commands.find((c) => c.name === name);
  if (command) return command;
  const close = commands.filter((c) => c.name.startsWith(name.slice(0, 2))).map((c) => c.name);
  throw new UsageError(`unknown command ${JSON.stringify(name)}${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}; commands: ${commands.map((c) => c.name).join(', ')}`);
}

/** Run `calib` with `argv` against a command table (default: the built-in commands). */
export async function main(argv: readonly string[], io: CliIO, commands: readonly Command[] = COMMANDS): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === undefined) {
      io.stderr.write(programHelp(commands, calibVersion()));
      return 2;
    }
    if (first === '--help' || first === '-h') {
      io.stdout.write(programHelp(commands, calibVersion()));
      return 0;
    }
    if (first === 'help') {
      io.stdout.write(rest[0] === undefined ? programHelp(commands, calibVersion()) : commandHelp(findCommand(commands, rest[0])));
      return 0;
    }
    if (first === '--version' || first === '-V') {
      io.stdout.write(`${calibVersion()}\n`);
      return 0;
    }
    if (first.startsWith('-')) throw new UsageError(`expected a command before ${JSON.stringify(first)} (see calib --help)`);
    const command = findCommand(commands, first);
    const parsed = parseArgs(command.flags, withPositional(command, rest), command.name);
    if (parsed.help) {
      io.stdout.write(commandHelp(command));
      return 0;
    }
    return (await command.run(parsed.flags, io)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof InvalidArgumentError) {
      io.stderr.write(`calib: error: ${oneLine(error.message)}\n`);
      return 2;
    }
    if (error instanceof CalibrationFitError) {
      io.stderr.write(`calib: error: fit failed: ${oneLine(error.message)}\n`);
      return 1;
    }
    if (error instanceof TrainingError) {
      io.stderr.write(`calib: error: training failed: ${oneLine(error.message)}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`calib: internal error: ${oneLine(message)}\n`);
    if (io.env?.['CALIB_DEBUG'] === '1' && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return 1;
  }
}

/** Rewrite leading positional arguments as the command's `positional` flags, in order. */
function withPositional(command: Command, argv: readonly string[]): readonly string[] {
  if (!command.positional) return argv;
  const names = typeof command.positional === 'string' ? [command.positional] : command.positional;
  const out: string[] = [];
  let i = 0;
  for (const name of names) {
    const arg = argv[i];
    if (arg === undefined || arg.startsWith('-')) break;
    out.push(`--${name}`, arg);
    i++;
  }
  return [...out, ...argv.slice(i)];
}
