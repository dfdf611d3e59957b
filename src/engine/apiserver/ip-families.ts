/**
 * alloc.go `initIPFamilyFields` for the engine's single-stack IPv4 clusters: ipFamilyPolicy defaults to
 * SingleStack (RequireDualStack with both families for a headless Service without selector, as
 * upstream's special case does), IPv6 requests and RequireDualStack are refused with upstream's texts,
 * and `clusterIPs` is initialised from `clusterIP` as the v1 conversion does.
 */
import { invalid } from '../api/errors.ts';
import { parseIPv4 } from '../util/ip.ts';
import { isPlainObject } from '../util/json.ts';
import { causesOf, invalidValue, type FieldError } from './field-errors.ts';
import { isHeadless, type Spec } from './service-fields.ts';

export function initIPFamilyFields(spec: Spec, name: string): void {
  if (
    spec.clusterIP !== undefined &&
    spec.clusterIP !== '' &&
    (!Array.isArray(spec.clusterIPs) || spec.clusterIPs.length === 0)
  ) {
    spec.clusterIPs = [spec.clusterIP];
  }
  const selectorless = !isPlainObject(spec.selector) || Object.keys(spec.selector).length === 0;
  if (spec.ipFamilyPolicy === undefined) {
    spec.ipFamilyPolicy = isHeadless(spec) && selectorless ? 'RequireDualStack' : 'SingleStack';
  }
  const errors: FieldError[] = [];
  const clusterIPs = Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as unknown[]) : [];
  clusterIPs.forEach((ip, i) => {
    if (ip === 'None' || ip === '' || typeof ip !== 'string') return;
    if (parseIPv4(ip) === undefined) {
      const family = ip.includes(':') ? 'IPv6' : undefined;
      errors.push(
        invalidValue(
          `spec.clusterIPs[${i}]`,
          family ? clusterIPs : ip,
          family
            ? `${family} is not configured on this cluster`
            : 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        ),
      );
    }
  });
  const families = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as unknown[]) : [];
  if (isHeadless(spec) && selectorless) {
    if (families.length === 0) spec.ipFamilies = ['IPv4'];
    if ((spec.ipFamilies as unknown[]).length < 2 && spec.ipFamilyPolicy !== 'SingleStack') {
      spec.ipFamilies = [
        ...(spec.ipFamilies as unknown[]),
        (spec.ipFamilies as unknown[])[0] === 'IPv6' ? 'IPv4' : 'IPv6',
      ];
    }
  } else {
    if (spec.ipFamilyPolicy === 'RequireDualStack') {
      errors.push(
        invalidValue(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy,
          'this cluster is not configured for dual-stack services',
        ),
      );
    }
    families.forEach((f, i) => {
      if (f !== 'IPv4')
        errors.push(invalidValue(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
    });
    if (families.length === 0) spec.ipFamilies = ['IPv4'];
  }
  if (errors.length > 0) throw invalid('Service', name, causesOf(errors));
}
