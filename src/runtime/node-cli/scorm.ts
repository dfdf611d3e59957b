/**
 * `packetpath scorm LAB... --out FILE.zip [--locale en|pt-BR] [--labs DIR] [--title TEXT]`: a SCORM 1.2
 * content package of the labs, for Moodle, Canvas, Blackboard or any SCORM 1.2 LMS. Each lab is one
 * SCO (`LAB/index.html`, the lab's data inline) sharing one player script, bundled here from
 * src/runtime/scorm/ with the site's own bundler (Vite). The package is static: the LMS serves the
 * files and provides the API; the lab grades in the learner's browser and reports its score.
 */
import { zipSync, strToU8 } from 'fflate';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLabFromDir } from '../../grader/node/load-lab.ts';
import type { LoadedLab, Locale } from '../../grader/index.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { isLocaleArg } from './grade-deps.ts';
import { resolveLabDir } from './grade.ts';
import { processIO, type CliIO } from './grade-io.ts';

const USAGE =
  'usage: packetpath scorm LAB... --out FILE.zip [--locale en|pt-BR] [--labs DIR] [--title TEXT]\n';

const PLAYER_ENTRY = fileURLToPath(new URL('../scorm/player.ts', import.meta.url));

const xml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The player script, bundled once per package: the lab session, the engine, the grader, the SCORM bridge. */
export async function bundlePlayer(): Promise<string> {
  const { build } = await import('vite');
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      lib: { entry: PLAYER_ENTRY, formats: ['iife'], name: 'PacketPathScorm', fileName: () => 'player.js' },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const o of outputs) {
    if (!('output' in o)) continue;
    const chunk = o.output.find((c) => c.type === 'chunk');
    if (chunk && chunk.type === 'chunk') return chunk.code;
  }
  throw new Error('the player bundle came out empty');
}

const TEXT = {
  en: {
    steps: 'Steps',
    terminal: 'Terminal',
    input: 'Command line',
    run: 'Run',
    check: 'Check',
    hint: 'Hint',
    solution: 'Solution',
    report: 'Download report',
    checks: 'Checks',
    hints: 'Hints',
    questions: 'Questions',
    noscript: 'This lab needs JavaScript.',
  },
  'pt-BR': {
    steps: 'Passos',
    terminal: 'Terminal',
    input: 'Linha de comando',
    run: 'Executar',
    check: 'Verificar',
    hint: 'Dica',
    solution: 'Solução',
    report: 'Baixar relatório',
    checks: 'Verificações',
    hints: 'Dicas',
    questions: 'Perguntas',
    noscript: 'Este lab precisa de JavaScript.',
  },
} as const;

