/**
 * The files a CoreDNS container reads besides its flags: the ConfigMaps its Deployment mounts, key by key
 * (a volume's `items` pick and rename keys; an `optional` ConfigMap that does not exist mounts an empty
 * directory). kubeadm mounts `coredns` at /etc/coredns; k3s adds `coredns-custom` at /etc/coredns/custom,
 * which its Corefile imports (`*.override` inside the server block, `*.server` as whole blocks).
 */
import type { DataplaneHost } from '../network/view.ts';
import type { CorefileFiles } from './caddyfile.ts';

/** path → content of every mounted file. */
export function corednsFileMap(cluster: DataplaneHost): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  const spec = cluster.store.get('deployments.apps', 'kube-system', 'coredns')?.spec?.template.spec;
  const container = spec?.containers.find((c) => c.name === 'coredns');
  for (const m of container?.volumeMounts ?? []) {
    const cm = spec?.volumes?.find((v) => v.name === m.name)?.configMap;
    if (!cm?.name) continue;
    const data = cluster.store.get('configmaps', 'kube-system', cm.name)?.data ?? {};
    const dir = m.mountPath.replace(/\/+$/, '');
    const items = cm.items ?? Object.keys(data).map((key) => ({ key, path: key }));
    for (const it of items) {
      const v = data[it.key];
      if (v !== undefined) out.set(`${dir}/${it.path}`, v);
    }
  }
  return out;
}

export function corefileFiles(map: ReadonlyMap<string, string>): CorefileFiles {
  return {
    list: (dir) => {
      const prefix = `${dir.replace(/\/+$/, '')}/`;
      return [...map.keys()]
        .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
        .map((p) => p.slice(prefix.length));
    },
    read: (path) => map.get(path),
  };
}
