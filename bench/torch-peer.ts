/**
 * The PyTorch peer of the train-step benches: bench/torch_train_step.py as a persistent process answering
 * {"cmd":"run","steps":k} with k step times (wall and process CPU ms), so a bench can interleave rounds of its
 * own steps with PyTorch's in one run. `start` returns null when the Python ($PYTHON or /usr/bin/python3) has no torch.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export class TorchPeer {
  private readonly lines: AsyncIterableIterator<string>;
  constructor(private readonly proc: ChildProcessWithoutNullStreams) {
    this.lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  }
  static async start(model: string, batch: number, threads: number): Promise<{ peer: TorchPeer; info: { torch: string; params: number } } | null> {
    const python = process.env['PYTHON'] ?? '/usr/bin/python3'; // $PYTHON: a Python with torch elsewhere (bench/idle-machine.sh)
    if (!existsSync(python) || spawnSync(python, ['-c', 'import torch'], { stdio: 'ignore' }).status !== 0) return null;
    const script = fileURLToPath(new URL('../../bench/torch_train_step.py', import.meta.url));
    const proc = spawn(python, [script, model, String(batch), String(threads)], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, OMP_NUM_THREADS: String(threads) } });
    const peer = new TorchPeer(proc);
    const first = await peer.next();
    return { peer, info: first as { torch: string; params: number } };
  }
  async next(): Promise<Record<string, unknown>> {
    const r = await this.lines.next();
    if (r.done) throw new Error('torch peer exited');
    return JSON.parse(r.value) as Record<string, unknown>;
  }
  async run(steps: number): Promise<{ ms: number[]; cpuMs: number[] }> {
    this.proc.stdin.write(`${JSON.stringify({ cmd: 'run', steps })}\n`);
    const r = await this.next();
    return { ms: r['ms'] as number[], cpuMs: r['cpu_ms'] as number[] };
  }
  stop(): void {
    this.proc.stdin.write('{"cmd":"quit"}\n');
    this.proc.stdin.end();
  }
}
