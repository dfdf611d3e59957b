#!/usr/bin/env node
// `packetpath`: Node 24 runs the TypeScript sources directly (type stripping), so the CLI needs no build.
import { main } from '../src/runtime/node-cli/main.ts';

const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  isTTY: Boolean(process.stdin.isTTY && process.stdout.isTTY),
});
process.exitCode = code;
