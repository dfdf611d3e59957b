import { describe, expect, it } from 'vitest';
import { LabError, parseLab } from './lab-parse.ts';

const minimal = `
id: 00-sample
version: 1
title: { pt-BR: Amostra, en: Sample }
summary: { pt-BR: Um lab mínimo, en: A minimal lab }
steps:
  - { pt-BR: Crie o Service, en: Create the Service }
checks:
  - id: svc
    title: { pt-BR: O Service existe, en: The Service exists }
    type: resource
    resource: services
    name: web
hints:
  - { pt-BR: a, en: a }
  - { pt-BR: b, en: b }
  - { pt-BR: c, en: c }
solution:
  commands: [kubectl create service clusterip web --tcp=80:80]
`;

describe('parseLab', () => {
  it('accepts a minimal lab and fills defaults', () => {
    const { lab } = parseLab('lab.yaml', minimal);
    expect(lab.seed).toBe(1);
    expect(lab.setup).toEqual([]);
    expect(lab.checks[0]).toMatchObject({ type: 'resource', exists: true, hidden: false });
  });

  it('names the file and the path of each problem', () => {
    const bad = minimal.replace('en: Sample', 'fr: Exemple').replace('type: resource', 'type: vibes');
    expect(() => parseLab('labs/00-sample/lab.yaml', bad)).toThrow(LabError);
    try {
      parseLab('labs/00-sample/lab.yaml', bad);
    } catch (e) {
      const text = (e as Error).message;
      expect(text).toMatch(/^labs\/00-sample\/lab\.yaml: title/m);
      expect(text).toMatch(/checks\[0\]\.type/);
    }
  });

  it('requires exactly three hints and unique check ids', () => {
    expect(() => parseLab('x', minimal.replace('  - { pt-BR: c, en: c }\n', ''))).toThrow(/hints/);
    const dup = minimal.replace(
      'hints:',
      '  - id: svc\n    title: { pt-BR: x, en: x }\n    type: history\n    matches: kubectl\nhints:',
    );
    expect(() => parseLab('x', dup)).toThrow(/checks\[1\]\.id: duplicate check id "svc"/);
  });

  it('rejects YAML errors and alias bombs with a message, not a crash', () => {
    expect(() => parseLab('x', 'id: [')).toThrow(LabError);
    const bomb =
      'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n';
    expect(() => parseLab('x', bomb)).toThrow(LabError);
  });
});
