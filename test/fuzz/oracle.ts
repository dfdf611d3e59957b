/**
 * What every answer to bad input must look like: text worded like the real tool, never a JavaScript
 * error leaking through. Shapes, not exact texts: the exact wordings are pinned by the tools' own tests.
 */
import { expect } from 'vitest';
import type { ExecResult } from '../../src/engine/index.ts';

/** First lines of stderr that real tools print. */
export const STDERR_SHAPES: readonly RegExp[] = [
  // `program: message`: bash:, sh: 0:, error:, cat:, grep:, curl: (6), nslookup:, packetpath: stopped…
  /^[\w.\/\[\]-]{1,60}: /,
  /^Error from server( \([A-Za-z]+\))?: /,
  /^The [\w.-]+ "[^"]*" is invalid:/,
  /^[WEI]\d{4} \d\d:\d\d:\d\d/,
  /^Warning: /,
  /^(pod|deployment|service) \S+ /,
  /^command terminated with exit code \d+$/,
  /^Unable to connect to the server/,
  /^If you don't see a command prompt/,
  // kubectl run/attach -it's warning before it attaches (kubectl ≥ 1.31).
  /^All commands and output from this session will be recorded in container logs/,
  // curl -v / wget / dig progress lines go to stderr too.
  /^[*<>{}] /,
  /^;; /,
  /^Connecting to /,
  /^ +% Total +% Received/,
  /^No resources found/,
  /^You must specify /,
  /^Found \d+ pods, using pod\//,
  /^--profile=legacy is deprecated /,
  /^error validating "/,
  // kubectl joins several errors of one apply/create without the `error: ` prefix (cmdutil.CheckErr).
  /^resource mapping not found for name: /,
  /^unable to decode "/,
  /^error when (retrieving current configuration of|creating|applying patch|replacing|deleting)/,
];

/** JavaScript failures dressed as output: an exception caught too late. */
const EXCEPTION_LEAKS: readonly RegExp[] = [
  /internal error/,
  /\b(TypeError|ReferenceError|RangeError|SyntaxError): /,
  /Cannot read propert/,
  /is not a function/,
  /is not iterable/,
  /Maximum call stack/,
  /\[object Object\]/,
];
/**
 * JavaScript values no real tool prints (the author-facing schema errors may say "received undefined").
 * One real line does say it: automaxprocs' `maxprocs: Leaving GOMAXPROCS=N: CPU quota undefined`,
 * which CoreDNS 1.12+ logs first.
 */
const LEAKS: readonly RegExp[] = [...EXCEPTION_LEAKS, /(?<!CPU quota )\bundefined\b/, /\bNaN\b/];

/** Asserts a result is a program's answer: strings, an integer exit code, shaped stderr, no leaks. */
export function expectToolLike(r: ExecResult, input: string): void {
  expect(typeof r.stdout).toBe('string');
  expect(typeof r.stderr).toBe('string');
  expect(Number.isInteger(r.exitCode)).toBe(true);
  for (const leak of LEAKS) {
    // A word the learner typed may come back in a message (`bash: undefined: command not found`).
    if (leak.test(input)) continue;
    expect(r.stderr, `stderr leaks ${leak}`).not.toMatch(leak);
    expect(r.stdout, `stdout leaks ${leak}`).not.toMatch(leak);
  }
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  // GNU xargs -t echoes each command line to stderr before running it (Debian's xargs: `xargs -t nat
  // </dev/null` prints `nat`, then `xargs: nat: No such file or directory`): the trace is not an error.
  const traced = /\bxargs\b(\s+-\S+)*\s+-\w*t/.test(input) ? 1 : 0;
  const line = lines[traced];
  // A Go utilerrors.Aggregate nested in kubectl's list of errors prints as `[first, second]`
  // (apply: the builder's mapping errors, then an object's own error).
  const first = line?.startsWith('[') ? line.slice(1) : line;
  if (first !== undefined && !STDERR_SHAPES.some((s) => s.test(first))) {
    expect.fail(
      `stderr is not worded like a tool: ${JSON.stringify(first)} (input ${JSON.stringify(input)})`,
    );
  }
}

/** An error message of a parser/validator (Corefile, lab.yaml, report): one non-empty line, no leak. */
export function expectOneLineError(message: string): void {
  expect(message.trim()).not.toBe('');
  for (const leak of EXCEPTION_LEAKS) expect(message).not.toMatch(leak);
}
