// Generates src/runtime/node-cli/serve/k8s-proto.json: the field numbers, names and types of the
// Kubernetes API's protobuf messages, read from the generated.proto files of kubernetes/api and
// kubernetes/apimachinery. `packetpath serve` decodes request bodies with it: the typed clients of
// client-go (kubectl's `create deployment`, `create service` …) send protobuf, and client-go has
// no fallback to JSON (kubernetes/kubernetes#86253).
// Run: node scripts/gen-k8s-proto.mjs API_CHECKOUT APIMACHINERY_CHECKOUT
// (two git checkouts or bare git dirs of those repositories; the commit of each is recorded).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '../src/runtime/node-cli/serve/k8s-proto.json');
const API_FILES = ['core/v1', 'apps/v1', 'networking/v1', 'discovery/v1', 'autoscaling/v1', 'policy/v1', 'authorization/v1'];
const MACHINERY_FILES = ['pkg/apis/meta/v1', 'pkg/util/intstr', 'pkg/api/resource', 'pkg/runtime'];

function git(repo, ...args) {
  return execFileSync(
    'git',
    ['--git-dir', repo.endsWith('.git') || repo.endsWith('/repo') ? repo : join(repo, '.git'), ...args],
    {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    },
  );
}

/** message name → { fieldNumber: [jsonName, type, repeated, mapValueType?] } */
const messages = {};

function parseProto(text) {
  const pkg = /^package ([\w.]+);/m.exec(text)[1];
  const stack = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line === '') continue;
    let m;
    if ((m = /^message (\w+) \{/.exec(line))) {
      const name = [pkg, ...stack.map((s) => s.name), m[1]].join('.');
      stack.push({ name: m[1], full: name });
      messages[name] = {};
      if (line.endsWith('}')) stack.pop();
      continue;
    }
    if (line === '}') {
      stack.pop();
      continue;
    }
    const cur = stack.at(-1);
    if (!cur) continue;
    if ((m = /^map<(\w+), *([.\w]+)> (\w+) = (\d+);/.exec(line))) {
      messages[cur.full][m[4]] = [m[3], 'map', false, resolve(pkg, m[2])];
    } else if ((m = /^(optional|repeated|required)? *([.\w]+) (\w+) = (\d+)/.exec(line))) {
      messages[cur.full][m[4]] = [m[3], resolve(pkg, m[2]), m[1] === 'repeated'];
    }
  }
}

const SCALARS = new Set([
  'string',
  'bytes',
  'bool',
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'double',
  'float',
  'fixed32',
  'fixed64',
  'sfixed32',
  'sfixed64',
]);
function resolve(pkg, type) {
  if (SCALARS.has(type)) return type;
  if (type.startsWith('.')) return type.slice(1);
  if (type.includes('.')) return type;
  return `${pkg}.${type}`;
}

const [apiRepo, machineryRepo] = process.argv.slice(2);
if (!apiRepo || !machineryRepo) {
  console.error('usage: node scripts/gen-k8s-proto.mjs API_CHECKOUT APIMACHINERY_CHECKOUT');
  process.exit(2);
}
const sources = {};
for (const [repo, files] of [
  [apiRepo, API_FILES],
  [machineryRepo, MACHINERY_FILES],
]) {
  const commit = git(repo, 'rev-parse', 'HEAD').trim();
  sources[repo.includes('apimachinery') ? 'kubernetes/apimachinery' : 'kubernetes/api'] = commit;
  for (const f of files) parseProto(git(repo, 'show', `HEAD:${f}/generated.proto`));
}
writeFileSync(OUT, `${JSON.stringify({ sources, messages })}\n`);
console.log(`${Object.keys(messages).length} messages → ${OUT}`);
