/**
 * The serving PKI `packetpath serve` makes on every start, as kubeadm does for a new cluster: a CA
 * ("kubernetes"), a serving certificate for 127.0.0.1/localhost signed by it, and a client
 * certificate (CN kubernetes-admin, O system:masters, like kind's admin.conf) for the kubeconfig.
 * ECDSA P-256 keys from Node's WebCrypto; certificates from @peculiar/x509. Nothing is reused
 * across runs, so a kubeconfig from an earlier run is rejected with 401.
 */
// @peculiar/x509's dependency injection (tsyringe) needs the Reflect metadata API installed first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

/** Node's global WebCrypto (the DOM `Crypto` type that @peculiar/x509 expects). */
const webcrypto: Crypto = globalThis.crypto;

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

export interface Pki {
  readonly caPem: string;
  readonly serverCertPem: string;
  readonly serverKeyPem: string;
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
  /** A bearer token the server also accepts (for clients that cannot present a certificate). */
  readonly token: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`;
}

async function keyPair(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
}

async function privatePem(key: CryptoKey): Promise<string> {
  return pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', key));
}

function serial(): string {
  // A positive 128-bit serial (the high bit cleared), as Go's crypto/x509 expects.
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = bytes[0]! & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

export async function createPki(): Promise<Pki> {
  const crypto = webcrypto;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 365 * DAY_MS);
  const caKeys = await keyPair();
  const ca = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial(),
      name: 'CN=kubernetes',
      notBefore,
      notAfter,
      signingAlgorithm: ALG,
      keys: caKeys,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.keyCertSign |
            x509.KeyUsageFlags.digitalSignature |
            x509.KeyUsageFlags.keyEncipherment,
          true,
        ),
        await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  const leaf = async (subject: string, usage: string, san: x509.JsonGeneralName[] | undefined) => {
    const keys = await keyPair();
    const extensions: x509.Extension[] = [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([usage]),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey, false, crypto),
    ];
    if (san) extensions.push(new x509.SubjectAlternativeNameExtension(san));
    const cert = await x509.X509CertificateGenerator.create(
      {
        serialNumber: serial(),
        subject,
        issuer: ca.subject,
        notBefore,
        notAfter,
        signingAlgorithm: ALG,
        publicKey: keys.publicKey,
        signingKey: caKeys.privateKey,
        extensions,
      },
      crypto,
    );
    return { certPem: cert.toString('pem') + '\n', keyPem: await privatePem(keys.privateKey) };
  };
  const server = await leaf('CN=kube-apiserver', x509.ExtendedKeyUsage.serverAuth, [
    { type: 'ip', value: '127.0.0.1' },
    { type: 'dns', value: 'localhost' },
    { type: 'dns', value: 'kubernetes' },
    { type: 'dns', value: 'kubernetes.default.svc' },
  ]);
  const client = await leaf(
    'CN=kubernetes-admin, O=system:masters',
    x509.ExtendedKeyUsage.clientAuth,
    undefined,
  );
  return {
    caPem: ca.toString('pem') + '\n',
    serverCertPem: server.certPem,
    serverKeyPem: server.keyPem,
    clientCertPem: client.certPem,
    clientKeyPem: client.keyPem,
    token: Buffer.from(webcrypto.getRandomValues(new Uint8Array(24))).toString('base64url'),
  };
}

/** A kubeconfig like kind's: one cluster, one user (client certificate), one context, all inline. */
export function kubeconfigYaml(pki: Pki, server: string, name = 'packetpath'): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
    `    certificate-authority-data: ${b64(pki.caPem)}`,
    `    server: ${server}`,
    `  name: ${name}`,
    'contexts:',
    '- context:',
    `    cluster: ${name}`,
    `    user: ${name}-admin`,
    `  name: ${name}`,
    `current-context: ${name}`,
    'preferences: {}',
    'users:',
    `- name: ${name}-admin`,
    '  user:',
    `    client-certificate-data: ${b64(pki.clientCertPem)}`,
    `    client-key-data: ${b64(pki.clientKeyPem)}`,
    `- name: ${name}-token`,
    '  user:',
    `    token: ${pki.token}`,
    '',
  ].join('\n');
}
