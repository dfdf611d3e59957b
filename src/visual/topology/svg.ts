/**
 * `renderTopologySvg(model, opts)`: the diagram as an SVG string. Pure (no DOM): it runs in the worker,
 * in Node tests and at export. Every string from the cluster goes through `escapeXml`; ids come from
 * `elementId`, so no object name ever reaches markup unescaped.
 *
 * Elements the packet walk can light up carry `data-el` (their model id); a box standing for several
 * pods (a collapsed workload, "+N more") lists them in `data-members`; an edge names its ends in
 * `data-from` / `data-to`.
 */
import { escapeXml, truncateMiddle } from '../escape.ts';
import { translator, type Locale } from '../strings.ts';
import { layoutTopology, WIDTH, type Box, type NodeLayout, type Route } from './layout.ts';
import { PALETTES, type Palette, type PaletteName } from './palette.ts';
import type { TopologyModel, TopoPolicy, TopoService } from './types.ts';

export interface SvgOptions {
  readonly locale: Locale;
  /** `css` (default) follows the page theme; `light` / `dark` resolve colours for a standalone file. */
  readonly palette?: PaletteName;
  /** Prefix of every XML id, so several diagrams can share a page. */
  readonly idPrefix?: string;
}

const CHAR_W = 6.4;
const fit = (text: string, width: number) =>
  truncateMiddle(text, Math.max(3, Math.floor((width - 12) / CHAR_W)));

/** A text line, shortened to fit, with the full text as a tooltip when shortened. */
function text(x: number, y: number, value: string, cls: string, width?: number, anchor?: 'middle'): string {
  const shown = width === undefined ? value : fit(value, width);
  const tip = shown !== value ? `<title>${escapeXml(value)}</title>` : '';
  return `<text x="${r(x)}" y="${r(y)}" class="${cls}"${anchor ? ` text-anchor="${anchor}"` : ''}>${tip}${escapeXml(shown)}</text>`;
}

const r = (n: number) => Math.round(n * 10) / 10;
const rect = (b: Box, cls: string, rx = 6) =>
  `<rect x="${r(b.x)}" y="${r(b.y)}" width="${r(b.w)}" height="${r(b.h)}" rx="${rx}" class="${cls}"/>`;

/** An orthogonal route as a path, its corners rounded a little so crossing routes read apart. */
function polyline(points: readonly (readonly [number, number])[]): string {
  const out: string[] = [];
  points.forEach(([x, y], i) => {
    const prev = points[i - 1];
    const next = points[i + 1];
    if (!prev) out.push(`M${r(x)} ${r(y)}`);
    else if (!next) out.push(`L${r(x)} ${r(y)}`);
    else {
      // Cut the corner by up to 4 units along both legs (less when a leg is shorter).
      const cut = (a: readonly [number, number], b: readonly [number, number]) => {
        const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
        const k = len === 0 ? 0 : Math.min(4, len / 2) / len;
        return [a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k] as const;
      };
      const [ax, ay] = cut([x, y], prev);
      const [bx, by] = cut([x, y], next);
      out.push(`L${r(ax)} ${r(ay)} Q${r(x)} ${r(y)} ${r(bx)} ${r(by)}`);
    }
  });
  return out.join(' ');
}

function edge(x1: number, y1: number, x2: number, y2: number): string {
  const my = (y1 + y2) / 2;
  return `M${r(x1)} ${r(y1)} C${r(x1)} ${r(my)} ${r(x2)} ${r(my)} ${r(x2)} ${r(y2)}`;
}

