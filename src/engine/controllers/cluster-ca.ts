/**
 * The cluster CA certificate kube-controller-manager reads from `--root-ca-file` and the root CA
 * publisher copies into every namespace. kubeadm's CA (`kubeadm init phase certs ca`): RSA 2048,
 * `CN=kubernetes`, SAN `DNS:kubernetes`, ten years, sha256WithRSA. k3s's server CA (`server-ca.crt`,
 * client-go `NewSelfSignedCACert` through dynamiclistener): ECDSA P-256, `CN=k3s-server-ca@<unix
 * time>`, ten years. Both carry keyUsage digitalSignature/keyEncipherment/keyCertSign, CA:TRUE and a
 * subject key identifier. The DER is well-formed (openssl and curl parse it) but its key and signature
 * bytes are derived from a seed rather than computed: nothing in the simulation verifies them.
 */
import type { DistributionProfile } from '../api/distribution.ts';
import { Rng } from '../util/rng.ts';
import { base64Encode, utf8Encode } from '../util/encoding.ts';

const TEN_YEARS_MS = 10 * 365 * 24 * 3600_000;
/** kubeadm backdates the certificates it generates (kubeadmconstants.CertificateBackdate). */
const KUBEADM_BACKDATE_MS = 5 * 60_000;

function tlv(tag: number, body: readonly number[]): number[] {
  const n = body.length;
  if (n < 0x80) return [tag, n, ...body];
  const len: number[] = [];
  for (let x = n; x > 0; x = Math.floor(x / 256)) len.unshift(x % 256);
  return [tag, 0x80 | len.length, ...len, ...body];
}

const seq = (...parts: number[][]): number[] => tlv(0x30, parts.flat());
/** An INTEGER from unsigned big-endian bytes (a leading 0 keeps it positive). */
const uint = (bytes: readonly number[]): number[] =>
  tlv(0x02, (bytes[0] ?? 0) >= 0x80 ? [0, ...bytes] : [...bytes]);
/** Random bytes read as a positive INTEGER of exactly that length (DER wants no padding byte). */
const positive = (bytes: readonly number[]): number[] =>
  uint([((bytes[0] ?? 0) & 0x7f) | 0x40, ...bytes.slice(1)]);
const bits = (bytes: readonly number[]): number[] => tlv(0x03, [0, ...bytes]);
const octets = (bytes: readonly number[]): number[] => tlv(0x04, [...bytes]);
const utf8String = (s: string): number[] => tlv(0x0c, [...utf8Encode(s)]);
const TRUE = [0x01, 0x01, 0xff];

