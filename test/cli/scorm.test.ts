/**
 * `packetpath scorm`: the package an LMS imports. The manifest is read by Chromium's own XML parser
 * (well-formed, SCORM 1.2, every file and reference present), and the lab runs in Chromium inside a
 * page that plays the LMS: a SCORM 1.2 API stub on the parent frame, as Moodle, Canvas and Blackboard
 * provide one (ADL SCORM 1.2 RTE §3.3). The score it receives must equal the instructor's re-grade of
 * the report the same page downloads.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScorm } from '../../src/runtime/node-cli/scorm.ts';
import { runGrade } from '../../src/runtime/node-cli/grade.ts';

const LABS = join(import.meta.dirname, '../../labs');
let dir: string;
let files: Record<string, Uint8Array>;
let server: Server;
let base: string;
let browser: Browser;

/** The LMS side: an API object that keeps the data model and logs every call, in order. */
const LMS_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>LMS</title></head><body>
<script>
  window.calls = [];
  window.cmi = { 'cmi.core.lesson_status': 'not attempted', 'cmi.core.student_id': 'u-42', 'cmi.core.student_name': 'Souza, Ana', 'cmi.suspend_data': sessionStorage.getItem('suspend') || '' };
  const log = (name, args, ret) => { window.calls.push([name, ...args]); return ret; };
  window.API = {
    LMSInitialize: (a) => log('LMSInitialize', [a], 'true'),
    LMSFinish: (a) => log('LMSFinish', [a], 'true'),
    LMSGetValue: (k) => log('LMSGetValue', [k], window.cmi[k] ?? ''),
    LMSSetValue: (k, v) => { window.cmi[k] = v; if (k === 'cmi.suspend_data') sessionStorage.setItem('suspend', v); return log('LMSSetValue', [k, v], 'true'); },
    LMSCommit: (a) => log('LMSCommit', [a], 'true'),
    LMSGetLastError: () => '0',
  };
