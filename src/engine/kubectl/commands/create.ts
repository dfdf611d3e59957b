/**
 * `kubectl create` (-f) and the generators `create deployment|service <type>|configmap|secret
 * generic|namespace|serviceaccount` (pkg/cmd/create). Generated objects are built in their Go struct field order, so
 * `--dry-run=client -o json` prints keys as the real one does; YAML output sorts keys anyway. Since
 * v1.34 (kubernetes#130989) a zero `creationTimestamp` is omitted rather than printed as `null`.
 */
import type { AnyObject, Manifest } from '../../api/objects.ts';
import type { KubectlContext } from '../context.ts';
import { KubectlError, aggregateLine, cmdError, errorText, usageError } from '../errors.ts';
import { readManifests } from '../manifests.ts';
import { goQuote, StatusError } from '../../api/errors.ts';
import {
  configMapKeyErrors,
  isDNS1123Subdomain,
  portNameErrors,
  portNumErrors,
} from '../../apiserver/name-validation.ts';
import { resolveFileObject } from './file-refs.ts';
import { createObject, dryRunMode, printOutcome } from './write.ts';
import { LAST_APPLIED, withLastApplied } from '../apply-merge.ts';
import { goJson, goStruct } from '../../apiserver/field-errors.ts';
import { setOwn } from '../../apiserver/json-values.ts';
import { isPlainObject } from '../../util/json.ts';
import { configMapHash, secretHash } from './object-hash.ts';
import { base64Encode, utf8Encode } from '../../util/encoding.ts';

export function requireFlags(ctx: KubectlContext, names: readonly string[]): void {
  const missing = names.filter((n) => !ctx.flags.changed(n));
  if (missing.length > 0)
    throw cmdError(`required flag(s) ${missing.map((n) => `"${n}"`).join(', ')} not set`);
}

/** `NameFromCommandArgs`: exactly one positional NAME. */
export function nameFromArgs(ctx: KubectlContext): string {
  const args =
    ctx.flags.argsLenAtDash >= 0 ? ctx.flags.args.slice(0, ctx.flags.argsLenAtDash) : ctx.flags.args;
  if (args.length !== 1)
    throw usageError(ctx.commandPath, `exactly one NAME is required, got ${args.length}`);
  return args[0]!;
}

function baseMeta(
  ctx: KubectlContext,
  name: string,
  labels?: Record<string, string>,
): Record<string, unknown> {
  return {
    name,
    ...(ctx.explicitNamespace ? { namespace: ctx.namespace } : {}),
    ...(labels ? { labels } : {}),
  };
}

/**
 * Submits a generated object (or prints it for a client dry run) and reports as create does. `failedTo`
 * is the prefix of the generator's `fmt.Errorf("failed to create …: %v", err)` wrapping of the API error
 * (deployment, service, configmap, secret do it; namespace returns the error as is): the `%v` flattens the StatusError to
 * its message, so checkErr prints `error: failed to create deployment: Deployment.apps "A" is invalid: …`
 * instead of the Invalid details form.
 */
function submitGenerated(ctx: KubectlContext, obj: Manifest, failedTo?: string, saveConfig = true): number {
  const mode = dryRunMode(ctx);
  if (saveConfig && ctx.flags.bool('save-config')) addLastApplied(obj);
  if (mode === 'client') {
    printOutcome(ctx, obj, 'created', mode, true);
    return 0;
  }
  let created: AnyObject;
  try {
    created = createObject(ctx, obj, mode);
  } catch (e) {
    if (failedTo !== undefined && e instanceof StatusError) throw cmdError(`${failedTo}${e.message}`);
    throw e;
  }
  printOutcome(ctx, created, 'created', mode);
  return 0;
}

/**
 * The fields of generated objects whose Go type is a map, which json.Marshal writes with sorted keys;
 * every other object is a struct, written in field order (the order the generators build them in).
 * `nodeSelector` and the resource `limits`/`requests` come in through `run --overrides`. A Deployment's
 * `selector` is a LabelSelector struct, but its only field here is `matchLabels`, so sorting it
 * changes nothing.
 */
const GO_MAP_FIELDS = new Set([
  'labels',
  'annotations',
  'matchLabels',
  'selector',
  'nodeSelector',
  'data',
  'limits',
  'requests',
]);

/** Marks every object of a generated value as a Go struct, except the map-typed fields. */
function asGoStructs(v: unknown, isMap = false): unknown {
  if (Array.isArray(v)) return v.map((x) => asGoStructs(x));
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) setOwn(out, k, asGoStructs(x, !isMap && GO_MAP_FIELDS.has(k)));
  return isMap ? out : goStruct(out);
}

