/**
 * The part of the KubeProxyConfiguration (`config.conf` in the `kube-proxy` ConfigMap) the simulator
 * honours: `mode`, `ipvs.scheduler`, `clusterCIDR` and `masqueradeAll`. An empty mode means iptables
 * on Linux. Invalid values are reported with kube-proxy's validation wording
 * (`pkg/proxy/apis/config/validation`), which is what the crashing pod would log.
 */
import { parse as parseYaml } from 'yaml';
import { isPlainObject } from '../../util/json.ts';
import { isKnownScheduler } from './ipvs/schedulers.ts';
import { YAML_LIMITS } from '../../util/yaml-limits.ts';

export type ProxyMode = 'iptables' | 'ipvs' | 'nftables';

export interface KubeProxySettings {
  readonly mode: ProxyMode;
  /** The mode as written (`""` when left to the default). */
  readonly configuredMode: string;
  readonly scheduler: string;
  readonly clusterCIDR?: string;
  readonly masqueradeAll: boolean;
}

export type ParsedConfig =
  | { readonly ok: true; readonly settings: KubeProxySettings }
  | { readonly ok: false; readonly error: string };

/**
 * Parsed configurations by text. kube-proxy reads its ConfigMap on every sync, and every restored
 * cluster starts with a sync: parsing the same YAML again each time was a fifth of a restore. The
 * result is a pure function of the text and never changed by callers, so it can be shared.
 */
const parsedByText = new Map<string, ParsedConfig>();
const MAX_PARSED = 64;
/** Bigger texts (a learner's pasted megabyte) are parsed every time rather than kept. */
const MAX_CACHED_TEXT = 64 * 1024;

export function parseKubeProxyConfiguration(text: string): ParsedConfig {
  let parsed = parsedByText.get(text);
  if (!parsed) {
    parsed = parseUncached(text);
    if (text.length > MAX_CACHED_TEXT) return parsed;
    if (parsedByText.size >= MAX_PARSED) parsedByText.clear();
    parsedByText.set(text, parsed);
  }
  return parsed;
}

function parseUncached(text: string): ParsedConfig {
  let doc: unknown;
  try {
    doc = parseYaml(text, YAML_LIMITS);
  } catch (e) {
    return { ok: false, error: `failed to decode kube-proxy configuration: ${firstLine(e)}` };
  }
  if (!isPlainObject(doc))
    return { ok: false, error: 'failed to decode kube-proxy configuration: not a YAML mapping' };
  const configuredMode = typeof doc.mode === 'string' ? doc.mode : '';
  if (!['', 'iptables', 'ipvs', 'nftables'].includes(configuredMode)) {
    return {
      ok: false,
      error: `KubeProxyConfiguration.ProxyMode: Invalid value: "${configuredMode}": must be iptables,ipvs,nftables or blank (blank means the best-available proxy [currently iptables])`,
    };
  }
  const ipvs = isPlainObject(doc.ipvs) ? doc.ipvs : {};
  const scheduler = typeof ipvs.scheduler === 'string' ? ipvs.scheduler : '';
  if (!isKnownScheduler(scheduler)) {
    return {
      ok: false,
      error: `KubeProxyConfiguration.IPVS.Scheduler: Invalid value: "${scheduler}": unknown IPVS scheduler`,
    };
  }
  const mode = (configuredMode || 'iptables') as ProxyMode;
  const section = mode === 'nftables' ? doc.nftables : doc.iptables;
  const masqueradeAll = isPlainObject(section) && section.masqueradeAll === true;
  const clusterCIDR =
    typeof doc.clusterCIDR === 'string' && doc.clusterCIDR !== '' ? doc.clusterCIDR.split(',')[0] : undefined;
  return {
    ok: true,
    settings: { mode, configuredMode, scheduler, ...(clusterCIDR ? { clusterCIDR } : {}), masqueradeAll },
  };
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}
