/** Which command paths exist and which function runs each. */
import type { KubectlContext } from '../context.ts';
import { HELP_TEXTS } from '../help-texts.ts';
import { runGet } from './get.ts';
import { runDescribe } from './describe.ts';
import { runApply } from './apply.ts';
import {
  runCreate,
  runCreateConfigMap,
  runCreateDeployment,
  runCreateNamespace,
  runCreateSecretGeneric,
  runCreateService,
  runCreateServiceAccount,
} from './create.ts';
import { runAttach } from './attach.ts';
import { runDelete } from './delete.ts';
import { runRun } from './run.ts';
import { runExec } from './exec.ts';
import { runCp } from './cp.ts';
import { runLogs } from './logs.ts';
import { runScale } from './scale.ts';
import { runAnnotate, runLabel } from './label.ts';
import { runExpose } from './expose.ts';
import { runRolloutHistory, runRolloutRestart, runRolloutStatus, runRolloutUndo } from './rollout.ts';
import { runPortForward } from './port-forward.ts';
import { runExplain } from './explain.ts';
import { runApiResources, runApiVersions } from './api-resources.ts';
import {
  runAuthCanI,
  runClusterInfo,
  runConfigCurrentContext,
  runConfigGetContexts,
  runConfigView,
  runCordon,
  runTop,
  runVersion,
} from './info.ts';
import { runWait } from './wait.ts';
import { runDebug } from './debug.ts';
import { runPatch } from './patch.ts';
import {
  runSetEnv,
  runSetImage,
  runSetResources,
  runSetSelector,
  runSetServiceAccount,
  runSetSubject,
} from './set.ts';
import { runEdit } from './edit.ts';
import { runReplace } from './replace.ts';

export type CommandRun = (ctx: KubectlContext) => number;

export const COMMANDS: Readonly<Record<string, CommandRun>> = {
  get: runGet,
  describe: runDescribe,
  apply: runApply,
  create: runCreate,
  'create deployment': runCreateDeployment,
  'create service clusterip': (ctx) => runCreateService(ctx, 'ClusterIP'),
  'create service nodeport': (ctx) => runCreateService(ctx, 'NodePort'),
  'create service loadbalancer': (ctx) => runCreateService(ctx, 'LoadBalancer'),
  'create service externalname': (ctx) => runCreateService(ctx, 'ExternalName'),
  'create configmap': runCreateConfigMap,
  'create namespace': runCreateNamespace,
  'create secret generic': runCreateSecretGeneric,
  'create serviceaccount': runCreateServiceAccount,
  delete: runDelete,
  run: runRun,
  exec: runExec,
  cp: runCp,
  attach: runAttach,
  logs: runLogs,
  scale: runScale,
  label: runLabel,
  annotate: runAnnotate,
  expose: runExpose,
  'rollout restart': runRolloutRestart,
  'rollout status': runRolloutStatus,
  'rollout history': runRolloutHistory,
  'rollout undo': runRolloutUndo,
  'port-forward': runPortForward,
  explain: runExplain,
  'api-resources': runApiResources,
  'api-versions': runApiVersions,
  version: runVersion,
  'cluster-info': runClusterInfo,
  'config current-context': runConfigCurrentContext,
  'config get-contexts': runConfigGetContexts,
  'config view': runConfigView,
  wait: runWait,
  'top pod': (ctx) => runTop(ctx, 'pod'),
  'top node': (ctx) => runTop(ctx, 'node'),
  debug: runDebug,
  patch: runPatch,
  'set image': runSetImage,
  'set env': runSetEnv,
  'set selector': runSetSelector,
  'set resources': runSetResources,
  'set serviceaccount': runSetServiceAccount,
  'set subject': runSetSubject,
  edit: runEdit,
  replace: runReplace,
  'auth can-i': runAuthCanI,
  cordon: (ctx) => runCordon(ctx, true),
  uncordon: (ctx) => runCordon(ctx, false),
  options: (ctx) => {
    ctx.out(HELP_TEXTS['options'] ?? '');
    return 0;
  },
};

/** Commands whose words may be followed by a subcommand word. */
export const PARENTS: Readonly<Record<string, readonly string[]>> = {
  create: [
    'configmap',
    'deployment',
    'ingress',
    'job',
    'namespace',
    'secret',
    'service',
    'serviceaccount',
    'clusterrole',
    'clusterrolebinding',
    'cronjob',
    'poddisruptionbudget',
    'priorityclass',
    'quota',
    'role',
    'rolebinding',
    'token',
  ],
  'create service': ['clusterip', 'externalname', 'loadbalancer', 'nodeport'],
  'create secret': ['docker-registry', 'generic', 'tls'],
  rollout: ['history', 'pause', 'restart', 'resume', 'status', 'undo'],
  config: [
    'current-context',
    'delete-cluster',
    'delete-context',
    'delete-user',
    'get-clusters',
    'get-contexts',
    'get-users',
    'rename-context',
    'set',
    'set-cluster',
    'set-context',
    'set-credentials',
    'unset',
    'use-context',
    'view',
  ],
  top: ['node', 'pod'],
  auth: ['can-i', 'reconcile', 'whoami'],
  'cluster-info': ['dump'],
  set: ['env', 'image', 'resources', 'selector', 'serviceaccount', 'subject'],
};

/** cobra Aliases of subcommands (`kubectl create ns`, `kubectl top pods`). */
export const ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  create: {
    cm: 'configmap',
    deploy: 'deployment',
    ns: 'namespace',
    svc: 'service',
    sa: 'serviceaccount',
    ing: 'ingress',
    cj: 'cronjob',
    pdb: 'poddisruptionbudget',
    pc: 'priorityclass',
    resourcequota: 'quota',
  },
  top: { nodes: 'node', no: 'node', pods: 'pod', po: 'pod' },
  set: { sa: 'serviceaccount' },
};

/** Top-level commands in kubectl's registration order (cobra's suggestion order), then `help`. */
export const TOP_LEVEL_ORDER: readonly string[] = [
  'create',
  'expose',
  'run',
  'set',
  'explain',
  'get',
  'edit',
  'delete',
  'rollout',
  'scale',
  'autoscale',
  'certificate',
  'cluster-info',
  'top',
  'cordon',
  'uncordon',
  'drain',
  'taint',
  'describe',
  'logs',
  'attach',
  'exec',
  'port-forward',
  'proxy',
  'cp',
  'auth',
  'debug',
  'events',
  'diff',
  'apply',
  'patch',
  'replace',
  'wait',
  'kustomize',
  'label',
  'annotate',
  'completion',
  'config',
  'plugin',
  'version',
  'api-versions',
  'api-resources',
  'options',
  'help',
];