/**
 * `--save-config` on a generated object (create's generators, run, expose), as
 * `util.CreateOrUpdateAnnotation` records a typed object: its JSON in Go struct field order, map keys
 * sorted, `<`, `>`, `&` escaped, ending in the encoder's newline, taken with the annotation removed.
 * An annotations map left empty is omitted (the `-f` paths' unstructured objects keep
 * `"annotations":{}`), and since v1.34 so is the zero creationTimestamp (kubernetes#130989).
 */
export function addLastApplied(obj: Manifest): void {
  const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
  const others = isPlainObject(meta.annotations) ? { ...meta.annotations } : {};
  delete others[LAST_APPLIED];
  const recordedMeta: Record<string, unknown> = { ...meta, annotations: others };
  if (Object.keys(others).length === 0) delete recordedMeta.annotations;
  const json = `${goJson(asGoStructs({ ...obj, metadata: recordedMeta }))}\n`;
  obj.metadata = { ...meta, annotations: { ...others, [LAST_APPLIED]: json } };
}

/** `kubectl create deployment`: container names from the image base names, `app=<name>` labels. */
export function runCreateDeployment(ctx: KubectlContext): number {
  requireFlags(ctx, ['image']);
  const name = nameFromArgs(ctx);
  dryRunMode(ctx);
  const images = ctx.flags.array('image');
  const command = ctx.flags.argsLenAtDash >= 0 ? ctx.flags.args.slice(ctx.flags.argsLenAtDash) : [];
  const used = new Set<string>();
  const port = ctx.flags.int('port');
  // Go field order of corev1.Container: name, image, command, ports, …, resources.
  const containers = images.map((image, i) => {
    const base = (image.split('/').pop() ?? image).split(':')[0]!.split('@')[0]!.replace(/_/g, '-');
    let cname = base;
    for (let n = 2; used.has(cname); n++) cname = `${base}-${n}`;
    used.add(cname);
    return {
      name: cname,
      image,
      ...(command.length > 0 ? { command } : {}),
      ...(i === 0 && port >= 0 ? { ports: [{ containerPort: port }] } : {}),
      resources: {},
    };
  });
  const labels = { app: name };
  const deployment: Manifest = {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: baseMeta(ctx, name, labels),
    spec: {
      replicas: ctx.flags.int('replicas'),
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers },
      },
      strategy: {},
    },
    status: {},
  };
  return submitGenerated(ctx, deployment, 'failed to create deployment: ');
}