export const PLAYER_CSS = `:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--pass:#1a7f37;--fail:#cf222e;--term:#0d1117;--termfg:#e6edf3;--accent:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--pass:#3fb950;--fail:#f85149;--term:#010409;--accent:#4493f8}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:70rem;margin:0 auto;padding:1rem 1.25rem 3rem}h1{font-size:1.5rem;margin:.2rem 0 .4rem}h2{font-size:1.1rem;margin:1.2rem 0 .4rem}
code{font-family:ui-monospace,monospace;font-size:.9em}.muted{color:var(--muted)}
.grid{display:grid;gap:1rem;grid-template-columns:minmax(0,3fr) minmax(0,2fr)}@media (max-width:50rem){.grid{grid-template-columns:1fr}}
#terminal-output{background:var(--term);color:var(--termfg);min-height:16rem;max-height:28rem;overflow:auto;margin:0;padding:.6rem;border-radius:6px 6px 0 0;font:13px/1.45 ui-monospace,monospace;white-space:pre-wrap}
#terminal{display:flex;gap:.4rem;align-items:center;background:var(--term);color:var(--termfg);padding:.3rem .6rem;border-radius:0 0 6px 6px;font:13px ui-monospace,monospace}
#terminal input{flex:1;min-width:0;background:transparent;color:inherit;border:1px solid #30363d;border-radius:4px;padding:.3rem;font:inherit}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:.8rem 0}button{font:inherit;padding:.35rem .8rem;border-radius:6px;border:1px solid var(--line);background:var(--bg);color:var(--fg);cursor:pointer}
button:focus-visible,input:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
#check-list{list-style:none;padding:0}#check-list li{padding:.4rem 0;border-bottom:1px solid var(--line)}
#check-list li[data-state=passed] strong{color:var(--pass)}#check-list li[data-state=failed] strong{color:var(--fail)}.why{color:var(--muted);font-size:.92rem}
#quiz fieldset{border:1px solid var(--line);border-radius:6px;margin:0 0 .8rem;padding:.5rem .8rem}#quiz legend{padding:0 .3rem}#quiz label{display:block;padding:.2rem 0}#quiz button{margin-top:.4rem}
#solution-box pre{background:var(--term);color:var(--termfg);padding:.6rem;border-radius:6px;overflow:auto}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

/** One SCO: the lab page, its data inline (a `</script>` in a manifest cannot end the block early). */
export function labPage(loaded: LoadedLab, locale: Locale): string {
  const t = TEXT[locale];
  const data = JSON.stringify(loaded).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(loaded.lab.title[locale])}</title>
<link rel="stylesheet" href="../player.css">
</head>
<body>
<main>
<h1 id="lab-title">${html(loaded.lab.title[locale])}</h1>
<p id="lab-summary" class="muted"></p>
<noscript><p>${t.noscript}</p></noscript>
<div class="grid">
<section aria-labelledby="terminal-heading">
<h2 id="terminal-heading">${t.terminal}</h2>
<pre id="terminal-output" tabindex="0" aria-live="polite"></pre>
<form id="terminal"><span id="terminal-prompt" aria-hidden="true"></span><label class="sr-only" for="terminal-input">${t.input}</label><input id="terminal-input" autocomplete="off" autocapitalize="off" spellcheck="false"><button type="submit">${t.run}</button></form>
<div class="actions"><button type="button" id="check">${t.check}</button><button type="button" id="hint">${t.hint}</button><button type="button" id="solution">${t.solution}</button><button type="button" id="report">${t.report}</button></div>
<p id="status" role="status"></p>
<ol id="hints" hidden aria-label="${t.hints}"></ol>
<div id="solution-box" hidden></div>
</section>
<section aria-labelledby="steps-heading">
<h2 id="steps-heading">${t.steps}</h2>
<ol id="lab-steps"></ol>
<h2>${t.checks}</h2>
<p id="check-summary" role="status"></p>
<ul id="check-list"></ul>
<div id="quiz" hidden><h2>${t.questions}</h2></div>
</section>
</div>
</main>
<script type="application/json" id="packetpath-lab">${data}</script>
<script src="../player.js"></script>
</body>
</html>
`;
}

