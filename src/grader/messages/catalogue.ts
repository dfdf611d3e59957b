/**
 * Every text the grader can show, in both languages, next to each other so a translator sees the pair.
 * The grader never holds prose elsewhere: checks return `{ key, params }` and `formatMessage` renders
 * them. A value may be a plural pair (`{ one, other }`, chosen by the `count` param with
 * Intl.PluralRules, as i18next does). Placeholders are `{{name}}`; both languages must use the same ones
 * (`messages.test.ts` fails otherwise). Names of Kubernetes objects, kinds and commands stay in English.
 */

export interface Plural {
  readonly one: string;
  readonly other: string;
}

export interface Entry {
  /** For translators: where the text appears and what the placeholders hold. */
  readonly description: string;
  readonly 'pt-BR': string | Plural;
  readonly en: string | Plural;
}

export const CATALOGUE = {
  // ── Shared ────────────────────────────────────────────────────────────────────────────────────────
  'check.list': {
    description: 'Joins several expectations or observations of one check. {{items}}: the parts.',
    'pt-BR': '{{items}}',
    en: '{{items}}',
  },
  'check.hidden.title': {
    description: 'Title shown instead of the real one for a hidden check.',
    'pt-BR': 'Sonda de tráfego oculta',
    en: 'Hidden traffic probe',
  },
  'check.hidden.expected': {
    description: 'Expectation shown for a hidden check.',
    'pt-BR': 'uma sonda de tráfego que o lab não mostra passa',
    en: 'a traffic probe the lab does not show passes',
  },
  'check.hidden.failed': {
    description: 'Observation shown for a hidden check that failed.',
    'pt-BR': 'uma sonda de tráfego oculta falhou',
    en: 'a hidden traffic probe failed',
  },
  'check.hidden.passed': {
    description: 'Observation shown for a hidden check that passed.',
    'pt-BR': 'a sonda de tráfego oculta passou',
    en: 'the hidden traffic probe passed',
  },
  'check.hidden.error': {
    description: 'Observation shown for a hidden check the grader could not evaluate.',
    'pt-BR': 'a sonda de tráfego oculta não pôde ser avaliada',
    en: 'the hidden traffic probe could not be evaluated',
  },
  'check.error.unavailable': {
    description: 'A check kind the simulator cannot evaluate yet. {{feature}}: what is missing (English).',
    'pt-BR': 'esta verificação ainda não pode ser avaliada: o simulador ainda não oferece {{feature}}',
    en: 'this check cannot be evaluated yet: the simulator does not offer {{feature}}',
  },
  'check.error.invalid': {
    description: 'The lab itself is wrong (an author error). {{detail}}: the problem, in English.',
    'pt-BR': 'a verificação do lab é inválida: {{detail}}',
    en: "the lab's check is invalid: {{detail}}",
  },
  'check.error.internal': {
    description: 'The check crashed. {{detail}}: the error, in English.',
    'pt-BR': 'a verificação não pôde ser executada: {{detail}}',
    en: 'the check could not run: {{detail}}',
  },
  'check.error.predicateUnknown': {
    description: 'A lab names a predicate that is not registered.',
    'pt-BR': 'nenhum predicado chamado {{name}} está registrado',
    en: 'no predicate named {{name}} is registered',
  },
  'scope.namespace': {
    description: 'Where objects are looked for: a namespace.',
    'pt-BR': 'no namespace {{namespace}}',
    en: 'in namespace {{namespace}}',
  },
  'scope.namespaceSelector': {
    description: 'Where objects are looked for: a namespace and a label selector.',
    'pt-BR': 'no namespace {{namespace}} com {{selector}}',
    en: 'in namespace {{namespace}} matching {{selector}}',
  },
  'scope.cluster': {
    description: 'Where objects are looked for: the whole cluster (cluster-scoped kinds).',
    'pt-BR': 'no cluster',
    en: 'in the cluster',
  },
  'scope.clusterSelector': {
    description: 'Where objects are looked for: cluster-scoped, with a label selector.',
    'pt-BR': 'no cluster com {{selector}}',
    en: 'in the cluster matching {{selector}}',
  },
  'object.notFound': {
    description:
      'An object the check needs does not exist. {{kind}}: Kubernetes kind; {{ref}}: namespace/name.',
    'pt-BR': '{{kind}} {{ref}} não existe',
    en: '{{kind}} {{ref}} does not exist',
  },

  // ── resource ──────────────────────────────────────────────────────────────────────────────────────
  'check.resource.expected.exists': {
    description: 'An object must exist.',
    'pt-BR': '{{kind}} {{ref}} existe',
    en: '{{kind}} {{ref}} exists',
  },
  'check.resource.expected.absent': {
    description: 'An object must not exist.',
    'pt-BR': '{{kind}} {{ref}} não existe',
    en: '{{kind}} {{ref}} does not exist',
  },
  'check.resource.expected.any': {
    description:
      'At least one object of a resource type exists in a scope. {{resource}}: plural resource name.',
    'pt-BR': '{{resource}}: pelo menos um {{scope}}',
    en: '{{resource}}: at least one {{scope}}',
  },
  'check.resource.expected.none': {
    description: 'No object of a resource type exists in a scope.',
    'pt-BR': '{{resource}}: nenhum {{scope}}',
    en: '{{resource}}: none {{scope}}',
  },
  'check.resource.expected.min': {
    description: 'At least {{min}} objects in a scope.',
    'pt-BR': '{{resource}}: pelo menos {{min}} {{scope}}',
    en: '{{resource}}: at least {{min}} {{scope}}',
  },
  'check.resource.expected.max': {
    description: 'At most {{max}} objects in a scope.',
    'pt-BR': '{{resource}}: no máximo {{max}} {{scope}}',
    en: '{{resource}}: at most {{max}} {{scope}}',
  },
  'check.resource.expected.range': {
    description: 'Between {{min}} and {{max}} objects in a scope.',
    'pt-BR': '{{resource}}: entre {{min}} e {{max}} {{scope}}',
    en: '{{resource}}: between {{min}} and {{max}} {{scope}}',
  },
  'check.resource.observed.exists': {
    description: 'The object exists.',
    'pt-BR': '{{kind}} {{ref}} existe',
    en: '{{kind}} {{ref}} exists',
  },
  'check.resource.observed.found': {
    description: 'How many objects matched, and their names. {{names}}: a list.',
    'pt-BR': { one: 'há {{count}}: {{names}}', other: 'há {{count}}: {{names}}' },
    en: { one: 'there is {{count}}: {{names}}', other: 'there are {{count}}: {{names}}' },
  },
  'check.resource.observed.none': {
    description: 'No object matched.',
    'pt-BR': 'não há nenhum',
    en: 'there are none',
  },
  'check.resource.unknownType': {
    description:
      'The resource type is unknown to the simulator (an author error, or a kind the simulator lacks).',
    'pt-BR': 'o tipo de recurso {{resource}} não existe no simulador',
    en: 'the simulator has no resource type {{resource}}',
  },

  // ── field ─────────────────────────────────────────────────────────────────────────────────────────
  'check.field.expected.equals': {
    description: 'A field must equal a value. {{path}}: JSONPath; {{value}}: JSON text.',
    'pt-BR': '{{kind}} {{ref}}: {{path}} é {{value}}',
    en: '{{path}} of {{kind}} {{ref}} is {{value}}',
  },
  'check.field.expected.matches': {
    description: 'A field must match a regular expression {{pattern}}.',
    'pt-BR': '{{kind}} {{ref}}: {{path}} corresponde a {{pattern}}',
    en: '{{path}} of {{kind}} {{ref}} matches {{pattern}}',
  },
  'check.field.observed.value': {
    description: 'The value found.',
    'pt-BR': 'o valor é {{value}}',
    en: 'it is {{value}}',
  },
  'check.field.observed.values': {
    description: 'The path yields several values.',
    'pt-BR': 'o caminho dá {{count}} valores: {{value}}',
    en: 'the path yields {{count}} values: {{value}}',
  },
  'check.field.observed.missing': {
    description: 'The field is not set on the object.',
    'pt-BR': 'o campo não está definido',
    en: 'the field is not set',
  },

  // ── endpoints ─────────────────────────────────────────────────────────────────────────────────────
  'check.endpoints.expected.min': {
    description: 'A Service has at least {{min}} ready endpoints. {{ref}}: namespace/name.',
    'pt-BR': {
      one: 'o Service {{ref}} tem pelo menos {{min}} endpoint pronto',
      other: 'o Service {{ref}} tem pelo menos {{min}} endpoints prontos',
    },
    en: {
      one: 'Service {{ref}} has at least {{min}} ready endpoint',
      other: 'Service {{ref}} has at least {{min}} ready endpoints',
    },
  },
  'check.endpoints.expected.range': {
    description: 'A Service has between {{min}} and {{max}} ready endpoints.',
    'pt-BR': 'o Service {{ref}} tem entre {{min}} e {{max}} endpoints prontos',
    en: 'Service {{ref}} has between {{min}} and {{max}} ready endpoints',
  },
  'check.endpoints.expected.max': {
    description: 'A Service has at most {{max}} ready endpoints.',
    'pt-BR': {
      one: 'o Service {{ref}} tem no máximo {{max}} endpoint pronto',
      other: 'o Service {{ref}} tem no máximo {{max}} endpoints prontos',
    },
    en: {
      one: 'Service {{ref}} has at most {{max}} ready endpoint',
      other: 'Service {{ref}} has at most {{max}} ready endpoints',
    },
  },
  'check.endpoints.expected.exactly': {
    description: "A Service's endpoints are exactly the pods a selector picks. {{pods}}: those pods.",
    'pt-BR': 'o Service {{ref}} manda tráfego exatamente para os pods que {{selector}} seleciona ({{pods}})',
    en: 'Service {{ref}} sends traffic to exactly the pods {{selector}} selects ({{pods}})',
  },
  'check.endpoints.observed.extra': {
    description:
      "Endpoints that are not among the intended pods. {{pods}}: pod names with IPs, or bare IPs; {{selector}}: the Service's selector.",
    'pt-BR': 'ele também manda para {{pods}}: o seletor {{selector}} pega pods demais',
    en: 'it also sends to {{pods}}: its selector {{selector}} picks too many pods',
  },
  'check.endpoints.observed.missing': {
    description: 'Intended pods that are not endpoints. {{pods}}: pod names.',
    'pt-BR': 'faltam {{pods}} nos endpoints',
    en: '{{pods}} missing from its endpoints',
  },
  'check.endpoints.observed.handWritten': {
    description:
      'An EndpointSlice for the Service that the EndpointSlice controller did not write. {{slices}}: names.',
    'pt-BR':
      'a EndpointSlice {{slices}} foi escrita à mão (não é do controlador de EndpointSlices): o Service precisa achar os pods pelo seletor',
    en: 'EndpointSlice {{slices}} is hand-written (not managed by the EndpointSlice controller): the Service must find its pods through its selector',
  },
  'check.endpoints.observed.ready': {
    description: 'How many ready endpoints there are. {{addresses}}: their IPs.',
    'pt-BR': { one: 'tem {{count}}: {{addresses}}', other: 'tem {{count}}: {{addresses}}' },
    en: { one: 'it has {{count}}: {{addresses}}', other: 'it has {{count}}: {{addresses}}' },
  },
  'check.endpoints.observed.none': {
    description: 'The Service has no ready endpoint (and none was wanted).',
    'pt-BR': 'não tem nenhum',
    en: 'it has none',
  },
  'check.endpoints.observed.because': {
    description: 'How many ready endpoints there are, and why not more. {{reason}}: a message.',
    'pt-BR': 'tem {{count}}: {{reason}}',
    en: 'it has {{count}}: {{reason}}',
  },
  'check.endpoints.reason.noSelector': {
    description: 'The Service has no selector, so no controller fills its EndpointSlices.',
    'pt-BR': 'o Service não tem seletor, então nenhum EndpointSlice é gerenciado para ele',
    en: 'the Service has no selector, so no EndpointSlice is managed for it',
  },
  'check.endpoints.reason.noPods': {
    description: "The Service's selector matches no pod in its namespace.",
    'pt-BR': 'o seletor {{selector}} não corresponde a nenhum pod',
    en: 'the selector {{selector}} matches no pod',
  },
  'check.endpoints.reason.podsElsewhere': {
    description: 'The selector matches pods, but only in other namespaces. {{namespaces}}: a list.',
    'pt-BR':
      'o seletor {{selector}} não corresponde a nenhum pod em {{namespace}} (corresponde a pods em {{namespaces}})',
    en: 'the selector {{selector}} matches no pod in {{namespace}} (it matches pods in {{namespaces}})',
  },
  'check.endpoints.reason.notReady': {
    description: '{{count}} pods match the selector but only {{ready}} are ready endpoints.',
    'pt-BR': {
      one: '{{count}} pod corresponde a {{selector}}, {{ready}} pronto',
      other: '{{count}} pods correspondem a {{selector}}, {{ready}} prontos',
    },
    en: {
      one: '{{count}} pod matches {{selector}}, {{ready}} ready',
      other: '{{count}} pods match {{selector}}, {{ready}} ready',
    },
  },

  // ── reachability ─────────────────────────────────────────────────────────────────────────────────
  'check.reach.expected.allowed': {
    description:
      'A connection must succeed. {{from}}: client pod (namespace/name or selector); {{target}}: host:port or URL.',
    'pt-BR': '{{from}} consegue se conectar a {{target}}',
    en: '{{from}} can connect to {{target}}',
  },
  'check.reach.expected.blocked': {
    description: 'Traffic must be dropped (the client times out).',
    'pt-BR': 'o tráfego de {{from}} para {{target}} é descartado (a conexão expira)',
    en: 'traffic from {{from}} to {{target}} is dropped (the connection times out)',
  },
  'check.reach.expected.refused': {
    description: 'The connection must be refused (a reset or ICMP unreachable).',
    'pt-BR': 'a conexão de {{from}} para {{target}} é recusada',
    en: 'a connection from {{from}} to {{target}} is refused',
  },
  'check.reach.observed.allowed': {
    description: 'The connection was made.',
    'pt-BR': 'a conexão foi estabelecida',
    en: 'the connection is made',
  },
  'check.reach.observed.blocked': {
    description: 'The traffic was dropped.',
    'pt-BR': 'a conexão expira: o tráfego é descartado',
    en: 'the connection times out: the traffic is dropped',
  },
  'check.reach.observed.refused': {
    description: 'The connection was refused.',
    'pt-BR': 'a conexão é recusada',
    en: 'the connection is refused',
  },
  'check.reach.observed.unresolved': {
    description: 'The target name does not resolve from the pod. {{host}}: the name.',
    'pt-BR': '{{host}} não resolve a partir do pod',
    en: '{{host}} does not resolve from the pod',
  },
  'client.noMatch': {
    description: 'No pod matches the selector a probe starts from.',
    'pt-BR': 'nenhum pod corresponde a {{selector}} no namespace {{namespace}}',
    en: 'no pod matches {{selector}} in namespace {{namespace}}',
  },
  'client.notRunning': {
    description: 'The pod a probe starts from is not running. {{phase}}: its phase.',
    'pt-BR': 'o pod {{ref}} não está em execução ({{phase}})',
    en: 'pod {{ref}} is not running ({{phase}})',
  },
  'hop.policyAllowed': {
    description:
      'A NetworkPolicy rule allowed the traffic. {{ref}}: namespace/name; {{rule}}: rule number (from 1); {{direction}}: Ingress or Egress.',
    'pt-BR': 'permitido pela regra {{rule}} da NetworkPolicy {{ref}} ({{direction}})',
    en: 'allowed by rule {{rule}} of NetworkPolicy {{ref}} ({{direction}})',
  },
  'hop.policyIsolation': {
    description: 'The pod is isolated by NetworkPolicies ({{policies}}: a list) and none allows the traffic.',
    'pt-BR':
      'o pod {{pod}} está isolado para {{direction}} por {{policies}} e nenhuma regra permite este tráfego',
    en: 'pod {{pod}} is isolated for {{direction}} by {{policies}} and no rule allows this traffic',
  },
  'hop.policyNotEnforced': {
    description:
      'The cluster does not enforce NetworkPolicies. {{enforcement}}: the CNI situation (English).',
    'pt-BR': 'as NetworkPolicies não são aplicadas neste cluster ({{enforcement}})',
    en: 'NetworkPolicies are not enforced in this cluster ({{enforcement}})',
  },
  'hop.policyNotIsolated': {
    description: 'No NetworkPolicy selects the pod for this direction, so everything is allowed.',
    'pt-BR': 'nenhuma NetworkPolicy isola o pod {{pod}} para {{direction}}',
    en: 'no NetworkPolicy isolates pod {{pod}} for {{direction}}',
  },
  'hop.netfilter': {
    description:
      'A netfilter rule decided. {{table}}/{{chain}}: where; {{verdict}}: DROP/REJECT; {{node}}: node name.',
    'pt-BR': 'regra {{verdict}} em {{table}}/{{chain}} no node {{node}}',
    en: '{{verdict}} rule in {{table}}/{{chain}} on node {{node}}',
  },
  'hop.noEndpoints': {
    description: 'kube-proxy rejects traffic to a Service with no endpoints.',
    'pt-BR': 'o Service {{ref}} não tem endpoints, e o kube-proxy rejeita',
    en: 'Service {{ref}} has no endpoints, so kube-proxy rejects',
  },
  'hop.service': {
    description:
      'kube-proxy sent the connection to an endpoint. {{mode}}: proxy mode; {{endpoint}}: ip:port.',
    'pt-BR': 'Service {{ref}} ({{mode}} no node {{node}}) → {{endpoint}}',
    en: 'Service {{ref}} ({{mode}} on node {{node}}) → {{endpoint}}',
  },
  'hop.noListener': {
    description: 'Nothing listens on the destination port. {{where}}: pod (namespace/name) or node.',
    'pt-BR': 'nada escuta em {{ip}}:{{port}} ({{where}})',
    en: 'nothing listens on {{ip}}:{{port}} ({{where}})',
  },
  'hop.noRoute': {
    description: 'No route to the destination.',
    'pt-BR': 'não há rota para {{ip}}',
    en: 'no route to {{ip}}',
  },
  'hop.delivered': {
    description: 'The packet reached a listener. {{where}}: pod (namespace/name) or node.',
    'pt-BR': 'entregue em {{where}} ({{ip}}:{{port}})',
    en: 'delivered to {{where}} ({{ip}}:{{port}})',
  },
  'hop.external': {
    description: 'The packet left the cluster to a simulated internet host.',
    'pt-BR': 'saiu do cluster para {{ip}}:{{port}}',
    en: 'left the cluster to {{ip}}:{{port}}',
  },
  'hop.mtu': {
    description: 'Data larger than the path MTU never arrives (MTU black hole).',
    'pt-BR': 'pacotes de {{bytes}} bytes não passam pelo caminho com MTU {{mtu}}',
    en: 'packets of {{bytes}} bytes do not fit the path MTU of {{mtu}}',
  },
  'hop.dnsQuery': {
    description: 'A DNS query decided (e.g. timed out). {{outcome}}: rcode or timeout/refused.',
    'pt-BR': 'consulta DNS de {{name}} a {{server}}: {{outcome}}',
    en: 'DNS query for {{name}} to {{server}}: {{outcome}}',
  },
  'hop.dnsResult': {
    description: 'The name did not resolve. {{error}}: the resolver error (English).',
    'pt-BR': '{{name}} não resolveu: {{error}}',
    en: '{{name}} did not resolve: {{error}}',
  },
  'hop.route': {
    description: 'A routing step. {{via}}: how (vxlan, bridge…); {{device}}: interface.',
    'pt-BR': 'rota no node {{node}} via {{via}} ({{device}})',
    en: 'route on node {{node}} via {{via}} ({{device}})',
  },
  'hop.other': {
    description: 'A hop the grader has no specific text for. {{kind}}: the hop kind (English identifier).',
    'pt-BR': 'etapa {{kind}}',
    en: '{{kind}} step',
  },
  'hop.decidedBy': {
    description: 'Prefix for the hop that decided a traffic verdict. {{hop}}: a hop message.',
    'pt-BR': 'decidido em: {{hop}}',
    en: 'decided at: {{hop}}',
  },

  // ── dns ───────────────────────────────────────────────────────────────────────────────────────────
  'check.dns.expected.resolves': {
    description: 'A name resolves from a pod. {{limit}}: empty, or a check.dns.limit message.',
    'pt-BR': '{{name}} resolve a partir de {{from}}{{limit}}',
    en: '{{name}} resolves from {{from}}{{limit}}',
  },
  'check.dns.expected.answers': {
    description: 'A name resolves, and the answer contains {{answers}}.',
    'pt-BR': '{{name}} resolve a partir de {{from}} com {{answers}} na resposta{{limit}}',
    en: '{{name}} resolves from {{from}} with {{answers}} in the answer{{limit}}',
  },
  'check.dns.expected.fails': {
    description: 'A name must not resolve from a pod.',
    'pt-BR': '{{name}} não resolve a partir de {{from}}{{limit}}',
    en: '{{name}} does not resolve from {{from}}{{limit}}',
  },
  'check.dns.limit': {
    description: 'Appended to a DNS expectation: a maximum number of queries.',
    'pt-BR': { one: ', com no máximo {{max}} consulta', other: ', com no máximo {{max}} consultas' },
    en: { one: ', in at most {{max}} query', other: ', in at most {{max}} queries' },
  },
  'check.dns.observed.resolved': {
    description: 'The lookup succeeded. {{answers}}: the addresses; {{count}}: the queries sent.',
    'pt-BR': {
      one: 'resolve para {{answers}} com {{count}} consulta',
      other: 'resolve para {{answers}} com {{count}} consultas',
    },
    en: {
      one: 'it resolves to {{answers}} in {{count}} query',
      other: 'it resolves to {{answers}} in {{count}} queries',
    },
  },
  'check.dns.observed.failed': {
    description: 'The lookup failed. {{error}}: the resolver error (English, as the C library words it).',
    'pt-BR': {
      one: 'não resolve ({{error}}) após {{count}} consulta',
      other: 'não resolve ({{error}}) após {{count}} consultas',
    },
    en: {
      one: 'it does not resolve ({{error}}) after {{count}} query',
      other: 'it does not resolve ({{error}}) after {{count}} queries',
    },
  },

  // ── output ────────────────────────────────────────────────────────────────────────────────────────
  'check.output.expected.contains': {
    description: "A command's output contains a text. {{command}}: the command line.",
    'pt-BR': 'a saída de {{command}} contém {{text}}',
    en: 'the output of {{command}} contains {{text}}',
  },
  'check.output.expected.matches': {
    description: "A command's output matches a regular expression.",
    'pt-BR': 'a saída de {{command}} corresponde a {{pattern}}',
    en: 'the output of {{command}} matches {{pattern}}',
  },
  'check.output.expected.exitCode': {
    description: 'A command ends with an exit code.',
    'pt-BR': '{{command}} termina com o código {{code}}',
    en: '{{command}} exits with code {{code}}',
  },
  'check.output.observed': {
    description: 'What the command printed (first lines) and its exit code.',
    'pt-BR': 'código de saída {{code}}; saída: {{excerpt}}',
    en: 'exit code {{code}}; output: {{excerpt}}',
  },
  'check.output.observed.empty': {
    description: 'The command printed nothing on stdout.',
    'pt-BR': 'código de saída {{code}}; nenhuma saída',
    en: 'exit code {{code}}; no output',
  },

  // ── history ───────────────────────────────────────────────────────────────────────────────────────
  'check.history.expected': {
    description: 'The learner must have run a command matching {{pattern}}.',
    'pt-BR': 'você executou um comando que corresponde a {{pattern}}',
    en: 'you ran a command matching {{pattern}}',
  },
  'check.history.expected.example': {
    description: 'The learner must have run a command of some kind. {{example}}: one that counts.',
    'pt-BR': 'você executou um comando como `{{example}}`',
    en: 'you ran a command like `{{example}}`',
  },
  'check.history.observed.noneLike': {
    description: 'No command did it. {{example}}: one that would count.',
    'pt-BR': {
      one: 'nenhum dos seus comandos ({{count}} até agora) faz isso; contaria, por exemplo, `{{example}}`',
      other: 'nenhum dos seus comandos ({{count}} até agora) faz isso; contaria, por exemplo, `{{example}}`',
    },
    en: {
      one: 'none of your commands ({{count}} so far) does it; `{{example}}`, for one, would count',
      other: 'none of your commands ({{count}} so far) does it; `{{example}}`, for one, would count',
    },
  },
  'check.history.observed.found': {
    description: 'The matching command.',
    'pt-BR': 'você executou: {{line}}',
    en: 'you ran: {{line}}',
  },
  'check.history.observed.none': {
    description: 'No command matched. {{count}}: commands run so far.',
    'pt-BR': {
      one: 'nenhum dos seus comandos corresponde ({{count}} comando até agora)',
      other: 'nenhum dos seus comandos corresponde ({{count}} comandos até agora)',
    },
    en: {
      one: 'none of your commands matches ({{count}} command so far)',
      other: 'none of your commands matches ({{count}} commands so far)',
    },
  },

  // ── connections ───────────────────────────────────────────────────────────────────────────────────
  'check.connections.expected.ingress': {
    description:
      'NetworkPolicy admits into the pods exactly the intended peers. {{pods}}: selector (namespace); {{peers}}: selector (namespace):ports.',
    'pt-BR':
      'as políticas deixam entrar em {{pods}} só {{peers}}, e nada mais, mesmo vindo de pods com a saída aberta',
    en: 'policies let into {{pods}} only {{peers}}, nothing else, even from pods whose egress is open',
  },
  'check.connections.expected.egress': {
    description: 'NetworkPolicy lets the pods send exactly to the intended peers.',
    'pt-BR': 'as políticas deixam {{pods}} enviar só para {{peers}}, e nada mais',
    en: 'policies let {{pods}} send only to {{peers}}, nothing else',
  },
  'check.connections.observed.same': {
    description: 'The allowed set is the intended one. {{count}}: pod pairs and ports compared.',
    'pt-BR': 'o conjunto permitido é o pretendido ({{count}} pares de pods e portas comparados)',
    en: 'the allowed set is the intended one ({{count}} pod pairs and ports compared)',
  },
  'check.connections.observed.extra': {
    description: 'Connections allowed that should not be. {{connections}}: the first few.',
    'pt-BR': {
      one: '{{count}} conexão a mais é permitida: {{connections}}',
      other: '{{count}} conexões a mais são permitidas: {{connections}}',
    },
    en: {
      one: '{{count}} connection too many is allowed: {{connections}}',
      other: '{{count}} connections too many are allowed: {{connections}}',
    },
  },
  'check.connections.observed.missing': {
    description: 'Intended connections that are denied. {{connections}}: the first few.',
    'pt-BR': {
      one: '{{count}} conexão pretendida é negada: {{connections}}',
      other: '{{count}} conexões pretendidas são negadas: {{connections}}',
    },
    en: {
      one: '{{count}} intended connection is denied: {{connections}}',
      other: '{{count}} intended connections are denied: {{connections}}',
    },
  },
  'check.connections.allowedBy': {
    description: 'One connection and the policy rule that allowed it. {{rule}}: 1-based rule number.',
    'pt-BR': '{{connection}} (pela regra {{rule}} da NetworkPolicy {{policy}})',
    en: '{{connection}} (by rule {{rule}} of NetworkPolicy {{policy}})',
  },
  'check.connections.notIsolated': {
    description: 'One connection allowed because no policy selects that end.',
    'pt-BR': '{{connection}} (nenhuma política seleciona essa ponta)',
    en: '{{connection}} (no policy selects that end)',
  },

  // ── weights ───────────────────────────────────────────────────────────────────────────────────────
  'check.weights.expected': {
    description: 'A route splits traffic in proportions. {{split}}: backend and percentage pairs.',
    'pt-BR': 'a rota {{ref}} divide o tráfego: {{split}}',
    en: 'route {{ref}} splits traffic: {{split}}',
  },
  'check.weights.observed': {
    description: 'The split the weights give. {{weights}}: backend=weight as written.',
    'pt-BR': 'os pesos ({{weights}}) dão {{split}}',
    en: 'its weights ({{weights}}) give {{split}}',
  },
  'check.weights.observed.noRule': {
    description: 'No rule of the route sends to these backends.',
    'pt-BR': 'nenhuma regra da rota manda para {{backends}}',
    en: 'no rule of the route sends to {{backends}}',
  },

  // ── looked ────────────────────────────────────────────────────────────────────────────────────────
  'check.looked.expected': {
    description:
      'The learner must have run a command that printed objects of these kinds. {{resources}}: kinds.',
    'pt-BR': 'um comando seu mostrou {{resources}}',
    en: 'a command you ran printed {{resources}}',
  },
  'check.looked.expected.namespace': {
    description: 'Same, in a namespace. {{namespace}}: the namespace.',
    'pt-BR': 'um comando seu mostrou {{resources}} do namespace {{namespace}}',
    en: 'a command you ran printed {{resources}} in namespace {{namespace}}',
  },
  'check.looked.observed.none': {
    description: 'No command showed them. {{example}}: a command that would count.',
    'pt-BR': {
      one: 'nenhum dos seus comandos ({{count}} até agora) mostrou isso; contaria um `kubectl get` ou `kubectl describe` que os liste, com qualquer ordem de flags, `-o` ou `| grep`, como `{{example}}`',
      other:
        'nenhum dos seus comandos ({{count}} até agora) mostrou isso; contaria um `kubectl get` ou `kubectl describe` que os liste, com qualquer ordem de flags, `-o` ou `| grep`, como `{{example}}`',
    },
    en: {
      one: 'none of your commands ({{count}} so far) printed them; a `kubectl get` or `kubectl describe` that lists them would count, any flag order, `-o` or `| grep`, such as `{{example}}`',
      other:
        'none of your commands ({{count}} so far) printed them; a `kubectl get` or `kubectl describe` that lists them would count, any flag order, `-o` or `| grep`, such as `{{example}}`',
    },
  },
  'check.looked.observed.notShown': {
    description:
      'A command asked for them but its output showed none: it failed, or went to a file or a pipe that printed nothing. {{line}}: it; {{example}}: a command that would count.',
    'pt-BR':
      '`{{line}}` pediu por eles, mas não os mostrou no terminal (o comando falhou, ou a saída foi para um arquivo ou um pipe que nada imprimiu); contaria `{{example}}`',
    en: '`{{line}}` asked for them but did not show them on your terminal (the command failed, or its output went to a file or a pipe that printed nothing); `{{example}}` would count',
  },
  'check.looked.invalid': {
    description: 'A looked check names neither kinds nor kernel tables, or both.',
    'pt-BR': 'dê `resources` ou `tables`, não os dois',
    en: 'give `resources` or `tables`, not both',
  },
  'check.looked.expected.tables': {
    description:
      "The learner must have printed a node's kernel tables. {{tables}}: which (iptables (nat), ipvs…).",
    'pt-BR': 'um comando seu mostrou as tabelas {{tables}} de um node',
    en: "a command you ran printed a node's {{tables}} tables",
  },
  'check.looked.observed.noTable': {
    description:
      'No command printed them (a tool missing from the image, a typo, an error do not count). {{example}}: what would.',
    'pt-BR': {
      one: 'nenhum dos seus comandos ({{count}} até agora) mostrou essas tabelas de um node (um comando que falhou, como `iptables-save: not found` no BusyBox, não conta); contaria `{{example}}` num shell do node (`kubectl debug node/… --image=nicolaka/netshoot`, `chroot /host`, `docker exec kind-worker …`)',
      other:
        'nenhum dos seus comandos ({{count}} até agora) mostrou essas tabelas de um node (um comando que falhou, como `iptables-save: not found` no BusyBox, não conta); contaria `{{example}}` num shell do node (`kubectl debug node/… --image=nicolaka/netshoot`, `chroot /host`, `docker exec kind-worker …`)',
    },
    en: {
      one: "none of your commands ({{count}} so far) printed these tables of a node (a command that failed, such as BusyBox's `iptables-save: not found`, does not count); `{{example}}` in a node shell would (`kubectl debug node/… --image=nicolaka/netshoot`, `chroot /host`, `docker exec kind-worker …`)",
      other:
        "none of your commands ({{count}} so far) printed these tables of a node (a command that failed, such as BusyBox's `iptables-save: not found`, does not count); `{{example}}` in a node shell would (`kubectl debug node/… --image=nicolaka/netshoot`, `chroot /host`, `docker exec kind-worker …`)",
    },
  },
  'check.looked.observed.podNetns': {
    description: "A command listed a pod's own network namespace, not the node's. {{line}}: it.",
    'pt-BR':
      '`{{line}}` leu a rede do próprio pod, não a do node (as regras do kube-proxy ficam no node); contaria `{{example}}` num shell do node',
    en: "`{{line}}` read the pod's own network namespace, not the node's (kube-proxy's rules live on the node); `{{example}}` in a node shell would count",
  },
  'check.looked.observed.withoutFields': {
    description:
      'A command showed the objects but not the fields asked for. {{line}}: it; {{fields}}: the fields.',
    'pt-BR':
      '`{{line}}` listou os objetos, mas sem {{fields}} (a tabela, mesmo com `-o wide`, não tem esse campo); contaria `{{example}}`, `-o yaml` ou um `-o jsonpath` com o campo',
    en: '`{{line}}` listed them but not {{fields}} (the table, `-o wide` included, has no such column); `{{example}}`, `-o yaml` or a `-o jsonpath` naming the field would count',
  },
  'check.looked.observed.otherTable': {
    description: 'A command printed another iptables table. {{line}}: it; {{table}}: the one wanted.',
    'pt-BR': '`{{line}}` mostrou outra tabela, não a {{table}}; contaria `{{example}}`',
    en: '`{{line}}` printed another table, not {{table}}; `{{example}}` would count',
  },
  'check.looked.observed.otherNamespace': {
    description: 'A command listed them in another namespace. {{line}}: it; {{namespace}}: the one wanted.',
    'pt-BR': '`{{line}}` listou outro namespace, não {{namespace}}; contaria `{{example}}` (ou `-A`)',
    en: '`{{line}}` listed another namespace, not {{namespace}}; `{{example}}` (or `-A`) would count',
  },

  // ── quiz ──────────────────────────────────────────────────────────────────────────────────────────
  'check.quiz.expected': {
    description: 'A quiz question must be answered correctly. {{question}}: the question text.',
    'pt-BR': 'a resposta certa para: {{question}}',
    en: 'the right answer to: {{question}}',
  },
  'check.quiz.observed.unanswered': {
    description: 'The learner has not answered.',
    'pt-BR': 'ainda sem resposta',
    en: 'not answered yet',
  },
  'check.quiz.observed.correct': {
    description: 'The answer is right.',
    'pt-BR': 'sua resposta está certa',
    en: 'your answer is right',
  },
  'check.quiz.observed.wrong': {
    description: 'The single-choice answer is wrong.',
    'pt-BR': 'sua resposta não está certa',
    en: 'your answer is not right',
  },
  'check.quiz.observed.wrongMultiple': {
    description: 'The set of ticked choices is not exactly the right one.',
    'pt-BR': 'as opções marcadas não são exatamente as certas',
    en: 'the choices you ticked are not exactly the right ones',
  },

  // ── predicates ────────────────────────────────────────────────────────────────────────────────────
  'predicate.spread.expected': {
    description:
      'Predicate pods-spread-across-nodes: pods matching a selector run on at least {{min}} nodes.',
    'pt-BR': 'os pods com {{selector}} no namespace {{namespace}} rodam em pelo menos {{min}} nós',
    en: 'the pods matching {{selector}} in namespace {{namespace}} run on at least {{min}} nodes',
  },
  'predicate.spread.observed': {
    description: 'How many distinct nodes run the pods. {{nodes}}: their names.',
    'pt-BR': { one: 'rodam em {{count}} nó: {{nodes}}', other: 'rodam em {{count}} nós: {{nodes}}' },
    en: { one: 'they run on {{count}} node: {{nodes}}', other: 'they run on {{count}} nodes: {{nodes}}' },
  },
  'predicate.spread.none': {
    description: 'No scheduled pod matches.',
    'pt-BR': 'nenhum pod agendado corresponde',
    en: 'no scheduled pod matches',
  },
} as const satisfies Record<string, Entry>;

export type MessageKey = keyof typeof CATALOGUE;
