/**
 * The check kinds a lab.yaml may use. Data first: each kind says *what* must hold, the grader decides
 * *how* to observe it in the simulated cluster. A TypeScript predicate (`type: predicate`) is the escape
 * hatch for rules data cannot say; the registry lives in `src/grader/predicates/`.
 */
import { z } from 'zod';
import { Localized, slug } from './localized.ts';
import { parseProbeTarget } from './probe-target.ts';

/** Text that must compile as a JavaScript regular expression (no flags; write `(?i)`-free patterns). */
export const regex = z
  .string()
  .min(1)
  .refine((s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  }, 'not a valid regular expression')
  .describe(
    'A JavaScript regular expression, without slashes or flags. Unanchored unless you write ^ and $.',
  );

const resourceType = z
  .string()
  .min(1)
  .describe('A resource type as kubectl takes it: pods, po, svc, deployments.apps, networkpolicies…');

const namespace = z
  .string()
  .min(1)
  .describe('The namespace; "default" when left out (ignored for cluster-scoped resources).');

const labelSelector = z.string().min(1).describe('A label selector in kubectl -l syntax: app=web,tier!=db.');

/** Which pod a traffic or DNS check starts from. */
export const PodRef = z
  .object({
    namespace: slug.default('default').describe('The namespace of the client pod.'),
    pod: z.string().min(1).optional().describe('The client pod by name.'),
    selector: labelSelector
      .optional()
      .describe('The client pod by label selector: the first matching pod by name.'),
  })
  .strict()
  .refine((p) => (p.pod === undefined) !== (p.selector === undefined), 'give exactly one of pod or selector')
  .describe('The pod the probe runs from.');
export type PodRef = z.infer<typeof PodRef>;

const checkBase = {
  id: slug.describe('A stable id, unique in the lab; grade reports refer to checks by it.'),
  title: Localized.describe('What the learner must achieve, shown in the checks panel.'),
  hidden: z
    .boolean()
    .default(false)
    .describe(
      'Evaluated like the others, but the learner only sees "a hidden traffic probe failed", so an over-broad fix (a policy that opens everything) does not pass.',
    ),
};

const ResourceCheck = z
  .object({
    ...checkBase,
    type: z.literal('resource'),
    resource: resourceType,
    namespace: namespace.optional(),
    name: z.string().min(1).optional().describe('One object by name.'),
    selector: labelSelector.optional().describe('The objects whose labels match.'),
    exists: z.boolean().default(true).describe('true: at least one object matches; false: none does.'),
    count: z
      .object({
        min: z.number().int().nonnegative().optional(),
        max: z.number().int().nonnegative().optional(),
      })
      .strict()
      .refine((c) => c.min !== undefined || c.max !== undefined, 'give min, max or both')
      .refine((c) => c.min === undefined || c.max === undefined || c.min <= c.max, 'min must not exceed max')
      .optional()
      .describe('How many objects must match; replaces exists.'),
  })
  .strict()
  .refine((c) => !(c.count && c.name), 'count needs a selector or nothing, not a name')
  .describe('A resource exists, is absent, or matches a count.');

const FieldCheck = z
  .object({
    ...checkBase,
    type: z.literal('field'),
    resource: resourceType,
    namespace: namespace.optional(),
    name: z.string().min(1),
    path: z.string().min(1).describe('A kubectl JSONPath, e.g. {.spec.type} or .spec.ports[0].port.'),
    equals: z
      .json()
      .optional()
      .describe('The value the path must yield (a single result, compared as JSON).'),
    matches: regex
      .optional()
      .describe('A regular expression the value, printed as kubectl -o jsonpath prints it, must match.'),
  })
  .strict()
  .refine((c) => c.equals !== undefined || c.matches !== undefined, 'give equals or matches')
  .describe('A field of one object equals a value or matches a pattern.');

const EndpointsCheck = z
  .object({
    ...checkBase,
    type: z.literal('endpoints'),
    namespace: namespace.default('default'),
    service: z.string().min(1),
    minReady: z.number().int().nonnegative().default(1).describe('At least this many ready endpoints.'),
    maxReady: z.number().int().nonnegative().optional().describe('At most this many ready endpoints.'),
    exactly: labelSelector
      .optional()
      .describe(
        "The ready endpoints are exactly the running pods this selector picks in the namespace, listed by the EndpointSlice controller (not a hand-written slice): the Service's selector compared as the set of pods it selects.",
      ),
  })
  .strict()
  .refine((c) => c.maxReady === undefined || c.minReady <= c.maxReady, 'minReady must not exceed maxReady')
  .describe("A Service's EndpointSlices list enough ready endpoints.");

