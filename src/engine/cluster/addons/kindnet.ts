/**
 * kind's default CNI manifest (kubernetes-sigs/kind `pkg/build/nodeimage/const_cni.go`,
 * `defaultCNIManifest`, at commit d2dcab96 "bump default kindnetd image to v20260820-69b56db7"),
 * kept as the YAML kind applies. kind fills `{{ .PodSubnet }}` when it installs it (`kind create
 * cluster`'s installcni action); the PodSecurityPolicy rule is kept as upstream still ships it.
 */
import { parseAllDocuments } from 'yaml';
import type { ClusterConfig } from '../../api/cluster-config.ts';
import type { Manifest } from '../../api/objects.ts';
import { isPlainObject } from '../../util/json.ts';
import { YAML_LIMITS } from '../../util/yaml-limits.ts';

export const KINDNETD_IMAGE = 'docker.io/kindest/kindnetd:v20260820-69b56db7';

const KINDNET_MANIFEST = `# kindnetd networking manifest
---
kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: kindnet
rules:
  - apiGroups:
    - policy
    resources:
    - podsecuritypolicies
    verbs:
    - use
    resourceNames:
    - kindnet
  - apiGroups:
      - ""
    resources:
      - nodes
      - pods
      - namespaces
    verbs:
      - list
      - watch
  - apiGroups:
     - "networking.k8s.io"
    resources:
      - networkpolicies
    verbs:
      - list
      - watch
---
kind: ClusterRoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata:
  name: kindnet
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: kindnet
subjects:
- kind: ServiceAccount
  name: kindnet
  namespace: kube-system
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: kindnet
  namespace: kube-system
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kindnet
  namespace: kube-system
  labels:
    tier: node
    app: kindnet
    k8s-app: kindnet
spec:
  selector:
    matchLabels:
      app: kindnet
  template:
    metadata:
      labels:
        tier: node
        app: kindnet
        k8s-app: kindnet
    spec:
      hostNetwork: true
      nodeSelector:
        kubernetes.io/os: linux
      tolerations:
      - operator: Exists
      priorityClassName: system-node-critical
      serviceAccountName: kindnet
      containers:
      - name: kindnet-cni
        image: {{ .Image }}
        env:
        - name: HOST_IP
          valueFrom:
            fieldRef:
              fieldPath: status.hostIP
        - name: POD_IP
          valueFrom:
            fieldRef:
              fieldPath: status.podIP
        - name: POD_SUBNET
          value: {{ .PodSubnet }}
        volumeMounts:
        - name: cni-cfg
          mountPath: /etc/cni/net.d
        - name: xtables-lock
          mountPath: /run/xtables.lock
          readOnly: false
        - name: lib-modules
          mountPath: /lib/modules
          readOnly: true
        - name: nri-plugin
          mountPath: /var/run/nri
        resources:
          requests:
            cpu: "100m"
            memory: "50Mi"
        securityContext:
          privileged: false
          capabilities:
            add: ["NET_RAW", "NET_ADMIN"]
      volumes:
      - name: cni-cfg
        hostPath:
          path: /etc/cni/net.d
      - name: xtables-lock
        hostPath:
          path: /run/xtables.lock
          type: FileOrCreate
      - name: lib-modules
        hostPath:
          path: /lib/modules
      - name: nri-plugin
        hostPath:
          path: /var/run/nri
---
`;

/**
 * The manifest's objects with kind's template filled in for this cluster. The simulated API server
 * serves no rbac.authorization.k8s.io (the other add-ons' manifests leave their RBAC out the same
 * way), so the ClusterRole and its binding are not applied.
 */
export function kindnetManifests(config: ClusterConfig): Manifest[] {
  const text = KINDNET_MANIFEST.replace('{{ .Image }}', KINDNETD_IMAGE).replace(
    '{{ .PodSubnet }}',
    config.podSubnet,
  );
  return parseAllDocuments(text)
    .map((d) => d.toJS(YAML_LIMITS) as unknown)
    .filter(isPlainObject)
    .filter((m) => m.apiVersion !== 'rbac.authorization.k8s.io/v1');
}
