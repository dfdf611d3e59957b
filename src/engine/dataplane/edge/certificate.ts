/**
 * The subject and issuer of the certificate in a `kubernetes.io/tls` Secret, read from its DER the way
 * `curl -v` prints them: OpenSSL's `X509_NAME_print_ex(…, XN_FLAG_SEP_SPLUS_SPC)` (curl
 * `lib/vtls/openssl.c` `x509_name_oneline`), one `SN=value` per attribute in certificate order, joined
 * by `; `. Only what that line needs is parsed: TBSCertificate → issuer and subject Names.
 */
import { base64Decode } from '../../util/encoding.ts';

interface Tlv {
  readonly tag: number;
  readonly start: number;
  readonly end: number;
}

function readTlv(der: readonly number[], at: number): Tlv | undefined {
  const tag = der[at];
  let len = der[at + 1];
  if (tag === undefined || len === undefined) return undefined;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (der[start + i] ?? 0);
    start += n;
  }
  return start + len <= der.length ? { tag, start, end: start + len } : undefined;
}

function children(der: readonly number[], parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end; ) {
    const t = readTlv(der, at);
    if (!t) break;
    out.push(t);
    at = t.end;
  }
  return out;
}

/** OpenSSL's short names for the attribute types certificates use. */
const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

function oid(bytes: readonly number[]): string {
  const first = bytes[0] ?? 0;
  const parts = [Math.floor(first / 40), first % 40];
  let v = 0;
  for (const b of bytes.slice(1)) {
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

function nameText(der: readonly number[], name: Tlv): string {
  const parts: string[] = [];
  for (const set of children(der, name))
    for (const atv of children(der, set)) {
      const [type, value] = children(der, atv);
      if (!type || !value) continue;
      const id = oid(der.slice(type.start, type.end));
      const text = String.fromCharCode(...der.slice(value.start, value.end));
      parts.push(`${SHORT_NAMES[id] ?? id}=${text}`);
    }
  return parts.join('; ');
}

/** `tls.crt` as stored in a Secret (base64 of the PEM) → the first certificate's subject and issuer. */
export function certificateNames(tlsCrt: string): { subject: string; issuer: string } | undefined {
  const pemBytes = base64Decode(tlsCrt);
  if (!pemBytes) return undefined;
  const pem = String.fromCharCode(...pemBytes);
  const m = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(pem);
  const derBytes = m ? base64Decode(m[1] ?? '') : undefined;
  if (!derBytes) return undefined;
  const der = [...derBytes];
  const cert = readTlv(der, 0);
  const tbs = cert && children(der, cert)[0];
  if (!tbs) return undefined;
  const fields = children(der, tbs);
  const off = fields[0]?.tag === 0xa0 ? 1 : 0;
  const issuer = fields[off + 2];
  const subject = fields[off + 4];
  if (!issuer || !subject) return undefined;
  return { subject: nameText(der, subject), issuer: nameText(der, issuer) };
}
