// Re-captures the shell goldens from the real tools: every case line of
// src/engine/shell/testdata/bash-goldens.json (bash 5.2 + GNU coreutils, grep, sed) and
// src/engine/shell/utilities/testdata/sed-goldens.json (GNU sed 4.9) runs with `bash -c` in a fresh
// directory holding the file's `files`, with LANG=C.UTF-8, and its stdout, stderr and exit code are
// written back. bash's non-interactive `bash: line 1: ` prefix is normalised to the interactive
// `bash: ` the simulator's terminal prints, and the scratch directory (also $HOME) to the learner's
// /home/learner. The lines and files stay as they are: edit those, then run
//   node scripts/capture-shell-goldens.mjs [--check]
// (--check: write nothing, exit 1 and list the cases whose captured output differs from the file).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const GOLDENS = [
  'src/engine/shell/testdata/bash-goldens.json',
  'src/engine/shell/utilities/testdata/sed-goldens.json',
];
const check = process.argv.includes('--check');

function capture(line, files) {
  const dir = mkdtempSync(join(tmpdir(), 'packetpath-shell-golden-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const r = spawnSync('bash', ['-c', line], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 10_000,
      env: { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TZ: 'UTC' },
    });
    // The simulator's learner lives in /home/learner: the scratch directory stands for it.
    const home = (text) => text.split(dir).join('/home/learner');
    const stderr = home(r.stderr.replace(/^bash: line \d+: /gm, 'bash: '));
    return { stdout: home(r.stdout), stderr, exitCode: r.status ?? 128 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let differs = 0;
for (const file of GOLDENS) {
  const path = join(root, file);
  const golden = JSON.parse(readFileSync(path, 'utf8'));
  const cases = golden.cases.map((c) => {
    const got = capture(c.line, golden.files);
    if (got.stdout !== c.stdout || got.stderr !== c.stderr || got.exitCode !== c.exitCode) {
      differs++;
      if (check)
        console.log(`${file}: ${c.line}\n  file: ${JSON.stringify(c)}\n  real: ${JSON.stringify(got)}`);
    }
    return { ...c, ...got };
  });
  if (!check) writeFileSync(path, `${JSON.stringify({ ...golden, cases }, null, 2)}\n`);
}
console.log(`${differs} case(s) ${check ? 'differ from' : 'changed against'} the real tools`);
process.exit(check && differs > 0 ? 1 : 0);
