/**
 * Custom resources print the columns their CRDs declare (additionalPrinterColumns, evaluated by the
 * API server): Gateway API (gateway-api `apis/v1` kubebuilder markers) and MetalLB (config/crd). A
 * list value prints as JSON (`["a.example"]`); a missing value prints as an empty cell.
 */
import type {
  AnyObject,
  Gateway,
  GatewayClass,
  HTTPRoute,
  IPAddressPool,
  L2Advertisement,
} from '../../api/objects.ts';
import { age } from './duration.ts';
import type { TableDef } from './table.ts';

function cell(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

type Conditions = readonly { type: string; status: string }[] | undefined;

function conditionStatus(conds: Conditions, type: string): string | undefined {
  return conds?.find((c) => c.type === type)?.status;
}

export const gatewayClassTable: TableDef<GatewayClass> = {
  columns: [
    { name: 'Name' },
    { name: 'Controller' },
    { name: 'Accepted' },
    { name: 'Age' },
    { name: 'Description', wide: true },
  ],
  row(gc, ctx) {
    return [
      gc.metadata.name,
      gc.spec?.controllerName,
      conditionStatus(gc.status?.conditions, 'Accepted'),
      age(gc.metadata.creationTimestamp, ctx.now),
      gc.spec?.description,
    ];
  },
};

export const gatewayTable: TableDef<Gateway> = {
  columns: [
    { name: 'Name' },
    { name: 'Class' },
    { name: 'Address' },
    { name: 'Programmed' },
    { name: 'Age' },
  ],
  row(gw, ctx) {
    const addresses = gw.status?.addresses?.map((a) => a.value) ?? [];
    return [
      gw.metadata.name,
      gw.spec?.gatewayClassName,
      addresses.length > 0 ? addresses.join(' ') : undefined,
      conditionStatus(gw.status?.conditions, 'Programmed'),
      age(gw.metadata.creationTimestamp, ctx.now),
    ];
  },
};

export const httpRouteTable: TableDef<HTTPRoute> = {
  columns: [{ name: 'Name' }, { name: 'Hostnames' }, { name: 'Age' }],
  row(r, ctx) {
    return [r.metadata.name, cell(r.spec?.hostnames), age(r.metadata.creationTimestamp, ctx.now)];
  },
};

export const ipAddressPoolTable: TableDef<IPAddressPool> = {
  columns: [{ name: 'Name' }, { name: 'Auto Assign' }, { name: 'Avoid Buggy IPs' }, { name: 'Addresses' }],
  row(p) {
    return [
      p.metadata.name,
      cell(p.spec?.autoAssign ?? true),
      cell(p.spec?.avoidBuggyIPs ?? false),
      cell(p.spec?.addresses),
    ];
  },
};

export const l2AdvertisementTable: TableDef<L2Advertisement> = {
  columns: [
    { name: 'Name' },
    { name: 'IPAddressPools' },
    { name: 'IPAddressPool Selectors' },
    { name: 'Interfaces' },
  ],
  row(a) {
    const spec = a.spec as (L2Advertisement['spec'] & { ipAddressPoolSelectors?: unknown }) | undefined;
    return [
      a.metadata.name,
      cell(spec?.ipAddressPools),
      cell(spec?.ipAddressPoolSelectors),
      cell(spec?.interfaces),
    ];
  },
};

/** The fallback for kinds without a printer: NAME and AGE (the server's default table). */
export const defaultTable: TableDef<AnyObject> = {
  columns: [{ name: 'Name' }, { name: 'Age' }],
  row(o, ctx) {
    return [o.metadata.name, age(o.metadata.creationTimestamp, ctx.now)];
  },
};