</script>
<iframe id="sco" src="" style="width:1200px;height:900px"></iframe>
</body></html>`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'packetpath-scorm-'));
  const err: string[] = [];
  const code = await runScorm(['00-sandbox', '04-empty-endpoints', '--labs', LABS, '--out', 'pkg.zip'], {
    cwd: dir,
    out: () => {},
    err: (t) => err.push(t),
  });
  expect(err.join('')).toBe('');
  expect(code).toBe(0);
  files = unzipSync(readFileSync(join(dir, 'pkg.zip')));
  const root = join(dir, 'site');
  for (const [name, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), bytes);
  }
  writeFileSync(join(root, 'lms.html'), LMS_PAGE);
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.xml': 'application/xml',
  };
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    try {
      const body = readFileSync(join(root, path));
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openLab(page: Page, lab: string): Promise<Frame> {
  await page.goto(`${base}/lms.html`);
  await page.evaluate(
    (src) => ((document.getElementById('sco') as HTMLIFrameElement).src = src),
    `${lab}/index.html`,
  );
  const frame = await (await page.waitForSelector('#sco')).contentFrame();
  await frame!.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return frame!;
}

async function type(frame: Frame, line: string): Promise<void> {
  await frame.fill('#terminal-input', line);
  await frame.press('#terminal-input', 'Enter');
}

type Call = [string, ...string[]];

async function regrade(report: unknown, lab: string): Promise<{ percent: number; status: string }> {
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
  await runGrade([join(LABS, lab), 'report.json', '--json', 'graded.json'], {
    cwd: dir,
    out: () => {},
    err: () => {},
  });
  const r = JSON.parse(readFileSync(join(dir, 'graded.json'), 'utf8')).reports[0];
  return { percent: r.score.percent, status: r.status };
}

describe('packetpath scorm', { timeout: 120_000 }, () => {
  it('writes a well-formed SCORM 1.2 manifest whose every resource and file is in the zip', async () => {
    const page = await browser.newPage();
    try {
      const text = strFromU8(files['imsmanifest.xml']!);
      const check = await page.evaluate((xml) => {
        const doc = new DOMParser().parseFromString(xml, 'application/xml');
        const error = doc.querySelector('parsererror')?.textContent ?? '';
        const all = (tag: string) => [...doc.getElementsByTagNameNS('*', tag)];
        const adl = 'http://www.adlnet.org/xsd/adlcp_rootv1p2';
        return {
          error,
          root: `${doc.documentElement.namespaceURI} ${doc.documentElement.localName}`,
          schema: all('schema')[0]?.textContent,
          version: all('schemaversion')[0]?.textContent,
          files: all('file').map((f) => f.getAttribute('href')),
          hrefs: all('resource')
            .map((r) => r.getAttribute('href'))
            .filter(Boolean),
          resources: all('resource').map((r) => [
            r.getAttribute('identifier'),
            r.getAttributeNS(adl, 'scormtype'),
          ]),
          refs: [...all('item'), ...all('dependency')].map((e) => e.getAttribute('identifierref')),
          defaultOrg: all('organizations')[0]?.getAttribute('default'),
          orgs: all('organization').map((o) => o.getAttribute('identifier')),
        };
      }, text);
      expect(check.error).toBe('');
      expect(check.root).toBe('http://www.imsproject.org/xsd/imscp_rootv1p1p2 manifest');
      expect([check.schema, check.version]).toEqual(['ADL SCORM', '1.2']);
      expect(check.orgs).toContain(check.defaultOrg);
      for (const f of [...check.files, ...check.hrefs]) expect(Object.keys(files)).toContain(f);
      const ids = check.resources.map(([id]) => id);
      for (const ref of check.refs) expect(ids).toContain(ref);
      expect(check.resources).toEqual([
        ['res-00-sandbox', 'sco'],
        ['res-04-empty-endpoints', 'sco'],
        ['player', 'asset'],
      ]);
      // Every file in the zip is declared (nothing the LMS would not know to serve).
      expect(Object.keys(files).sort()).toEqual([...new Set(check.files)].concat('imsmanifest.xml').sort());
    } finally {
      await page.close();
    }
  });

  it('reports to the LMS the score the instructor re-grades, and passed when every check passes', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      const frame = await openLab(page, '00-sandbox');
      await type(frame, 'kubectl apply -f web.yaml');
      let calls = (await page.evaluate('window.calls')) as Call[];
      expect(calls[0]).toEqual(['LMSInitialize', '']);
      expect(calls.filter((c) => c[0] === 'LMSInitialize')).toHaveLength(1);
      expect(calls).toContainEqual(['LMSSetValue', 'cmi.core.lesson_status', 'incomplete']);
      const raw = () => page.evaluate("window.cmi['cmi.core.score.raw']") as Promise<string>;
      const partial = await regrade(await frame.evaluate('window.packetpathReport()'), '00-sandbox');
      expect(partial.status).toBe('ok');
      expect(await raw()).toBe(String(partial.percent));
      expect(partial.percent).toBeGreaterThan(0);
      expect(partial.percent).toBeLessThan(100);

      for (const line of [
        'kubectl scale deployment web --replicas=3',
        'kubectl expose deployment web --port=80',
        'kubectl get endpointslices',
      ])
        await type(frame, line);
      await frame.waitForFunction(() =>
        document.querySelector('#check-summary')?.textContent?.startsWith('Every check passes'),
      );
      const full = await regrade(await frame.evaluate('window.packetpathReport()'), '00-sandbox');
      expect(full).toEqual({ percent: 100, status: 'ok' });
      expect(await raw()).toBe('100');
      const cmi = (await page.evaluate('window.cmi')) as Record<string, string>;
      expect(cmi['cmi.core.score.min']).toBe('0');
      expect(cmi['cmi.core.score.max']).toBe('100');
      expect(cmi['cmi.core.lesson_status']).toBe('passed');
      expect(cmi['cmi.suspend_data']!.length).toBeLessThanOrEqual(4096);
      calls = (await page.evaluate('window.calls')) as Call[];
      const lastSet = calls.map((c) => c[0]).lastIndexOf('LMSSetValue');
      expect(calls.slice(lastSet + 1).map((c) => c[0])).toContain('LMSCommit');

      // Leaving commits and finishes; coming back replays the journal from cmi.suspend_data.
      await page.evaluate(() => ((document.getElementById('sco') as HTMLIFrameElement).src = 'about:blank'));
      await page.waitForFunction(() =>
        (window as unknown as { calls: string[][] }).calls.some((c) => c[0] === 'LMSFinish'),
      );
      const again = await openLab(page, '00-sandbox');
      expect(await again.textContent('#terminal-output')).toContain('Restored where you left off.');
      expect(await again.textContent('#check-summary')).toBe('Every check passes. Well done!');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the second lab of the package reports on its own, its hidden check included', async () => {
    const page = await browser.newPage();
    try {
      const frame = await openLab(page, '04-empty-endpoints');
      await type(frame, 'kubectl -n shop get endpointslices');
      const graded = await regrade(await frame.evaluate('window.packetpathReport()'), '04-empty-endpoints');
      expect(graded.status).toBe('ok');
      expect(await page.evaluate("window.cmi['cmi.core.score.raw']")).toBe(String(graded.percent));
      expect(await page.evaluate("window.cmi['cmi.core.lesson_status']")).toBe('incomplete');
    } finally {
      await page.close();
    }
  });

  it('asks the lab questions in the package; the answer counts in the score and comes back on return', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      const frame = await openLab(page, '04-empty-endpoints');
      const raw = () => page.evaluate("window.cmi['cmi.core.score.raw']") as Promise<string>;
      const before = Number(await raw());
      const quiz = frame.locator('form[data-quiz="quiz-refused"]');
      await expect(quiz.locator('legend').textContent()).resolves.toContain('why did curl fail at once');
      await quiz.locator('input[value="reject"]').check();
      await quiz.locator('button[type="submit"]').click();
      await frame.waitForSelector('#check-list li[data-state="passed"] >> text=Why "refused"');
      const report = await frame.evaluate('window.packetpathReport()');
      expect((report as { submission: { quizAnswers: unknown } }).submission.quizAnswers).toEqual({
        'quiz-refused': ['reject'],
      });
      const graded = await regrade(report, '04-empty-endpoints');
      expect(Number(await raw())).toBe(graded.percent);
      expect(graded.percent).toBeGreaterThan(before);

      await page.evaluate(() => ((document.getElementById('sco') as HTMLIFrameElement).src = 'about:blank'));
      const again = await openLab(page, '04-empty-endpoints');
      expect(await again.isChecked('form[data-quiz="quiz-refused"] input[value="reject"]')).toBe(true);
      expect(Number(await raw())).toBe(graded.percent);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('a session too long for cmi.suspend_data keeps the files and passed checks, and tells the learner', async () => {
    const page = await browser.newPage();
    try {
      const frame = await openLab(page, '00-sandbox');
      for (const line of [
        'kubectl apply -f web.yaml',
        'kubectl scale deployment web --replicas=3',
        'kubectl expose deployment web --port=80',
        'kubectl get endpointslices',
        'kubectl get deploy web -o yaml > web-live.yaml',
      ])
        await type(frame, line);
      // A line deflate cannot shrink: the journal no longer fits in 4,096 characters.
      let x = 1;
      let noise = '';
      while (noise.length < 6000) noise += ((x = (x * 1103515245 + 12345) >>> 0) >>> 8).toString(36);
      await type(frame, `: ${noise}`);
      await frame.waitForFunction(() => document.querySelector('#status')?.textContent?.includes('4,096'));
      expect(await frame.textContent('#status')).toContain(
        'It keeps your files, your answers and the checks you passed',
      );
      const cmi = (await page.evaluate('window.cmi')) as Record<string, string>;
      expect(cmi['cmi.suspend_data']!.length).toBeLessThanOrEqual(4096);
      expect(cmi['cmi.core.score.raw']).toBe('100');

      // Coming back: a fresh cluster with the learner's files; the checks they passed still count.
      await page.evaluate(() => ((document.getElementById('sco') as HTMLIFrameElement).src = 'about:blank'));
      const again = await openLab(page, '00-sandbox');
      expect(await again.textContent('#terminal-output')).toContain('the cluster started over');
      await type(again, 'ls');
      await again.waitForFunction(() =>
        document.querySelector('#terminal-output')?.textContent?.includes('web-live.yaml'),
      );
      expect(await page.evaluate("window.cmi['cmi.core.score.raw']")).toBe('100');
      expect(await page.evaluate("window.cmi['cmi.core.lesson_status']")).toBe('passed');
    } finally {
      await page.close();
    }
  });

  it('refuses bad usage in one line', async () => {
    const run = async (...argv: string[]) => {
      const err: string[] = [];
      const code = await runScorm(argv, { cwd: dir, out: () => {}, err: (t) => err.push(t) });
      return { code, err: err.join('').split('\n')[0] };
    };
    expect(await run('00-sandbox', '--labs', LABS)).toEqual({
      code: 2,
      err: 'packetpath scorm: give at least one lab and --out FILE.zip',
    });
    expect(await run('00-sandbox', '--labs', LABS, '--out', 'x.tar')).toEqual({
      code: 2,
      err: 'packetpath scorm: --out must name a .zip file (what an LMS imports)',
    });
    expect((await run('nope', '--labs', LABS, '--out', 'x.zip')).err).toMatch(
      /^packetpath scorm: nope: .*no such file/,
    );
  });
});
