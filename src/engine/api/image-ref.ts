/**
 * Image references as containerd normalises them (distribution/reference `ParseNormalizedNamed`):
 * `nginx` is `docker.io/library/nginx:latest`, `hashicorp/http-echo` is
 * `docker.io/hashicorp/http-echo:latest`, and a first component with a dot, a colon or `localhost` is a
 * registry host. The kubelet reports the normalised name in `status.containerStatuses[].image`.
 */

export interface ImageRef {
  /** Registry host: `docker.io`, `registry.k8s.io`, `ghcr.io`, … */
  readonly domain: string;
  /** Repository path inside the registry: `library/nginx`, `e2e-test-images/agnhost`. */
  readonly path: string;
  readonly tag: string;
  readonly digest?: string;
}

export type ImageRefResult = { readonly ref: ImageRef } | { readonly error: string };

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/**
 * Parses what a pod spec says in `image:`. Errors are worded like distribution/reference, so the
 * kubelet's InvalidImageName message reads as on a real node.
 */
export function parseImageRef(text: string): ImageRefResult {
  const invalid = { error: 'invalid reference format' };
  if (text === '' || /\s/.test(text)) return invalid;
  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return invalid;
  }
  let tag: string | undefined;
  const lastColon = rest.lastIndexOf(':');
  if (lastColon > rest.lastIndexOf('/')) {
    tag = rest.slice(lastColon + 1);
    rest = rest.slice(0, lastColon);
    if (!TAG.test(tag)) return invalid;
  }
  const parts = rest.split('/');
  let domain = 'docker.io';
  const first = parts[0] ?? '';
  if (parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    domain = first;
    parts.shift();
  } else if (parts.length === 1) {
    parts.unshift('library');
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  const path = parts.join('/');
  if (path !== path.toLowerCase()) {
    return { error: `invalid reference format: repository name (${path}) must be lowercase` };
  }
  if (parts.some((p) => !COMPONENT.test(p))) return invalid;
  return { ref: { domain, path, tag: tag ?? (digest ? '' : 'latest'), ...(digest ? { digest } : {}) } };
}

/** `docker.io/library/nginx:latest` (or `…@sha256:…` when pinned by digest only). */
export function formatImageRef(ref: ImageRef): string {
  const name = `${ref.domain}/${ref.path}`;
  if (ref.tag) return `${name}:${ref.tag}${ref.digest ? `@${ref.digest}` : ''}`;
  return `${name}@${ref.digest ?? ''}`;
}

/** The repository without tag: `docker.io/library/nginx`. */
export function repositoryOf(ref: ImageRef): string {
  return `${ref.domain}/${ref.path}`;
}
