/**
 * The kubectl lines the differential test runs: every kubectl line of each lab (its setup, its
 * solution, the commands its text and hints quote in backticks), every kubectl line of the chapters'
 * code blocks, plus a base scenario over the commands the chapters use most. Lines that need a terminal (debug, attach, port-forward, edit,
 * -it, -f -, follow/watch) or a shell pipeline are left out: they compare more than kubectl.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const LABS = join(import.meta.dirname, '../../../labs');

const EXCLUDED =
  /\s(debug|attach|port-forward|edit|cp|proxy)\s|\s-it?\b|\s-f -|\s(-w|--watch|-f|--follow)(\s|$)|[|<>;&$`]|\.\.\.|<[^>]*>|\bkubectl top\b/;

function strings(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** The kubectl lines a lab's lab.yaml holds, in order, without repeats. */
export function labLines(id: string): string[] {
  const lab = parse(readFileSync(join(LABS, id, 'lab.yaml'), 'utf8')) as unknown;
  const found: string[] = [];
  for (const s of strings(lab, [])) {
    if (/^kubectl\s/.test(s.trim()) && !s.includes('\n')) found.push(s.trim());
    for (const m of s.matchAll(/`(kubectl [^`]+)`/g)) found.push(m[1]!.trim());
  }
  return [...new Set(found)].filter((l) => !EXCLUDED.test(` ${l} `));
}

const CONTENT = join(import.meta.dirname, '../../../content');

function mdxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? mdxFiles(join(dir, e.name)) : e.name.endsWith('.mdx') ? [join(dir, e.name)] : [],
  );
}

/**
 * The kubectl lines of the chapters' code blocks (both locales), without repeats, a trailing
 * comment or a `$ ` prompt. A line that names another kubeconfig (`--kubeconfig ./sim.kubeconfig`,
 * the serve page's example) is left out: it is about that file, not the cluster.
 */
export function chapterLines(): string[] {
  const found: string[] = [];
  for (const file of mdxFiles(CONTENT).sort()) {
    for (const block of readFileSync(file, 'utf8').matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
      for (const raw of block[1]!.split('\n')) {
        const line = raw
          .trim()
          .replace(/^\$ /, '')
          .replace(/\s+#.*$/, '');
        if (/^kubectl\s/.test(line) && !line.endsWith('\\') && !/--kubeconfig/.test(line)) found.push(line);
      }
    }
  }
  return [...new Set(found)].filter((l) => !EXCLUDED.test(` ${l} `));
}

/** Labs without variants (a lab with variants has no single start state). */
export function simpleLabs(): string[] {
  return readdirSync(LABS).filter((id) => {
    const file = join(LABS, id, 'lab.yaml');
    return existsSync(file) && !/^variants:/m.test(readFileSync(file, 'utf8'));
  });
}

export const WEB_YAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports: [{containerPort: 80}]
`;

/** The base scenario, on a default cluster with web.yaml in the working directory. */
export const BASE_LINES = [
  'kubectl get pods -o wide',
  'kubectl get pods -A -o wide',
  'kubectl get nodes',
  'kubectl get nodes -o wide',
  'kubectl apply -f web.yaml',
  'kubectl get pods -o wide',
  'kubectl get deploy',
  'kubectl get rs -o wide',
  'kubectl apply -f web.yaml',
  'kubectl expose deployment web --port=80',
  'kubectl get svc',
  'kubectl get svc web -o wide',
  'kubectl get endpointslices',
  'kubectl get pods --show-labels',
  'kubectl get pods -l app=web',
  'kubectl get pods -l app=nope',
  'kubectl get pods --field-selector=status.phase=Running',
  'kubectl get pods --field-selector=spec.foo=bar',
  'kubectl scale deployment web --replicas=3',
  'kubectl label pods -l app=web tier=fe',
  'kubectl get pods -L tier',
  'kubectl get pod nope',
  'kubectl delete svc nope',
  'kubectl get all',
  'kubectl get all -A',
  'kubectl describe svc web',
  'kubectl describe deploy web',
  'kubectl describe node kind-worker',
  'kubectl get deploy web -o yaml',
  'kubectl get svc web -o json',
  'kubectl get pods -o name',
  "kubectl get svc web -o jsonpath='{.spec.clusterIP}'",
  'kubectl get pods -o jsonpath=\'{range .items[*]}{.metadata.name} {.status.podIP}{"\\n"}{end}\'',
  'kubectl get nodes -o custom-columns=NODE:.metadata.name,PODCIDR:.spec.podCIDR',
  'kubectl create namespace shop',
  'kubectl create namespace shop',
  'kubectl create deployment api -n shop --image=nginx --replicas=2',
  'kubectl -n shop get deploy,rs,pods',
  'kubectl create configmap cfg --from-literal=a=1',
  'kubectl get cm',
  'kubectl create service clusterip api -n shop --tcp=80:8080',
  'kubectl -n shop get svc api -o yaml',
  'kubectl run one --image=busybox --restart=Never -- sleep 3600',
  'kubectl get pods',
  `kubectl patch deploy web -p '{"spec":{"replicas":2}}'`,
  `kubectl patch deploy web --type=merge -p '{"metadata":{"labels":{"x":"y"}}}'`,
  `kubectl patch deploy web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":4}]'`,
  `kubectl patch deploy web --type=json -p '[{"op":"remove","path":"/spec/nope"}]'`,
  'kubectl annotate deploy web note=x',
  'kubectl label deploy web app=other',
  'kubectl label deploy web app=other --overwrite',
  'kubectl set image deployment/web nginx=nginx:1.28',
  'kubectl rollout history deployment/web',
  'kubectl rollout restart deployment/web',
  'kubectl get rs',
  'kubectl delete deploy web',
  'kubectl delete pod one --wait=false',
  'kubectl get pods',
  'kubectl get ns',
  'kubectl api-versions',
  'kubectl api-resources',
  'kubectl auth can-i get pods',
  'kubectl auth can-i create deployments -n kube-system',
  'kubectl get events -n shop',
  'kubectl delete namespace default',
  'kubectl get deploy -n shop api -o jsonpath={.spec.replicas}',
  'kubectl cluster-info',
];

/** Logs: the base scenario's cluster after BASE_LINES has made pods (kube-system's components log). */
export const LOG_LINES = [
  'kubectl -n kube-system logs etcd-kind-control-plane --tail=3',
  'kubectl -n kube-system logs -l k8s-app=kube-proxy --tail=2',
  'kubectl -n kube-system logs deploy/coredns',
  'kubectl -n kube-system logs deploy/coredns --timestamps --tail=1',
  'kubectl logs nope',
  'kubectl -n kube-system logs etcd-kind-control-plane --previous',
  'kubectl -n kube-system logs etcd-kind-control-plane -c nope',
];

/** exec over WebSocket (remotecommand v5): output, stdin, exit codes, a command the image lacks. */
export const EXEC_LINES = [
  'kubectl -n kube-system exec etcd-kind-control-plane -- echo hi',
  'kubectl -n kube-system exec deploy/coredns -- ls /',
  'kubectl -n kube-system exec kube-proxy-cqsbb -- sh -c "exit 3"',
  'kubectl -n kube-system exec kube-proxy-cqsbb -- nope',
  'kubectl -n kube-system exec -i kube-proxy-cqsbb -- cat <<< hello',
  'kubectl exec nope -- ls',
  'kubectl exec svc/kubernetes -- ls',
  'kubectl logs svc/kubernetes',
];
