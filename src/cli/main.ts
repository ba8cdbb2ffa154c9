#!/usr/bin/env node
/** The `calib` executable (package.json "bin"): runs `main` on the process's arguments and sets the exit code. */
import { main } from './program.js';

// A reader that stops early (`calib suite status DIR | head`) closes the pipe: end quietly, as a Unix filter does on
// SIGPIPE, instead of an unhandled EPIPE with a stack trace. Whatever the command was writing is atomic and resumable.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
