/**
 * Reports inside a zip, as an LMS hands them over ("download all submissions"). The archive is
 * untrusted: entries are inflated as a stream and stopped at the size a report may have, whatever
 * their headers claim (a zip bomb declares small sizes), there is a cap on entries and on the total,
 * and nothing is ever written to disk under an entry's name. Only `*.json` entries are read; each
 * problem is one line naming the entry.
 */
import { Unzip, UnzipInflate, strFromU8 } from 'fflate';

/** As the CLI's limit on one report file. */
export const MAX_REPORT_BYTES = 50 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 10_000;
export const MAX_ZIP_TOTAL = 1024 * 1024 * 1024;

export interface ZipReports {
  readonly files: { readonly name: string; readonly text: string }[];
  /** One line each: an entry skipped, and why. */
  readonly problems: string[];
}

export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

/** The `*.json` entries of a zip, inflated within bounds. A file that is not a zip at all is a ZipError. */
export function reportsFromZip(bytes: Uint8Array, label = 'archive'): ZipReports {
  // "PK\x03\x04" (a local file header) or "PK\x05\x06" (an empty archive's end record).
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b)
    throw new ZipError(`${label}: not a zip archive`);
  const files: { name: string; text: string }[] = [];
  const problems: string[] = [];
  let entries = 0;
  let total = 0;
  let stopped = false;
  const unzip = new Unzip((file) => {
    if (stopped) return;
    if (++entries > MAX_ZIP_ENTRIES) {
      stopped = true;
      problems.push(`${label}: more than ${MAX_ZIP_ENTRIES} entries: the rest were not read`);
      return;
    }
    const name = file.name;
    // Folders, other files, macOS's __MACOSX/ copies and dotfiles (`._report.json`) are not reports.
    const base = name.slice(name.lastIndexOf('/') + 1);
    if (
      name.endsWith('/') ||
      !base.toLowerCase().endsWith('.json') ||
      base.startsWith('.') ||
      /(^|\/)__MACOSX\//.test(name)
    )
      return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    let dropped = false;
    file.ondata = (err, data, final) => {
      if (dropped) return;
      if (err) {
        dropped = true;
        problems.push(`${label}: ${name}: damaged entry (${err.message})`);
        return;
      }
      size += data.length;
      total += data.length;
      if (size > MAX_REPORT_BYTES || total > MAX_ZIP_TOTAL) {
        dropped = true;
        file.terminate();
        problems.push(
          size > MAX_REPORT_BYTES
            ? `${label}: ${name}: larger than ${MAX_REPORT_BYTES / 1024 / 1024} MB uncompressed: not read`
            : `${label}: ${name}: the archive holds more than ${MAX_ZIP_TOTAL / 1024 / 1024 / 1024} GB uncompressed: not read`,
        );
        return;
      }
      chunks.push(data);
      if (final) {
        const all = new Uint8Array(size);
        let at = 0;
        for (const c of chunks) {
          all.set(c, at);
          at += c.length;
        }
        files.push({ name, text: strFromU8(all) });
      }
    };
    try {
      file.start();
    } catch (e) {
      problems.push(`${label}: ${name}: cannot be read (${e instanceof Error ? e.message : String(e)})`);
    }
  });
  unzip.register(UnzipInflate);
  try {
    unzip.push(bytes, true);
  } catch (e) {
    throw new ZipError(`${label}: damaged zip archive (${e instanceof Error ? e.message : String(e)})`);
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { files, problems };
}