function style(p: Palette, palette: PaletteName): string {
  const s = '.pp-topo';
  return `<style>
${s}{font-family:${palette === 'css' ? 'var(--__sl-font, system-ui, sans-serif)' : 'system-ui, sans-serif'};font-size:11px}
${s} .ppt-bg{fill:${palette === 'css' ? 'none' : p.bg}}
${s} .ppt-t{fill:${p.text}}
${s} .ppt-b{fill:${p.text};font-weight:600}
${s} .ppt-m{fill:${p.muted}}
${s} .ppt-h{fill:${p.text};font-weight:600;font-size:12px}
${s} .ppt-halo{paint-order:stroke;stroke:${p.frameFill};stroke-width:4px;stroke-linejoin:round}
${s} .ppt-frame{fill:${p.frameFill};stroke:${p.frame};stroke-width:1.5}
${s} .ppt-frame-o{fill:none;stroke:${p.frame};stroke-width:1.5}
${s} .ppt-pod{fill:${p.box};stroke:${p.frame};stroke-width:1}
${s} .ppt-pod-dns{fill:${p.dnsFill};stroke:${p.dns};stroke-width:1.5}
${s} .ppt-svc{fill:${p.ewFill};stroke:${p.ew};stroke-width:1.5}
${s} .ppt-svc-dns{fill:${p.dnsFill};stroke:${p.dns};stroke-width:1.5}
${s} .ppt-entry{fill:${p.nsFill};stroke:${p.ns};stroke-width:1.5}
${s} .ppt-pol{fill:${p.policyFill};stroke:${p.policy};stroke-width:1.5;stroke-dasharray:4 3}
${s} .ppt-e-ns{fill:none;stroke:${p.ns};stroke-width:2}
${s} .ppt-e-ew{fill:none;stroke:${p.ew};stroke-width:1.5}
${s} .ppt-e-dns{fill:none;stroke:${p.dns};stroke-width:1.5;stroke-dasharray:6 3}
${s} .ppt-e-pol{fill:none;stroke:${p.policy};stroke-width:1.2;stroke-dasharray:2 3}
${s} .ppt-overlay{fill:none;stroke:${p.overlay};stroke-width:6;stroke-linecap:round}
${s} .ppt-tick{fill:none;stroke:${p.overlay};stroke-width:2}
${s} .ppt-mark{fill:${p.ew}}
${s} .ppt-mark-t{fill:${p.ewFill};font-size:9px;font-weight:700}
${s} .ppt-ns{fill:${p.ns}}
${s} .ppt-ew{fill:${p.ew}}
${s} .ppt-dns{fill:${p.dns}}
${s} .ppt-pol-t{fill:${p.policy}}
${s}[data-walking] [data-el]:not(.is-hot),${s}[data-walking] path[data-from]:not(.is-hot){opacity:.35}
${s} .is-hot>rect,${s} rect.is-hot{stroke:${p.hot};stroke-width:3}
${s} path.is-hot{stroke:${p.hot};stroke-width:3;opacity:1}
</style>`;
}

function serviceLines(s: TopoService, t: ReturnType<typeof translator>): string[] {
  const ports = s.ports.map((p) => `${p.port}/${p.protocol} → ${p.targetPort}`);
  const portLine =
    ports.length > 2
      ? `${ports.slice(0, 2).join(', ')} ${t('topo.more', { count: ports.length - 2 })}`
      : ports.join(', ');
  const name = s.namespace === 'default' ? s.name : s.key;
  if (s.dns) return [`${t('topo.dns')} · ${s.name}`, t('topo.dns.service', { ip: s.clusterIP }), portLine];
  return [
    name,
    s.clusterIP === 'None' || s.clusterIP === ''
      ? t('topo.svc.headless')
      : t('topo.svc.clusterIP', { ip: s.clusterIP }),
    portLine,
  ];
}

function policyLines(p: TopoPolicy, model: TopologyModel, t: ReturnType<typeof translator>): string[] {
  const lines = [p.key, t('topo.policy.selects', { selector: p.selector })];
  const rule = (dir: 'Ingress' | 'Egress') => {
    const rules = dir === 'Ingress' ? p.ingress : p.egress;
    if (!p.types.includes(dir)) return undefined;
    if (rules.length === 0)
      return t(dir === 'Ingress' ? 'topo.policy.denyIngress' : 'topo.policy.denyEgress');
    const peers = rules.flatMap((x) => (x.peers.length ? x.peers : [t('topo.policy.anyPeer')]));
    const ports = [...new Set(rules.flatMap((x) => x.ports))];
    const text = `${peers.join(', ')}${ports.length ? ` · ${ports.join(', ')}` : ''}`;
    return t(dir === 'Ingress' ? 'topo.policy.from' : 'topo.policy.to', { peers: text });
  };
  const ing = rule('Ingress');
  const eg = rule('Egress');
  lines.push(
    !model.policyEnforced
      ? t('topo.policy.notEnforced', { cni: model.cni })
      : [ing, eg].filter((x): x is string => x !== undefined).join(' · '),
  );
  return lines;
}

export function overlayText(model: TopologyModel, locale: Locale): string {
  const t = translator(locale);
  const o = model.overlay;
  if (model.nodes.length < 2) return t('topo.overlay.single');
  const device = o.device ?? '';
  let main: string;
  if (o.encapsulation === 'vxlan') main = t('topo.overlay.vxlan', { port: o.udpPort ?? 8472, device });
  else if (o.encapsulation === 'geneve') main = t('topo.overlay.geneve', { port: o.udpPort ?? 6081, device });
  else if (o.encapsulation === 'ipip') main = t('topo.overlay.ipip', { device });
  else if (o.routing === 'bgp') main = t('topo.overlay.bgp');
  else main = t('topo.overlay.native');
  return o.podMtu !== undefined && o.nodeMtu !== undefined
    ? `${main}; ${t('topo.overlay.mtu', { pod: o.podMtu, node: o.nodeMtu })}`
    : main;
}

