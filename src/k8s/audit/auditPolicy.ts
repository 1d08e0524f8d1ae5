// The audit policy (audit.k8s.io/v1 Policy) that records what checking a recorded run against a
// model needs (issue 48, part 4): the writes to the model's kinds and the GETs of them at
// RequestResponse level (a write's body and answer are what is compared; a GET's answer shows an
// object the log had not), their status subresource too, and nothing else (lists and watches
// are large and not followed). A model has kinds, not API groups: the built-in kinds' groups are
// known here, a custom resource's is given (`--group Kind=group`).
import { resourceOfKind } from './requestJson.ts';

/** The API group of the built-in kinds a controller's model is likely to hold ('' is the core group). */
const BUILT_IN: Readonly<Record<string, string>> = {
  Pod: '',
  ConfigMap: '',
  Secret: '',
  Service: '',
  ServiceAccount: '',
  Namespace: '',
  Node: '',
  PersistentVolumeClaim: '',
  PersistentVolume: '',
  Event: '',
  Deployment: 'apps',
  ReplicaSet: 'apps',
  StatefulSet: 'apps',
  DaemonSet: 'apps',
  Job: 'batch',
  CronJob: 'batch',
  Lease: 'coordination.k8s.io',
  PodDisruptionBudget: 'policy',
  Role: 'rbac.authorization.k8s.io',
  RoleBinding: 'rbac.authorization.k8s.io',
  ClusterRole: 'rbac.authorization.k8s.io',
  ClusterRoleBinding: 'rbac.authorization.k8s.io',
  CustomResourceDefinition: 'apiextensions.k8s.io',
};

/** The kinds whose group is neither built in nor given. */
export function kindsWithoutGroup(kinds: readonly string[], groups: ReadonlyMap<string, string>): string[] {
  return kinds.filter((k) => !groups.has(k) && !(k in BUILT_IN));
}

/** The policy, as YAML with a comment that says what it is for. */
export function auditPolicy(kinds: readonly string[], groups: ReadonlyMap<string, string>, what: string): string {
  const byGroup = new Map<string, string[]>();
  for (const kind of kinds) {
    const group = groups.get(kind) ?? BUILT_IN[kind];
    if (group === undefined) throw new Error(`no API group for ${kind}`);
    const resource = resourceOfKind(kind);
    byGroup.set(group, [...(byGroup.get(group) ?? []), resource, `${resource}/status`]);
  }
  const resources = [...byGroup]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, rs]) => `      - group: ${JSON.stringify(group)}\n        resources: [${rs.map((r) => JSON.stringify(r)).join(', ')}]`)
    .join('\n');
  return `# What ${what} needs recorded to check a run against it (modelcheck conform <model> --audit
# SERVER=audit.log): the writes to its kinds (${kinds.join(', ')}) and the GETs of them, with their
# bodies and answers; nothing else. Give it to the API server with --audit-policy-file (kind:
# kubeadmConfigPatches, envtest: ControlPlane's APIServer flags). Resource names are the kinds'
# lower-case plurals: check them against \`kubectl api-resources\`.
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
  - level: RequestResponse
    verbs: ["get", "create", "update", "patch", "delete"]
    resources:
${resources}
  - level: None
`;
}
