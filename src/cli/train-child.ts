#!/usr/bin/env node
/**
 * Entry point of a suite's training child process: `node train-child.js <calib train arguments>` runs exactly
 * `calib train …` (same flags, output and exit codes), and exits as soon as its parent process is gone — a suite
 * runner or queue worker killed with SIGKILL leaves no orphan still training (its last checkpoint stays, and the
 * run resumes from it). SIGINT stops after the current update, as with `calib train`.
 */
import { main } from './program.js';

const parent = process.ppid;
const watchdog = setInterval(() => {
  if (process.ppid !== parent) process.exit(137);
}, 500);
watchdog.unref();

const code = await main(['train', ...process.argv.slice(2)], { stdout: process.stdout, stderr: process.stderr, env: process.env });
process.exitCode = code;
