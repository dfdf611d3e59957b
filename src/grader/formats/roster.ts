/**
 * The instructor's roster: a CSV that maps the name a learner typed into their report to the
 * identity the LMS knows (e-mail, username, Canvas ids, section). The header names the columns, in
 * any order and case: `name` (required; `learner` also works) and any of `email`, `username`, `id`,
 * `sis_user_id`, `sis_login_id`, `section`. Names match ignoring case, accents' composition and
 * repeated spaces, the way a person typing their own name varies.
 */
import { CsvError, parseCsv } from './csv.ts';

export interface Identity {
  /** As the roster (or, without one, the report) spells it. */
  readonly name: string;
  readonly email?: string;
  readonly username?: string;
  /** Canvas user id. */
  readonly id?: string;
  readonly sisUserId?: string;
  readonly sisLoginId?: string;
  readonly section?: string;
}

export class RosterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RosterError';
  }
}

const COLUMNS: Readonly<Record<string, keyof Identity>> = {
  name: 'name',
  learner: 'name',
  email: 'email',
  'e-mail': 'email',
  username: 'username',
  id: 'id',
  sis_user_id: 'sisUserId',
  sis_login_id: 'sisLoginId',
  section: 'section',
};

/** Bigger than any class list; a bigger file is the wrong file. */
export const MAX_ROSTER_BYTES = 5 * 1024 * 1024;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The key a name is matched by. */
export function nameKey(name: string): string {
  return name.normalize('NFC').replace(/\s+/g, ' ').trim().toLocaleLowerCase('en');
}

export function looksLikeEmail(text: string): boolean {
  return EMAIL.test(text);
}

export class Roster {
  private readonly byName: ReadonlyMap<string, Identity>;

  constructor(entries: readonly Identity[]) {
    this.byName = new Map(entries.map((e) => [nameKey(e.name), e]));
  }

  get size(): number {
    return this.byName.size;
  }

  find(learner: string): Identity | undefined {
    return this.byName.get(nameKey(learner));
  }
}

/** Parses a roster CSV; every problem is a RosterError of one line, naming the file's line. */
export function parseRoster(text: string, label = 'roster'): Roster {
  if (text.length > MAX_ROSTER_BYTES) throw new RosterError(`${label}: too large to be a roster`);
  if (text.includes('\0')) throw new RosterError(`${label}: not a CSV file (binary content)`);
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (e) {
    if (e instanceof CsvError) throw new RosterError(`${label}: line ${e.line}: ${e.message}`);
    throw e;
  }
  const [header, ...rows] = records;
  if (!header) throw new RosterError(`${label}: empty (a header row with a name column comes first)`);
  const columns = header.fields.map((f) => COLUMNS[f.trim().toLowerCase()]);
  if (!columns.includes('name'))
    throw new RosterError(
      `${label}: line ${header.line}: no name column (the header has: ${header.fields.join(', ')})`,
    );
  const repeated = columns.find((c, i) => c !== undefined && columns.indexOf(c) !== i);
  if (repeated) throw new RosterError(`${label}: line ${header.line}: two columns for ${repeated}`);
  const seen = new Map<string, number>();
  const entries = rows.map(({ line, fields }) => {
    if (fields.length !== header.fields.length)
      throw new RosterError(
        `${label}: line ${line}: ${fields.length} fields, but the header has ${header.fields.length}`,
      );
    const entry: Partial<Record<keyof Identity, string>> = {};
    columns.forEach((c, i) => {
      const v = fields[i]!.trim();
      if (c !== undefined && v !== '') entry[c] = v;
    });
    const { name, ...rest } = entry;
    if (!name) throw new RosterError(`${label}: line ${line}: no name`);
    if (rest.email !== undefined && !looksLikeEmail(rest.email))
      throw new RosterError(`${label}: line ${line}: not an e-mail address: ${rest.email}`);
    const key = nameKey(name);
    const first = seen.get(key);
    if (first !== undefined)
      throw new RosterError(`${label}: line ${line}: ${name} is listed twice (lines ${first} and ${line})`);
    seen.set(key, line);
    const identity: Identity = { name, ...rest };
    return identity;
  });
  return new Roster(entries);
}