function nodeSvg(
  n: NodeLayout,
  model: TopologyModel,
  t: ReturnType<typeof translator>,
  pid: (id: string) => string,
): string {
  const { node, box } = n;
  const head = `${node.name}${node.controlPlane ? ` (${t('topo.node.controlPlane')})` : ''}${node.ready ? '' : ` · ${t('topo.node.notReady')}`}`;
  let out = `<g data-el="${node.id}" id="${pid(node.id)}">${rect(box, 'ppt-frame-o', 8)}`;
  out += text(box.x + 8, box.y + 16, head, 'ppt-h ppt-halo', box.w);
  const ip = t('topo.node.ip', { ip: node.ip });
  const cidr = t('topo.node.cidr', { cidr: node.podCIDR });
  if (n.twoLineHeader) {
    out += text(box.x + 8, box.y + 31, ip, 'ppt-m ppt-halo', box.w);
    out += text(box.x + 8, box.y + 45, cidr, 'ppt-m ppt-halo', box.w);
  } else out += text(box.x + 8, box.y + 31, `${ip} · ${cidr}`, 'ppt-m ppt-halo', box.w);
  out += '</g>';
  if (n.items.length === 0) out += text(box.x + 8, box.y + 62, t('topo.node.noPods'), 'ppt-m', box.w);
  for (const it of n.items) {
    const b = it.box;
    if (it.kind === 'pod') {
      const p = it.pod;
      out += `<g data-el="${p.id}" id="${pid(p.id)}">${rect(b, p.role === 'dns' ? 'ppt-pod-dns' : 'ppt-pod', 4)}`;
      out += text(b.x + 6, b.y + 14, p.name, 'ppt-b', b.w);
      out += text(b.x + 6, b.y + 27, p.ip ?? p.phase, 'ppt-m', b.w);
      out += '</g>';
    } else if (it.kind === 'group') {
      const g = it.group;
      const members = g.podKeys
        .map((k) => model.nodes.flatMap((x) => x.pods).find((p) => p.key === k)?.id ?? '')
        .join(' ');
      const ips = g.ips.length > 1 ? `${g.ips[0]} … ${g.ips[g.ips.length - 1]}` : (g.ips[0] ?? '');
      out += `<g data-el="${g.id}" id="${pid(g.id)}" data-members="${members}">${rect(b, g.role === 'dns' ? 'ppt-pod-dns' : 'ppt-pod', 4)}`;
      out += rect({ x: b.x + 3, y: b.y - 3, w: b.w, h: b.h }, 'ppt-pod', 4).replace('/>', ' opacity=".5"/>');
      out += text(
        b.x + 6,
        b.y + 14,
        t('topo.group', {
          workload: g.namespace === 'default' ? g.workload : `${g.namespace}/${g.workload}`,
          count: g.podKeys.length,
        }),
        'ppt-b',
        b.w,
      );
      out += text(b.x + 6, b.y + 27, ips, 'ppt-m', b.w);
      out += '</g>';
    } else {
      out += `<g>${rect(b, 'ppt-pod', 4)}${text(b.x + 6, b.y + 21, t('topo.more', { count: it.count }), 'ppt-m', b.w)}</g>`;
    }
  }
  if (node.hostPods.length > 0) {
    const names = [...new Set(node.hostPods.map((h) => h.workload))].join(', ');
    out += text(
      box.x + 8,
      n.hostLineY,
      t('topo.node.hostNetwork', { count: node.hostPods.length, list: names }),
      'ppt-m',
      box.w,
    );
  }
  return out;
}

