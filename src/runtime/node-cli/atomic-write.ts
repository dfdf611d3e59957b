/**
 * Files written whole or not at all: the text goes to a temporary name beside the target, then a
 * rename puts it in place (atomic on one filesystem), so an interrupted run or a full disk never
 * leaves half a gradebook or half a report where the old one was.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const tmpName = (path: string) => join(dirname(path), `.${process.pid}.${Date.now()}.tmp`);

export function writeFileAtomic(path: string, text: string | Uint8Array): void {
  const tmp = tmpName(path);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * A new folder of files, made under a temporary name and renamed into place once every file is in
 * it. An existing folder is only replaced when empty: an instructor's own files are never mixed in.
 */
export function writeFolderAtomic(path: string, files: ReadonlyMap<string, string>): void {
  if (existsSync(path) && readdirSync(path).length > 0)
    throw Object.assign(new Error(`${path} exists and is not empty`), { code: 'ENOTEMPTY' });
  const tmp = tmpName(path);
  try {
    for (const [name, text] of files) {
      mkdirSync(dirname(join(tmp, name)), { recursive: true });
      writeFileSync(join(tmp, name), text);
    }
    if (files.size === 0) mkdirSync(tmp);
    rmSync(path, { recursive: true, force: true });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
