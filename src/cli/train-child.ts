#!/usr/bin/env node
/**
 * Entry point of a suite's training child process: `node train-child.js <calib train arguments>` runs exactly
 * `calib train …` (same flags, output and exit codes), and exits as soon as its parent process is gone — a suite
 * runner or queue worker killed with SIGKILL leaves no orphan still training (its last checkpoint stays, and the
 * run resumes from it). SIGINT stops after the current update, as with `calib train`.
 *
 * The watchdog runs on its own worker thread, so it fires within half a second even while the main thread is busy
 * in a long synchronous step (graph compilation, a data-set decode); it ends the whole process with SIGKILL, which
 * leaves nothing half-written (every write of a run is atomic) and a stale lock the next `--resume` takes over.
 */
import { Worker } from 'node:worker_threads';
import { main } from './program.js';

const WATCHDOG = `
const parent = ${process.ppid};
setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL'); }, 250);
`;
new Worker(WATCHDOG, { eval: true }).unref();

const code = await main(['train', ...process.argv.slice(2)], { stdout: process.stdout, stderr: process.stderr, env: process.env });
process.exitCode = code;
