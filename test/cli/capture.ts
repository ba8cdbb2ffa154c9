import { main } from '../../src/cli/program.js';
import type { Command } from '../../src/cli/command.js';

/** Run `calib` in-process with captured output. */
export async function run(argv: string[], options: { env?: Record<string, string>; commands?: readonly Command[] } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
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

/**
 * `stderr` without the progress display of long work (src/cli/work-progress.ts): a loaded machine can make even a
 * small bootstrap or fit pass the 2 s after which progress lines appear, so tests that expect no other stderr
 * output compare this instead.
 */
export function withoutProgress(stderr: string): string {
  return stderr
    .replace(/\r[^\r\n]*?\u001b\[K/g, '')
    .split(/(?<=\n)/)
    .filter((line) => !/^calib: [\w ,-]+: [\d,/]+(%| \(\d+%)[^\n]* s elapsed[^\n]*\n$/.test(line))
    .join('');
}
