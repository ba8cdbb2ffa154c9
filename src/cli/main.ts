#!/usr/bin/env node
/** The `calib` executable (package.json "bin"): runs `main` on the process's arguments and sets the exit code. */
import { main } from './program.js';

process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
