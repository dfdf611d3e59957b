/**
 * The kind Cluster definition a lab runs on outside the simulator: the lab's own `cluster:` text (or
 * the simulator's default cluster) without our `packetpath:` block, with the subnets the simulator
 * used written out (kind's own default Service subnet is a /16, kubeadm's a /12) and kind's kindnet
 * turned off when the lab's CNI is another one (flannel, Calico, Cilium are installed separately on
 * kind); a kindnet lab keeps kind's own.
 */
import { parse, stringify } from 'yaml';
import { createCluster, parseClusterConfig, type ClusterConfig } from '../../../engine/index.ts';
import type { Lab } from '../../../grader/lab-schema.ts';
import type { Locale } from '../../../grader/index.ts';

export class ExportError extends Error {}

/** How the CNI a lab simulates is installed on kind; README.md repeats it. */
export const CNI_INSTALL: Readonly<Record<ClusterConfig['cni'], Readonly<Record<Locale, string>>>> = {
  calico: {
    en: "Install Calico as Calico's documentation says for a kind cluster (the Tigera operator), and wait until the calico-system pods are Ready.",
    'pt-BR':
      'Instale o Calico como a documentação do Calico indica para um cluster kind (o operador Tigera) e espere os pods de calico-system ficarem Ready.',
  },
  flannel: {
    en: 'kubectl apply -f https://github.com/flannel-io/flannel/releases/latest/download/kube-flannel.yml, then wait until the kube-flannel pods are Ready.',
    'pt-BR':
      'kubectl apply -f https://github.com/flannel-io/flannel/releases/latest/download/kube-flannel.yml, e espere os pods de kube-flannel ficarem Ready.',
  },
  cilium: {
    en: 'cilium install (the cilium CLI); with kube-proxy off, add --set kubeProxyReplacement=true.',
    'pt-BR': 'cilium install (a CLI do cilium); sem kube-proxy, acrescente --set kubeProxyReplacement=true.',
  },
  kindnet: {
    en: 'Nothing to install: kindnet is the CNI kind itself deploys; wait until the kindnet pods in kube-system are Ready.',
    'pt-BR':
      'Nada a instalar: o kindnet é o CNI que o próprio kind implanta; espere os pods kindnet de kube-system ficarem Ready.',
  },
};

export interface KindExport {
  readonly yaml: string;
  readonly config: ClusterConfig;
}

export function kindConfigFor(lab: Lab): KindExport {
  // The default cluster's definition is what a cluster created without one runs on.
  const config = lab.cluster
    ? parseClusterConfig(lab.cluster)
    : createCluster(undefined, { seed: lab.seed }).config;
  if (config.distribution === 'k3s')
    throw new ExportError(
      `lab ${lab.id} simulates k3s (its bundled Traefik, ServiceLB and flannel): kind cannot run it. ` +
        'Grade a k3s or k3d cluster with packetpath grade --kubeconfig instead.',
    );
  const doc = (lab.cluster ? parse(lab.cluster) : {}) as Record<string, unknown>;
  delete doc.packetpath;
  const networking = (doc.networking ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    ...doc,
    nodes:
      doc.nodes ??
      config.nodes.map((n) => ({
        role: n.role,
        ...(Object.keys(n.labels).length ? { labels: n.labels } : {}),
      })),
    networking: {
      ...networking,
      ...(config.cni === 'kindnet' ? {} : { disableDefaultCNI: true }),
      podSubnet: config.podSubnet,
      serviceSubnet: config.serviceSubnet,
      ...(config.kubeProxyMode !== 'iptables' ? { kubeProxyMode: config.kubeProxyMode } : {}),
    },
  };
  const cniLine =
    config.cni === 'kindnet'
      ? `# Lab ${lab.id}. kind's own kindnet is the lab's CNI: run ./setup.sh once its pods are Ready.\n`
      : `# Lab ${lab.id}. kindnet is off: install ${config.cni} before ./setup.sh (README.md says how).\n`;
  const header = `# kind create cluster --config kind.yaml\n` + cniLine;
  return { yaml: header + stringify(out), config };
}