const ReachabilityCheck = z
  .object({
    ...checkBase,
    type: z.literal('reachability'),
    from: PodRef,
    to: z
      .string()
      .min(1)
      .describe('A Service or host name, name:port, IP:port, or a URL (http://api.shop:8080/path).'),
    port: z.number().int().min(1).max(65535).optional().describe('The port, when `to` does not carry one.'),
    protocol: z.enum(['TCP', 'UDP']).default('TCP'),
    expect: z
      .enum(['allowed', 'blocked', 'refused'])
      .describe(
        'allowed: a connection is made; blocked: it times out (dropped); refused: a reset or ICMP unreachable.',
      ),
  })
  .strict()
  .superRefine((c, ctx) => {
    const t = parseProbeTarget(c.to, c.port, c.protocol);
    if ('error' in t) ctx.addIssue({ code: 'custom', path: ['to'], message: t.error });
  })
  .describe(
    "Traffic from a pod to a target is allowed, blocked or refused, as the engine's dataplane decides it.",
  );

const DnsCheck = z
  .object({
    ...checkBase,
    type: z.literal('dns'),
    from: PodRef,
    name: z
      .string()
      .min(1)
      .describe('The name the pod looks up, as a program would (search list and ndots apply).'),
    expect: z
      .object({
        resolves: z.boolean().default(true),
        answers: z.array(z.string().min(1)).min(1).optional().describe('Addresses the answer must contain.'),
        maxQueries: z
          .number()
          .int()
          .positive()
          .optional()
          .describe('At most this many queries reach the DNS server.'),
      })
      .strict(),
  })
  .strict()
  .refine(
    (c) => c.expect.resolves || c.expect.answers === undefined,
    'answers make no sense with resolves: false',
  )
  .describe('A DNS lookup from a pod resolves (or not), contains answers, and takes at most N queries.');

const OutputCheck = z
  .object({
    ...checkBase,
    type: z.literal('output'),
    command: z
      .string()
      .min(1)
      .describe(
        "A line run in a scratch copy of the learner's cluster: it changes neither their cluster nor their history.",
      ),
    contains: z.string().min(1).optional().describe('Text stdout must contain.'),
    matches: regex.optional().describe('A regular expression stdout must match; ^ and $ match at line ends.'),
    exitCode: z.number().int().min(0).max(255).optional(),
  })
  .strict()
  .refine(
    (c) => c.contains !== undefined || c.matches !== undefined || c.exitCode !== undefined,
    'give contains, matches or exitCode',
  )
  .describe("A command's output contains or matches a text, or it ends with an exit code.");

const HistoryCheck = z
  .object({
    ...checkBase,
    type: z.literal('history'),
    matches: regex.describe('A regular expression one of the learner commands must match.'),
    example: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A command that counts, as the learner would type it: messages show it instead of the pattern (the pattern must match it).',
      ),
  })
  .strict()
  .refine((c) => c.example === undefined || new RegExp(c.matches).test(c.example), {
    message: 'example: the pattern does not match it',
    path: ['example'],
  })
  .describe('The learner ran a command.');

const ConnectionsCheck = z
  .object({
    ...checkBase,
    type: z.literal('connections'),
    direction: z
      .enum(['ingress', 'egress'])
      .describe(
        'ingress: who the pods admit (each source judged as if its egress were open); egress: where the pods may send (each destination as if it admitted them).',
      ),
    pods: z
      .object({ namespace: slug, selector: labelSelector.optional() })
      .strict()
      .describe('The pods whose end is graded: a namespace and an optional selector.'),
    allowed: z
      .array(
        z
          .object({
            namespace: slug.optional().describe('Peers in this namespace; every namespace when left out.'),
            selector: labelSelector.optional().describe('Peers whose labels match; every pod when left out.'),
            ports: z
              .array(z.number().int().min(1).max(65535))
              .min(1)
              .optional()
              .describe('Destination ports (every port when left out).'),
            protocol: z.enum(['TCP', 'UDP']).optional(),
          })
          .strict(),
      )
      .describe('The intended peers: exactly these connections must be allowed, every other one denied.'),
  })
  .strict()
  .describe(
    'The whole set of connections NetworkPolicy allows at one end equals the intended set (every pod pair and listening port).',
  );

