import { main } from '../../src/cli/program.js';
import type { Command } from '../../src/cli/command.js';

/** Run `calib` in-process with captured output. */
export async function run(
  argv: string[],
  options: { env?: Record<string, string>; commands?: readonly Command[] } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: options.env ?? {},
  };
  const code = options.commands ? await main(argv, io, options.commands) : await main(argv, io);
  return { code, stdout, stderr };
}
