/**
 * `kubectl describe pod` and the pod template section of workload describers (pkg/describe
 * `describePod`, `describeContainers`, `DescribePodTemplate`, `describeVolumes`), field for field.
 */
import type { Event, Pod, core } from '../../api/objects.ts';
import { age } from '../printers/duration.ts';
import {
  controllerOf,
  PrefixWriter,
  rfc1123z,
  writeAnnotations,
  writeEvents,
  writeLabels,
} from './writer.ts';

type Container = core.Container;
type ContainerStatus = core.ContainerStatus;

function portList(ports: readonly core.ContainerPort[] | undefined, host: boolean): string {
  return (ports ?? [])
    .map((p) => {
      const s = `${host ? (p.hostPort ?? 0) : p.containerPort}/${p.protocol ?? 'TCP'}`;
      return p.name ? `${s} (${p.name})` : s;
    })
    .join(', ');
}

function describeState(w: PrefixWriter, title: string, state: core.ContainerState | undefined): void {
  if (state?.running) {
    w.write(2, `${title}:\tRunning\n`);
    w.write(3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state?.waiting) {
    w.write(2, `${title}:\tWaiting\n`);
    if (state.waiting.reason) w.write(3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(2, `${title}:\tTerminated\n`);
    if (t.reason) w.write(3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(3, `Message:\t${t.message}\n`);
    w.write(3, `Exit Code:\t${t.exitCode}\n`);
    if ((t.signal ?? 0) > 0) w.write(3, `Signal:\t${t.signal}\n`);
    w.write(3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else {
    w.write(2, `${title}:\tWaiting\n`);
  }
}

function describeResources(w: PrefixWriter, r: core.ResourceRequirements | undefined, level: number): void {
  const limits = Object.keys(r?.limits ?? {}).sort();
  const requests = Object.keys(r?.requests ?? {}).sort();
  if (limits.length > 0) w.write(level, 'Limits:\n');
  for (const k of limits) w.write(level + 1, `${k}:\t${String(r!.limits![k])}\n`);
  if (requests.length > 0) w.write(level, 'Requests:\n');
  for (const k of requests) w.write(level + 1, `${k}:\t${String(r!.requests![k])}\n`);
}

function describeProbe(p: core.Probe): string {
  const a = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s successThreshold=${p.successThreshold ?? 1} failureThreshold=${p.failureThreshold ?? 3}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${a}`;
  if (p.httpGet) {
    const scheme = (p.httpGet.scheme ?? 'HTTP').toLowerCase();
    return `http-get ${scheme}://${p.httpGet.host ?? ''}:${String(p.httpGet.port)}${p.httpGet.path ?? ''} ${a}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${String(p.tcpSocket.port)} ${a}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${a}`;
  return `unknown ${a}`;
}

function describeEnv(w: PrefixWriter, c: Container, pod: Pod | undefined): void {
  if ((c.envFrom ?? []).length > 0) {
    w.write(2, 'Environment Variables from:\n');
    for (const e of c.envFrom ?? []) {
      const from = e.configMapRef ? 'ConfigMap' : e.secretRef ? 'Secret' : '';
      const name = e.configMapRef?.name ?? e.secretRef?.name ?? '';
      const optional = Boolean(e.configMapRef?.optional ?? e.secretRef?.optional);
      w.write(
        3,
        e.prefix
          ? `${name}\t${from} with prefix '${e.prefix}'\tOptional: ${optional}\n`
          : `${name}\t${from}\tOptional: ${optional}\n`,
      );
    }
  }
  const env = c.env ?? [];
  w.write(2, `Environment:${env.length === 0 ? '\t<none>' : ''}\n`);
  for (const e of env) {
    if (!e.valueFrom) {
      (e.value ?? '').split('\n').forEach((s, i) => w.write(3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
      continue;
    }
    const vf = e.valueFrom;
    if (vf.fieldRef) {
      const path = vf.fieldRef.fieldPath;
      const resolved = pod ? fieldValue(pod, path) : '';
      w.write(3, `${e.name}:\t${resolved} (${vf.fieldRef.apiVersion ?? 'v1'}:${path})\n`);
    } else if (vf.resourceFieldRef) {
      w.write(3, `${e.name}:\t${''} (${vf.resourceFieldRef.resource})\n`);
    } else if (vf.secretKeyRef) {
      w.write(
        3,
        `${e.name}:\t<set to the key '${vf.secretKeyRef.key}' in secret '${vf.secretKeyRef.name ?? ''}'>\tOptional: ${Boolean(vf.secretKeyRef.optional)}\n`,
      );
    } else if (vf.configMapKeyRef) {
      w.write(
        3,
        `${e.name}:\t<set to the key '${vf.configMapKeyRef.key}' of config map '${vf.configMapKeyRef.name ?? ''}'>\tOptional: ${Boolean(vf.configMapKeyRef.optional)}\n`,
      );
    }
  }
}

function fieldValue(pod: Pod, path: string): string {
  switch (path) {
    case 'metadata.name':
      return pod.metadata.name;
    case 'metadata.namespace':
      return pod.metadata.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata.uid;
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.podIP':
      return pod.status?.podIP ?? '';
    case 'status.hostIP':
      return pod.status?.hostIP ?? '';
    default:
      return '';
  }
}

function describeMounts(w: PrefixWriter, c: Container): void {
  const mounts = [...(c.volumeMounts ?? [])].sort((a, b) =>
    a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0,
  );
  w.write(2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
  for (const m of mounts) {
    const flags = [m.readOnly ? 'ro' : 'rw', ...(m.subPath ? [`path="${m.subPath}"`] : [])];
    w.write(3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
  }
}

/** describeContainers: one block per container, with its status when there is one. */
export function describeContainers(
  w: PrefixWriter,
  label: string,
  containers: readonly Container[],
  statuses: readonly ContainerStatus[] | undefined,
  space: string,
  pod: Pod | undefined,
): void {
  w.write(0, `${space}${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
  const byName = new Map((statuses ?? []).map((s) => [s.name, s]));
  for (const c of containers) {
    const st = statuses ? byName.get(c.name) : undefined;
    w.write(1, `${space ? ' ' : ''}${c.name}:\n`);
    if (st) w.write(2, `Container ID:\t${st.containerID ?? ''}\n`);
    w.write(2, `Image:\t${c.image ?? ''}\n`);
    if (st) w.write(2, `Image ID:\t${st.imageID ?? ''}\n`);
    const ports = portList(c.ports, false);
    w.write(2, ports.includes(',') ? `Ports:\t${ports}\n` : `Port:\t${ports || '<none>'}\n`);
    const hostPorts = portList(c.ports, true);
    w.write(
      2,
      hostPorts.includes(',') ? `Host Ports:\t${hostPorts}\n` : `Host Port:\t${hostPorts || '<none>'}\n`,
    );
    if ((c.command ?? []).length > 0) {
      w.write(2, 'Command:\n');
      for (const s of c.command!) for (const part of s.split('\n')) w.write(3, `${part}\n`);
    }
    if ((c.args ?? []).length > 0) {
      w.write(2, 'Args:\n');
      for (const s of c.args!) for (const part of s.split('\n')) w.write(3, `${part}\n`);
    }
    if (st) {
      describeState(w, 'State', st.state);
      if (st.lastState?.terminated) describeState(w, 'Last State', st.lastState);
      w.write(2, `Ready:\t${st.ready ? 'True' : 'False'}\n`);
      w.write(2, `Restart Count:\t${st.restartCount ?? 0}\n`);
    }
    describeResources(w, c.resources, 2);
    if (c.livenessProbe) w.write(2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    describeEnv(w, c, pod);
    describeMounts(w, c);
  }
}

export function describeVolumes(
  w: PrefixWriter,
  volumes: readonly core.Volume[] | undefined,
  space: string,
): void {
  const list = volumes ?? [];
  if (list.length === 0) {
    w.write(0, `${space}Volumes:\t<none>\n`);
    return;
  }
  w.write(0, `${space}Volumes:\n`);
  for (const v of list) {
    w.write(1, `${space ? ' ' : ''}${v.name}:\n`);
    if (v.hostPath) {
      w.write(
        2,
        `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path}\n    HostPathType:\t${v.hostPath.type ?? '<none>'}\n`,
      );
    } else if (v.emptyDir) {
      w.write(
        2,
        `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${v.emptyDir.medium ?? ''}\n    SizeLimit:\t${v.emptyDir.sizeLimit ? String(v.emptyDir.sizeLimit) : '<unset>'}\n`,
      );
    } else if (v.secret) {
      w.write(
        2,
        `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName ?? ''}\n    Optional:\t${Boolean(v.secret.optional)}\n`,
      );
    } else if (v.configMap) {
      w.write(
        2,
        `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name ?? ''}\n    Optional:\t${Boolean(v.configMap.optional)}\n`,
      );
    } else if (v.projected) {
      w.write(2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of v.projected.sources ?? []) {
        if (s.secret)
          w.write(2, `SecretName:\t${s.secret.name ?? ''}\n    Optional:\t${Boolean(s.secret.optional)}\n`);
        else if (s.downwardAPI) w.write(2, 'DownwardAPI:\ttrue\n');
        else if (s.configMap)
          w.write(
            2,
            `ConfigMapName:\t${s.configMap.name ?? ''}\n    Optional:\t${Boolean(s.configMap.optional)}\n`,
          );
        else if (s.serviceAccountToken)
          w.write(2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3607}\n`);
      }
    } else if (v.persistentVolumeClaim) {
      w.write(
        2,
        `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${v.persistentVolumeClaim.claimName}\n    ReadOnly:\t${Boolean(v.persistentVolumeClaim.readOnly)}\n`,
      );
    } else {
      w.write(1, '<unknown>\n');
    }
  }
}

function writeTolerations(
  w: PrefixWriter,
  title: string,
  tolerations: readonly core.Toleration[] | undefined,
  initialIndent = '',
): void {
  w.write(0, `${initialIndent}${title}:\t`);
  const list = [...(tolerations ?? [])].sort((a, b) =>
    (a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0,
  );
  if (list.length === 0) {
    w.line('<none>');
    return;
  }
  list.forEach((t, i) => {
    if (i !== 0) w.write(0, `${initialIndent}\t`);
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds != null) s += ` for ${t.tolerationSeconds}s`;
    w.write(0, `${s}\n`);
  });
}

/** `qos.GetPodQOS`: BestEffort without any requests/limits, Guaranteed when limits = requests for cpu and memory everywhere. */
export function podQOS(pod: Pod): string {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length > 0 || Object.keys(lim).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = lim[r];
      const q = req[r] ?? l;
      if (l === undefined || String(q) !== String(l)) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

export function describePod(pod: Pod, events: readonly Event[] | undefined, now: number): string {
  const w = new PrefixWriter();
  const spec = pod.spec;
  const st = pod.status;
  w.write(0, `Name:\t${pod.metadata.name}\n`);
  w.write(0, `Namespace:\t${pod.metadata.namespace ?? ''}\n`);
  if (spec?.priority != null) w.write(0, `Priority:\t${spec.priority}\n`);
  if (spec?.priorityClassName) w.write(0, `Priority Class Name:\t${spec.priorityClassName}\n`);
  if (spec?.runtimeClassName) w.write(0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
  if (spec?.serviceAccountName) w.write(0, `Service Account:\t${spec.serviceAccountName}\n`);
  w.write(0, spec?.nodeName ? `Node:\t${spec.nodeName}/${st?.hostIP ?? ''}\n` : 'Node:\t<none>\n');
  if (st?.startTime) w.write(0, `Start Time:\t${rfc1123z(st.startTime)}\n`);
  writeLabels(w, 'Labels', pod.metadata.labels);
  writeAnnotations(w, 'Annotations', pod.metadata.annotations);
  if (pod.metadata.deletionTimestamp && st?.phase !== 'Failed' && st?.phase !== 'Succeeded') {
    w.write(0, `Status:\tTerminating (lasts ${age(pod.metadata.deletionTimestamp, now)})\n`);
    w.write(0, `Termination Grace Period:\t${pod.metadata.deletionGracePeriodSeconds ?? 0}s\n`);
  } else w.write(0, `Status:\t${st?.phase ?? ''}\n`);
  if (st?.reason) w.write(0, `Reason:\t${st.reason}\n`);
  if (st?.message) w.write(0, `Message:\t${st.message}\n`);
  w.write(0, `IP:\t${st?.podIP ?? ''}\n`);
  if ((st?.podIPs ?? []).length === 0) w.write(0, 'IPs:\t<none>\n');
  else {
    w.write(0, 'IPs:\n');
    for (const ip of st!.podIPs!) w.write(1, `IP:\t${ip.ip}\n`);
  }
  const controller = controllerOf(pod);
  if (controller) w.write(0, `Controlled By:\t${controller}\n`);
  if (st?.nominatedNodeName) w.write(0, `NominatedNodeName:\t${st.nominatedNodeName}\n`);
  if ((spec?.initContainers ?? []).length > 0)
    describeContainers(w, 'Init Containers', spec!.initContainers!, st?.initContainerStatuses ?? [], '', pod);
  describeContainers(w, 'Containers', spec?.containers ?? [], st?.containerStatuses ?? [], '', pod);
  if ((spec?.readinessGates ?? []).length > 0) {
    w.write(0, 'Readiness Gates:\n  Type\tStatus\n');
    for (const g of spec!.readinessGates!) {
      const c = st?.conditions?.find((x) => x.type === g.conditionType);
      w.write(1, `${g.conditionType} \t${c ? c.status : '<none>'} \n`);
    }
  }
  if ((st?.conditions ?? []).length > 0) {
    w.write(0, 'Conditions:\n  Type\tStatus\n');
    for (const c of st!.conditions!) w.write(1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(w, spec?.volumes, '');
  w.write(0, `QoS Class:\t${podQOS(pod)}\n`);
  writeLabels(w, 'Node-Selectors', spec?.nodeSelector);
  writeTolerations(w, 'Tolerations', spec?.tolerations);
  writeEvents(w, events, now);
  return w.toString();
}

/** DescribePodTemplate (Deployments, ReplicaSets, DaemonSets). */
export function describePodTemplate(w: PrefixWriter, template: core.PodTemplateSpec | undefined): void {
  w.write(0, 'Pod Template:\n');
  if (!template) {
    w.write(1, '<unset>');
    return;
  }
  writeLabels(w, '  Labels', template.metadata?.labels);
  if (Object.keys(template.metadata?.annotations ?? {}).length > 0)
    writeAnnotations(w, '  Annotations', template.metadata?.annotations);
  if (template.spec?.serviceAccountName)
    w.write(1, `Service Account:\t${template.spec.serviceAccountName}\n`);
  if ((template.spec?.initContainers ?? []).length > 0)
    describeContainers(w, 'Init Containers', template.spec!.initContainers!, undefined, '  ', undefined);
  describeContainers(w, 'Containers', template.spec?.containers ?? [], undefined, '  ', undefined);
  describeVolumes(w, template.spec?.volumes, '  ');
  if (template.spec?.priorityClassName)
    w.write(1, `Priority Class Name:\t${template.spec.priorityClassName}\n`);
  writeLabels(w, '  Node-Selectors', template.spec?.nodeSelector);
  writeTolerations(w, 'Tolerations', template.spec?.tolerations, '  ');
}