const WeightsCheck = z
  .object({
    ...checkBase,
    type: z.literal('weights'),
    resource: resourceType.default('httproutes.gateway.networking.k8s.io'),
    namespace: namespace.optional(),
    name: z.string().min(1),
    shares: z
      .record(z.string().min(1), z.number().nonnegative())
      .refine((s) => Object.values(s).some((w) => w > 0), 'give at least one share above 0')
      .describe('Backend name → its share; compared as proportions (90/10 and 9/1 are the same split).'),
  })
  .strict()
  .describe("A route's backendRefs split traffic in these proportions (an unset weight is 1).");

const LookedCheck = z
  .object({
    ...checkBase,
    type: z.literal('looked'),
    resources: z
      .array(resourceType)
      .min(1)
      .optional()
      .describe('The kinds looked at (any one counts): endpointslices, endpoints…'),
    namespace: namespace.optional().describe('Where the objects were looked at (`-n`, or `-A`).'),
    fields: z
      .array(z.enum(['spec.podCIDR']))
      .min(1)
      .optional()
      .describe("With `resources`: the output must have held these fields' values (nodes: spec.podCIDR)."),
    tables: z
      .array(z.enum(['iptables', 'nftables', 'ipvs', 'conntrack']))
      .min(1)
      .optional()
      .describe("Or a node's kernel tables printed by a tool that succeeded (any one counts)."),
    table: z
      .enum(['filter', 'nat', 'mangle', 'raw'])
      .optional()
      .describe('With `tables: [iptables]`: the iptables table that must have been printed.'),
    example: z.string().optional().describe('A command that would count, for the message.'),
  })
  .strict()
  .describe(
    "The learner looked at objects of a kind (`kubectl get`/`describe`, however spelled: flag order, comma lists, -o, pipes), or at a node's kernel tables (`tables`: iptables-save / -L / -S, nft list, ipvsadm -L, conntrack -L that succeeded on a node, by any route). Give `resources` or `tables`.",
  );

const QuizCheck = z
  .object({
    ...checkBase,
    type: z.literal('quiz'),
    question: Localized,
    choices: z
      .array(z.object({ id: slug, text: Localized }).strict())
      .min(2)
      .describe('The choices, in display order.'),
    answer: z.array(slug).min(1).describe('The ids of the correct choices.'),
    multiple: z
      .boolean()
      .default(false)
      .describe('true: the learner ticks every correct choice (checkboxes).'),
  })
  .strict()
  .superRefine((q, ctx) => {
    const ids = q.choices.map((c) => c.id);
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i)
        ctx.addIssue({ code: 'custom', path: ['choices', i, 'id'], message: `duplicate choice id "${id}"` });
    });
    q.answer.forEach((a, i) => {
      if (!ids.includes(a))
        ctx.addIssue({ code: 'custom', path: ['answer', i], message: `"${a}" is not one of the choices` });
    });
    if (!q.multiple && q.answer.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['answer'],
        message: 'a single-choice question has exactly one answer',
      });
    }
  })
  .describe('A single- or multiple-choice question.');

const PredicateCheck = z
  .object({
    ...checkBase,
    type: z.literal('predicate'),
    predicate: slug.describe('The name of a predicate registered in src/grader/predicates/index.ts.'),
    params: z
      .record(z.string(), z.json())
      .default({})
      .describe("The predicate's parameters; it validates them."),
  })
  .strict()
  .describe('A TypeScript predicate, only for rules data cannot express.');

export const Check = z.discriminatedUnion('type', [
  ResourceCheck,
  FieldCheck,
  EndpointsCheck,
  ReachabilityCheck,
  DnsCheck,
  OutputCheck,
  HistoryCheck,
  LookedCheck,
  WeightsCheck,
  ConnectionsCheck,
  QuizCheck,
  PredicateCheck,
]);
export type Check = z.infer<typeof Check>;
export type CheckType = Check['type'];
export type CheckOf<T extends CheckType> = Extract<Check, { type: T }>;