function oid(dotted: string): number[] {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const out = [a * 40 + b];
  for (const v of rest) {
    const chunk = [v & 0x7f];
    for (let x = Math.floor(v / 128); x > 0; x = Math.floor(x / 128)) chunk.unshift(0x80 | (x & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, out);
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
function time(ms: number): number[] {
  const iso = new Date(ms).toISOString();
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  const year = Number(iso.slice(0, 4));
  const text = year < 2050 ? `${digits.slice(2)}Z` : `${digits}Z`;
  return tlv(
    year < 2050 ? 0x17 : 0x18,
    [...text].map((c) => c.charCodeAt(0)),
  );
}

function name(cn: string): number[] {
  return seq(tlv(0x31, seq(oid('2.5.4.3'), utf8String(cn))));
}

function extension(id: string, critical: boolean, value: number[]): number[] {
  return seq(oid(id), ...(critical ? [TRUE] : []), octets(value));
}

/** Deterministic bytes for one seed, from a generator of their own (the cluster's stays untouched). */
function bytesFrom(seed: string, n: number): number[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => rng.nextUint32() & 0xff);
}

/** NIST P-256 (SEC 2): the field prime, the order and the base point. */
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const G: Point = [
  0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
];
type Point = readonly [bigint, bigint] | undefined;

const mod = (a: bigint): bigint => ((a % P) + P) % P;

function inverse(a: bigint): bigint {
  let [r0, r1, s0, s1] = [mod(a), P, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1];
  }
  return mod(s0);
}

function add(p: Point, q: Point): Point {
  if (!p) return q;
  if (!q) return p;
  if (p[0] === q[0] && mod(p[1] + q[1]) === 0n) return undefined;
  const l =
    p[0] === q[0]
      ? mod((3n * p[0] * p[0] - 3n) * inverse(2n * p[1]))
      : mod((q[1] - p[1]) * inverse(q[0] - p[0]));
  const x = mod(l * l - p[0] - q[0]);
  return [x, mod(l * (p[0] - x) - p[1])];
}

/** The uncompressed public point d·G of a seed-derived private key, so the key parses as P-256. */
function ecPublicKey(seed: string): number[] {
  const d =
    (BigInt(
      `0x${bytesFrom(seed, 32)
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('')}`,
    ) %
      (N - 1n)) +
    1n;
  let result: Point;
  let base: Point = G;
  for (let k = d; k > 0n; k >>= 1n) {
    if (k & 1n) result = add(result, base);
    base = add(base, base);
  }
  const hex = (v: bigint) => v.toString(16).padStart(64, '0');
  const xy = `${hex(result![0])}${hex(result![1])}`;
  return [4, ...Array.from({ length: 64 }, (_, i) => parseInt(xy.slice(i * 2, i * 2 + 2), 16))];
}

/**
 * The CA certificate in PEM. `createdMs` is when the control plane came up (the certificates phase
 * ran just before); `seed` makes each cluster's key and serial its own. `caName` makes one of the
 * distribution's other CAs the same way (kubeadm's `front-proxy-ca`, k3s's `k3s-client-ca`, …).
 */
export function clusterCaPem(
  bootstrap: DistributionProfile['bootstrap'],
  seed: string,
  createdMs: number,
  caName = bootstrap === 'k3s' ? 'k3s-server-ca' : 'kubernetes',
): string {
  const k3s = bootstrap === 'k3s';
  const issuedMs = Math.floor(createdMs / 1000) * 1000;
  const notBefore = k3s ? issuedMs : issuedMs - KUBEADM_BACKDATE_MS;
  const cn = k3s ? `${caName}@${issuedMs / 1000}` : caName;
  const publicKeyInfo = k3s
    ? seq(seq(oid('1.2.840.10045.2.1'), oid('1.2.840.10045.3.1.7')), bits(ecPublicKey(`${seed}/ec`)))
    : seq(
        seq(oid('1.2.840.113549.1.1.1'), [0x05, 0x00]),
        bits(
          seq(
            uint([0x80 | (bytesFrom(`${seed}/n`, 1)[0] ?? 0), ...bytesFrom(`${seed}/n+`, 255)]),
            uint([1, 0, 1]),
          ),
        ),
      );
  const signatureAlgorithm = k3s
    ? seq(oid('1.2.840.10045.4.3.2'))
    : seq(oid('1.2.840.113549.1.1.11'), [0x05, 0x00]);
  const keyId = bytesFrom(`${seed}/ski`, 20);
  const extensions = [
    extension('2.5.29.15', true, [0x03, 0x02, 0x02, 0xa4]),
    extension('2.5.29.19', true, seq(TRUE)),
    extension('2.5.29.14', false, octets(keyId)),
    ...(k3s
      ? []
      : [
          extension(
            '2.5.29.17',
            false,
            seq(
              tlv(
                0x82,
                [...cn].map((c) => c.charCodeAt(0)),
              ),
            ),
          ),
        ]),
  ];
  const tbs = seq(
    tlv(0xa0, uint([2])),
    positive(bytesFrom(`${seed}/serial`, k3s ? 1 : 8)),
    signatureAlgorithm,
    name(cn),
    seq(time(notBefore), time(issuedMs + TEN_YEARS_MS)),
    name(cn),
    publicKeyInfo,
    tlv(0xa3, seq(...extensions)),
  );
  const signature = k3s
    ? seq(positive(bytesFrom(`${seed}/r`, 32)), positive(bytesFrom(`${seed}/s`, 32)))
    : bytesFrom(`${seed}/sig`, 256);
  const der = seq(tbs, signatureAlgorithm, bits(signature));
  const lines = base64Encode(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
