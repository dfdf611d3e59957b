import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LabError, parseLab } from './lab-parse.ts';
import { parseReport, ReportError, REPORT_FORMAT } from './report.ts';

describe('hostile input', () => {
  it('parseReport rejects any JSON that is not a report with a ReportError, never a crash', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(() => parseReport(JSON.stringify(value))).toThrow(ReportError);
      }),
      { numRuns: 300 },
    );
  });

  it('parseReport rejects mutated report headers and prototype keys', () => {
    const head = { format: REPORT_FORMAT, version: 1 };
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 }), (extra) => {
        expect(() => parseReport(JSON.stringify({ ...extra, ...head }))).toThrow(ReportError);
      }),
      { numRuns: 200 },
    );
    expect(() =>
      parseReport(`{"format":"${REPORT_FORMAT}","version":1,"__proto__":{"polluted":true}}`),
    ).toThrow(ReportError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parseLab turns any text into a lab or a LabError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          parseLab('fuzz.yaml', text);
        } catch (e) {
          expect(e).toBeInstanceOf(LabError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