/** Go's `strconv.ParseUint(s, 10, 16)` as `utilsnet.ParsePort` calls it, with its error text. */
function parseUint16(s: string): number {
  if (!/^[0-9]+$/.test(s)) throw cmdError(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  const n = Number(s);
  if (n > 65535) throw cmdError(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return n;
}

/**
 * create_service.go `parsePorts`: `port[:targetPort]`; the port may be 0 (`ParsePort(…, true)`), a
 * target port that Go's `strconv.Atoi` reads as a number must be 1-65535, anything else must be a valid
 * port name (its errors joined by `,`).
 */
function parseServicePort(spec: string): { port: number; targetPort: number | string } {
  const parts = spec.split(':');
  const port = parseUint16(parts[0] ?? '');
  const target = parts[1];
  if (target === undefined) return { port, targetPort: port };
  if (/^[+-]?[0-9]+$/.test(target)) {
    const n = Number(target);
    const errs = portNumErrors(n);
    if (errs.length > 0) throw cmdError(errs.join(','));
    return { port, targetPort: n };
  }
  const errs = portNameErrors(target);
  if (errs.length > 0) throw cmdError(errs.join(','));
  return { port, targetPort: target };
}

export type GeneratedServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';

/**
 * `kubectl create service clusterip|nodeport|loadbalancer|externalname NAME --tcp=port[:targetPort]`
 * (create_service.go: Complete, Validate, then Run builds the ports).
 */
export function runCreateService(ctx: KubectlContext, type: GeneratedServiceType): number {
  if (type === 'ExternalName') requireFlags(ctx, ['external-name']);
  const name = nameFromArgs(ctx);
  dryRunMode(ctx);
  const tcp = ctx.flags.array('tcp');
  const clusterIP = type === 'ClusterIP' ? ctx.flags.string('clusterip') : '';
  const externalName = type === 'ExternalName' ? ctx.flags.string('external-name') : '';
  if (clusterIP !== 'None' && tcp.length === 0 && type !== 'ExternalName') {
    throw cmdError('at least one tcp port specifier must be provided');
  }
  if (type === 'ExternalName' && isDNS1123Subdomain(externalName).length > 0)
    throw cmdError(`invalid service external name ${externalName}`);
  const nodePort = type === 'NodePort' ? ctx.flags.int('node-port') : 0;
  const ports = tcp.map((spec) => {
    const { port, targetPort } = parseServicePort(spec);
    return {
      name: spec.replace(/:/g, '-'),
      protocol: 'TCP',
      port,
      targetPort,
      ...(nodePort ? { nodePort } : {}),
    };
  });
  const labels = { app: name };
  // Go field order of corev1.ServiceSpec: ports, selector, clusterIP, type, …, externalName.
  const svc: Manifest = {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: baseMeta(ctx, name, labels),
    spec: {
      ...(ports.length > 0 ? { ports } : {}),
      selector: { app: name },
      ...(clusterIP ? { clusterIP } : {}),
      type,
      ...(externalName ? { externalName } : {}),
    },
    status: { loadBalancer: {} },
  };
  // ServiceOptions.Complete never reads --save-config (the flag is registered but CreateAnnotation stays
  // false), so `create service … --save-config` records no last-applied annotation; kubectl v1.33 shows it.
  return submitGenerated(ctx, svc, `failed to create ${type} service: `, false);
}

/**
 * The `--from-literal`, `--from-file` and `--from-env-file` sources of `create configmap` and `create
 * secret generic`, in the order kubectl reads them; `add` validates and stores each key. A literal's
 * value is taken as written (util.ParseLiteralSource trims no quotes).
 */
function readSources(ctx: KubectlContext, add: (key: string, value: string) => void): void {
  const f = ctx.flags;
  if (
    f.array('from-env-file').length > 0 &&
    (f.array('from-file').length > 0 || f.array('from-literal').length > 0)
  )
    throw cmdError('from-env-file cannot be combined with from-file or from-literal');
  for (const lit of f.array('from-literal')) {
    const eq = lit.indexOf('=');
    if (eq <= 0) throw cmdError(`invalid literal source ${lit}, expected key=value`);
    add(lit.slice(0, eq), lit.slice(eq + 1));
  }
  for (const spec of f.array('from-file')) {
    const eq = spec.indexOf('=');
    const key = eq > 0 ? spec.slice(0, eq) : (spec.split('/').pop() ?? spec);
    const path = eq > 0 ? spec.slice(eq + 1) : spec;
    const text = ctx.host.files.read(path);
    if (text === undefined) throw cmdError(`error reading ${path}: no such file or directory`);
    add(key, text);
  }
  for (const path of f.array('from-env-file')) {
    const text = ctx.host.files.read(path);
    if (text === undefined) throw cmdError(`error reading ${path}: no such file or directory`);
    // bufio.ScanLines: no empty line after the last newline, one trailing \r dropped per line.
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    lines.forEach((raw, i) => {
      // Only the first line loses a UTF-8 BOM.
      const pair = envFileLine(i === 0 ? raw.replace(/^\uFEFF/, '') : raw, ctx.io.env);
      if (pair) add(...pair);
    });
  }
}

/** Go's unicode.IsSpace (JS `\s` would also take U+FEFF, which Go leaves in the key). */
const GO_LEADING_SPACE = /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/;
/** validation.IsEnvVarName. */
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/**
 * env_file.go `processEnvFileLine`: leading whitespace trimmed (the rest of the line kept, trailing
 * spaces included), blank and `#` lines skipped, the key checked as an environment variable name
 * before the ConfigMap/Secret rule, and a line without `=` takes its value from the environment.
 */
function envFileLine(raw: string, env: Readonly<Record<string, string>>): [string, string] | undefined {
  const line = raw.replace(/\r$/, '').replace(GO_LEADING_SPACE, '');
  if (line === '' || line.startsWith('#')) return undefined;
  const eq = line.indexOf('=');
  const key = eq < 0 ? line : line.slice(0, eq);
  if (!ENV_VAR_NAME.test(key))
    throw cmdError(
      `${goQuote(key)} is not a valid key name: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`,
    );
  return [key, eq < 0 ? (Object.hasOwn(env, key) ? env[key]! : '') : line.slice(eq + 1)];
}

/** `kubectl create configmap NAME --from-literal=k=v --from-file=[key=]path [--append-hash]`. */
export function runCreateConfigMap(ctx: KubectlContext): number {
  const name = nameFromArgs(ctx);
  dryRunMode(ctx);
  const data: Record<string, string> = {};
  // create_configmap.go `validateNewConfigMap`: the key rule (`IsConfigMapKey`), then duplicates.
  readSources(ctx, (key, value) => {
    const keyErrs = configMapKeyErrors(key);
    if (keyErrs.length > 0)
      throw cmdError(`${goQuote(key)} is not a valid key name for a ConfigMap: ${keyErrs.join(',')}`);
    if (Object.prototype.hasOwnProperty.call(data, key)) {
      throw cmdError(
        `cannot add key ${goQuote(key)}, another key by that name already exists in Data for ConfigMap ${goQuote(name)}`,
      );
    }
    setOwn(data, key, value); // a `__proto__` key is data too
  });
  const cm: Manifest = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: baseMeta(ctx, ctx.flags.bool('append-hash') ? `${name}-${configMapHash(name, data)}` : name),
    ...(Object.keys(data).length > 0 ? { data } : {}),
  };
  return submitGenerated(ctx, cm, 'failed to create configmap: ');
}

/**
 * `kubectl create secret generic NAME` (create_secret.go): the sources base64-encoded into data,
 * `--type` only when given, `--append-hash` (hash.SecretHash over the data and type).
 */
export function runCreateSecretGeneric(ctx: KubectlContext): number {
  const name = nameFromArgs(ctx);
  dryRunMode(ctx);
  const data: Record<string, string> = {};
  readSources(ctx, (key, value) => {
    const keyErrs = configMapKeyErrors(key);
    if (keyErrs.length > 0)
      throw cmdError(`${goQuote(key)} is not valid key name for a Secret ${keyErrs.join(';')}`);
    if (Object.prototype.hasOwnProperty.call(data, key))
      throw cmdError(`cannot add key ${key}, another key by that name already exists`);
    setOwn(data, key, base64Encode(utf8Encode(value)));
  });
  const type = ctx.flags.string('type');
  // corev1.Secret field order: kind, apiVersion, metadata, immutable, data, stringData, type.
  const secret: Manifest = {
    kind: 'Secret',
    apiVersion: 'v1',
    metadata: baseMeta(ctx, ctx.flags.bool('append-hash') ? `${name}-${secretHash(name, type, data)}` : name),
    ...(Object.keys(data).length > 0 ? { data } : {}),
    ...(type !== '' ? { type } : {}),
  };
  // create_secret.go wraps the API error without a colon: `failed to create secret %v`.
  return submitGenerated(ctx, secret, 'failed to create secret ');
}

export function runCreateNamespace(ctx: KubectlContext): number {
  const name = nameFromArgs(ctx);
  dryRunMode(ctx);
  return submitGenerated(ctx, {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: { name },
    spec: {},
    status: {},
  });
}

/** `kubectl create serviceaccount NAME` (create_serviceaccount.go): metadata only. */
export function runCreateServiceAccount(ctx: KubectlContext): number {
  const name = nameFromArgs(ctx);
  dryRunMode(ctx);
  return submitGenerated(
    ctx,
    { kind: 'ServiceAccount', apiVersion: 'v1', metadata: baseMeta(ctx, name) },
    'failed to create serviceaccount: ',
  );
}

/** `kubectl create -f`: one POST per object, errors wrapped with `error when creating "<source>"`. */
export function runCreate(ctx: KubectlContext): number {
  const filenames = ctx.flags.array('filename');
  if (ctx.flags.args.length > 0)
    throw usageError(ctx.commandPath, `Unexpected args: [${ctx.flags.args.join(' ')}]`);
  if (filenames.length === 0) throw cmdError('must specify one of -f and -k');
  const mode = dryRunMode(ctx);
  const manifests = readManifests(ctx.host.files, filenames, ctx.io.stdin, ctx.flags.bool('recursive'));
  if (manifests.length === 0) throw cmdError('no objects passed to create');
  const errors: unknown[] = [];
  for (const sm of manifests) {
    try {
      const fo = resolveFileObject(
        ctx,
        sm,
        ctx.flags.string('validate') !== 'false' && ctx.flags.string('validate') !== 'ignore',
      );
      const obj = {
        ...fo.manifest,
        metadata: {
          ...((fo.manifest.metadata as object | undefined) ?? {}),
          ...(fo.namespace ? { namespace: fo.namespace } : {}),
        },
      } as Manifest;
      // Objects read from files are unstructured: recorded with sorted keys and `"annotations":{}`.
      if (ctx.flags.bool('save-config')) obj.metadata = withLastApplied(obj).metadata;
      if (mode === 'client') {
        printOutcome(ctx, obj, 'created', mode);
        continue;
      }
      const created: AnyObject = createObject(ctx, obj, mode);
      printOutcome(ctx, created, 'created', mode);
    } catch (e) {
      errors.push(e instanceof StatusError ? e.withSource('creating', sm.source) : e);
    }
  }
  return reportErrors(ctx, errors);
}

/** Prints collected per-object errors as kubectl's aggregate does; exit 1 when there were any. */
export function reportErrors(ctx: KubectlContext, errors: readonly unknown[]): number {
  if (errors.length === 0) return 0;
  if (errors.length === 1) {
    const e = errors[0];
    if (e instanceof KubectlError) throw e;
    ctx.err(`${errorText(e)}\n`);
    return 1;
  }
  for (const e of errors) ctx.err(`${aggregateLine(e)}\n`);
  return 1;
}
