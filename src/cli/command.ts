import type { Flags, ParsedFlags } from './flag.js';

/** Where a command writes: stdout for results, stderr for progress and errors. */
export interface Writer {
  write(text: string): unknown;
}

/** The program's environment, passed explicitly so that tests capture output and set variables. */
export interface CliIO {
  readonly stdout: Writer;
  readonly stderr: Writer;
  /** Environment variables (default: none). `CALIB_DEBUG=1` prints stacks of internal errors; CALIB_PROGRESS_DELAY_MS
   * and CALIB_PROGRESS_INTERVAL_MS set the progress display's timings (work-progress.ts). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * One `calib` subcommand: its flags (option-schema fields, flag.ts: also the source of its --help) and `run`, which returns the
 * exit code (default 0). Errors are thrown, not printed: the program turns them into one stderr line.
 * Adding a command = one file in commands/ exporting a `defineCommand(...)` + one line in commands/index.ts.
 */
export interface Command<F extends Flags = Flags> {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Usage line after `calib <name>` when the generated one is not precise (e.g. one of two flags). */
  readonly usage?: string;
  /** Paragraph(s) for `calib <name> --help`. */
  readonly description?: string;
  readonly examples?: readonly string[];
  readonly flags: F;
  /**
   * Flag(s) that leading positional arguments fill, in order (`calib loss mbls …` ≡ `calib loss --name mbls …`;
   * `calib suite run demo` ≡ `calib suite --action run --target demo`).
   */
  readonly positional?: string | readonly string[];
  run(flags: ParsedFlags<F>, io: CliIO): Promise<number | void>;
}

/** Identity function that infers the literal flag specs, so `run` receives precisely typed flags. */
export function defineCommand<const F extends Flags>(command: Command<F>): Command<F> {
  return command;
}