export function renderTopologySvg(model: TopologyModel, opts: SvgOptions): string {
  const t = translator(opts.locale);
  const paletteName = opts.palette ?? 'css';
  const p = PALETTES[paletteName];
  const prefix = (opts.idPrefix ?? 'pp-topo').replace(/[^A-Za-z0-9_-]/g, '-');
  const pid = (id: string) => `${prefix}-${id}`;
  const L = layoutTopology(model);
  const podCount =
    model.nodes.reduce((n, x) => n + x.pods.length + x.hostPods.length, 0) + model.unscheduled.length;
  const title = t('topo.title', {
    nodes: model.nodes.length,
    pods: podCount,
    services: model.services.length,
  });
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="pp-topo" viewBox="0 0 ${WIDTH} ${r(L.height)}" width="${WIDTH}" height="${r(L.height)}" role="img" aria-labelledby="${pid('title')} ${pid('desc')}">`,
    `<title id="${pid('title')}">${escapeXml(title)}</title><desc id="${pid('desc')}">${escapeXml(t('topo.desc'))}</desc>`,
    style(p, paletteName),
    `<rect class="ppt-bg" x="0" y="0" width="${WIDTH}" height="${r(L.height)}"/>`,
  );
  // Frames first, edges over them, boxes on top: edges never hide a label.
  const frames = L.nodes.map((n) => rect(n.box, 'ppt-frame', 8)).join('');
  parts.push(`<g aria-hidden="true">${frames}</g>`);

  const edges: string[] = [];
  const svcByKey = new Map(model.services.map((s) => [s.key, s]));
  const svcById = new Map(model.services.map((s) => [s.id, s]));
  const CLASS: Readonly<Record<Route['kind'], string>> = {
    ew: 'ppt-e-ew',
    dns: 'ppt-e-dns',
    pol: 'ppt-e-pol',
  };
  for (const route of L.routes)
    edges.push(
      `<path d="${polyline(route.points)}" class="${CLASS[route.kind]}" data-from="${route.from}" data-to="${route.to.join(' ')}"/>`,
    );
  for (const s of model.services) {
    const sb = L.services.get(s.id);
    const tp = s.ports[0]?.targetPort;
    if (sb && tp && L.routes.some((x) => x.from === s.id))
      edges.push(
        text(
          sb.x + sb.w / 2 + 6,
          sb.y + sb.h + 14,
          `→ :${tp} ${s.ports[0]!.protocol}`,
          `${s.dns ? 'ppt-dns' : 'ppt-ew'} ppt-halo`,
        ),
      );
  }
  if (L.internet) {
    const ib = L.internet;
    for (const e of model.entries) {
      const eb = L.entries.get(e.id)!;
      edges.push(
        `<path d="M${r(ib.x + ib.w)} ${r(ib.y + ib.h / 2)} L${r(eb.x)} ${r(eb.y + eb.h / 2)}" class="ppt-e-ns" data-from="internet" data-to="${e.id}"/>`,
      );
      for (const sk of e.services) {
        const s = svcByKey.get(sk);
        const sb = s && L.services.get(s.id);
        if (!s || !sb) continue;
        edges.push(
          `<path d="${edge(eb.x + eb.w / 2, eb.y + eb.h, sb.x + sb.w / 2, sb.y)}" class="ppt-e-ns" data-from="${e.id}" data-to="${s.id}"/>`,
        );
      }
    }
  }
  parts.push(`<g aria-hidden="true">${edges.join('')}</g>`);

  const body: string[] = [];
  if (L.internet) {
    const ib = L.internet;
    body.push(
      `<g data-el="internet" id="${pid('internet')}">${rect(ib, 'ppt-entry')}${text(ib.x + 8, ib.y + 30, t('topo.internet'), 'ppt-b', ib.w)}</g>`,
    );
  }
  for (const e of model.entries) {
    const b = L.entries.get(e.id)!;
    body.push(
      `<g data-el="${e.id}" id="${pid(e.id)}">${rect(b, 'ppt-entry')}`,
      text(b.x + 8, b.y + 15, `${t(`topo.entry.${e.kind}`)} ${e.key}`, 'ppt-b', b.w),
      text(b.x + 8, b.y + 29, e.listeners.join(', '), 'ppt-ns', b.w),
      text(
        b.x + 8,
        b.y + 43,
        e.addresses.join(', ') ||
          (e.routes.length ? t('topo.entry.routes', { list: e.routes.join(', ') }) : ''),
        'ppt-m',
        b.w,
      ),
      '</g>',
    );
  }
  if (L.servicesLabelY !== undefined)
    body.push(
      text(12, L.servicesLabelY, t('topo.services'), 'ppt-b'),
      text(12, L.servicesLabelY + 14, t(`topo.rewrite.${model.rewrite}`), 'ppt-ew', WIDTH - 24),
    );
  for (const [id, b] of L.services) {
    const s = svcById.get(id)!;
    const [l1, l2, l3] = serviceLines(s, t);
    body.push(
      `<g data-el="${s.id}" id="${pid(s.id)}">${rect(b, s.dns ? 'ppt-svc-dns' : 'ppt-svc')}`,
      text(b.x + 8, b.y + 15, l1!, 'ppt-b', b.w - 40),
      text(b.x + 8, b.y + 30, l2!, 'ppt-t', b.w),
      text(
        b.x + 8,
        b.y + 45,
        s.backends.length === 0 && s.clusterIP !== 'None' ? `${l3} · ${t('topo.svc.noBackends')}` : l3!,
        s.dns ? 'ppt-dns' : 'ppt-ew',
        b.w,
      ),
    );
    if (model.rewrite !== 'none' && s.clusterIP !== 'None')
      body.push(
        `<rect x="${r(b.x + b.w - 38)}" y="${r(b.y + 5)}" width="32" height="14" rx="7" class="ppt-mark"/>`,
        `<text x="${r(b.x + b.w - 22)}" y="${r(b.y + 15)}" text-anchor="middle" class="ppt-mark-t">${escapeXml(t('topo.rewriteMark'))}</text>`,
      );
    body.push('</g>');
  }
  for (const n of L.nodes) body.push(nodeSvg(n, model, t, pid));
  if (L.overlayY !== undefined && L.overlay && L.nodes.length > 0) {
    const y = L.overlayY;
    const o = model.overlay;
    const seg = ([x1, y1, x2, y2]: readonly [number, number, number, number]) =>
      `M${r(x1)} ${r(y1)} L${r(x2)} ${r(y2)}`;
    body.push(`<g data-el="${o.id}" id="${pid(o.id)}">`);
    if (L.overlay.lines.length > 0) {
      // One path: the overlay is one network between all the nodes, however many rows they take.
      body.push(`<path d="${L.overlay.lines.map(seg).join(' ')}" class="ppt-overlay"/>`);
      for (const t of L.overlay.ticks) body.push(`<path d="${seg(t)}" class="ppt-tick"/>`);
    }
    body.push(
      text(WIDTH / 2, y + 20, overlayText(model, opts.locale), 'ppt-b', WIDTH - 24, 'middle'),
      '</g>',
    );
  }
  if (L.unscheduledY !== undefined)
    body.push(
      text(
        12,
        L.unscheduledY + 10,
        t('topo.unscheduled', { list: model.unscheduled.map((x) => x.key).join(', ') }),
        'ppt-m',
        WIDTH - 24,
      ),
    );
  for (const pol of model.policies) {
    const b = L.policies.get(pol.id)!;
    const lines = policyLines(pol, model, t);
    body.push(`<g data-el="${pol.id}" id="${pid(pol.id)}">${rect(b, 'ppt-pol')}`);
    lines.forEach((line, i) =>
      body.push(
        text(b.x + 8, b.y + 16 + i * 15, line, i === 0 ? 'ppt-b' : i === 2 ? 'ppt-pol-t' : 'ppt-t', b.w),
      ),
    );
    if (pol.selects.length === 0)
      body.push(text(b.x + 8, b.y + 58, t('topo.policy.selectsNone'), 'ppt-m', b.w));
    body.push('</g>');
  }
  const legend: [string, string][] = [
    ['ppt-e-ns', t('topo.legend.northSouth')],
    ['ppt-e-ew', t('topo.legend.eastWest')],
    ['ppt-e-dns', t('topo.legend.dns')],
    ['ppt-overlay', t('topo.legend.overlay')],
    ['ppt-e-pol', t('topo.legend.policy')],
  ];
  let lx = 12;
  let ly = L.legendY;
  body.push(`<g class="ppt-legend">${text(lx, ly + 12, `${t('topo.legend')}:`, 'ppt-b')}`);
  lx += 62;
  for (const [cls, label] of legend) {
    const w = 40 + label.length * CHAR_W;
    if (lx + w > WIDTH - 12) {
      lx = 74;
      ly += 18;
    }
    body.push(
      `<path d="M${r(lx)} ${r(ly + 8)} L${r(lx + 24)} ${r(ly + 8)}" class="${cls}"${cls === 'ppt-overlay' ? ' style="stroke-width:4"' : ''}/>`,
    );
    body.push(text(lx + 28, ly + 12, label, 'ppt-t'));
    lx += w;
  }
  body.push('</g>');
  parts.push(body.join(''), '</svg>');
  return parts.join('');
}

/** A standalone SVG file: XML declaration, resolved colours and a background (no page around it). */
export function exportTopologySvg(
  model: TopologyModel,
  locale: Locale,
  theme: 'light' | 'dark' = 'light',
): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${renderTopologySvg(model, { locale, palette: theme, idPrefix: 'pp-topo' })}\n`;
}