/** imsmanifest.xml: SCORM 1.2 (ADL SCORM 1.2 Content Aggregation Model, §2.3), one SCO per lab. */
export function manifest(labs: readonly LoadedLab[], locale: Locale, title: string): string {
  const items = labs
    .map(
      (l) => `      <item identifier="item-${l.lab.id}" identifierref="res-${l.lab.id}" isvisible="true">
        <title>${xml(l.lab.title[locale])}</title>
      </item>`,
    )
    .join('\n');
  const resources = labs
    .map(
      (
        l,
      ) => `    <resource identifier="res-${l.lab.id}" type="webcontent" adlcp:scormtype="sco" href="${l.lab.id}/index.html">
      <file href="${l.lab.id}/index.html"/>
      <dependency identifierref="player"/>
    </resource>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="packetpath-${labs.map((l) => l.lab.id).join('-')}" version="1"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="packetpath">
    <organization identifier="packetpath">
      <title>${xml(title)}</title>
${items}
    </organization>
  </organizations>
  <resources>
${resources}
    <resource identifier="player" type="webcontent" adlcp:scormtype="asset">
      <file href="player.js"/>
      <file href="player.css"/>
    </resource>
  </resources>
</manifest>
`;
}

/** The package's files, in a fixed order with a fixed time, so the same labs make the same zip. */
export function packageZip(
  labs: readonly LoadedLab[],
  locale: Locale,
  title: string,
  player: string,
): Uint8Array {
  const mtime = new Date('2026-01-01T00:00:00Z');
  const files: Record<string, [Uint8Array, { mtime: Date }]> = {
    'imsmanifest.xml': [strToU8(manifest(labs, locale, title)), { mtime }],
    'player.js': [strToU8(player), { mtime }],
    'player.css': [strToU8(PLAYER_CSS), { mtime }],
  };
  for (const l of labs) files[`${l.lab.id}/index.html`] = [strToU8(labPage(l, locale)), { mtime }];
  return zipSync(files, { level: 9 });
}

export async function runScorm(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  const ids: string[] = [];
  let out: string | undefined;
  let locale: Locale = 'en';
  let labsDir: string | undefined;
  let title: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-h' || a === '--help') {
      io.out(USAGE);
      return 0;
    }
    const eq = a.indexOf('=');
    const [flag, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if (!flag.startsWith('-')) {
      ids.push(a);
      continue;
    }
    if (!['--out', '--locale', '--labs', '--title'].includes(flag)) {
      io.err(`packetpath scorm: unknown flag: ${flag}\n${USAGE}`);
      return 2;
    }
    const v = inline ?? argv[++i];
    if (v === undefined || v === '') {
      io.err(`packetpath scorm: ${flag} needs a value\n${USAGE}`);
      return 2;
    }
    if (flag === '--out') out = v;
    else if (flag === '--labs') labsDir = v;
    else if (flag === '--title') title = v;
    else if (isLocaleArg(v)) locale = v;
    else {
      io.err(`packetpath scorm: --locale must be en or pt-BR\n${USAGE}`);
      return 2;
    }
  }
  if (ids.length === 0 || out === undefined) {
    io.err(`packetpath scorm: give at least one lab and --out FILE.zip\n${USAGE}`);
    return 2;
  }
  if (!out.endsWith('.zip')) {
    io.err('packetpath scorm: --out must name a .zip file (what an LMS imports)\n');
    return 2;
  }
  const labs: LoadedLab[] = [];
  for (const id of ids) {
    try {
      labs.push(loadLabFromDir(resolveLabDir(id, io.cwd, labsDir)));
    } catch (e) {
      io.err(`packetpath scorm: ${basename(id)}: ${(e as Error).message.split('\n')[0]}\n`);
      return 2;
    }
  }
  const repeated = labs.find((l, i) => labs.findIndex((m) => m.lab.id === l.lab.id) !== i);
  if (repeated) {
    io.err(`packetpath scorm: lab ${repeated.lab.id} is given twice\n`);
    return 2;
  }
  let player: string;
  try {
    player = await bundlePlayer();
  } catch (e) {
    io.err(`packetpath scorm: cannot bundle the lab player: ${(e as Error).message.split('\n')[0]}\n`);
    return 1;
  }
  const zip = packageZip(
    labs,
    locale,
    title ?? `Packet Path: ${labs.map((l) => l.lab.title[locale]).join(', ')}`,
    player,
  );
  try {
    writeFileAtomic(resolve(io.cwd, out), zip);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    io.err(
      `packetpath scorm: cannot write ${out}: ${code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}\n`,
    );
    return 1;
  }
  io.out(
    `${out}: SCORM 1.2 package, ${labs.length} lab${labs.length > 1 ? 's' : ''} (${labs.map((l) => l.lab.id).join(', ')}), ${Math.round(zip.length / 1024)} KiB\n`,
  );
  return 0;
}
