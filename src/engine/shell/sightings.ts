/**
 * What the learner's terminal has shown them: the objects each command line displayed (kubectl's
 * tables, `describe`, `-o yaml`), recorded once the output reached the terminal, directly or through a
 * pipe whose last command printed something (`| grep api`). A command that failed, printed into a file
 * or into `$( … )`, or whose pipe printed nothing, showed nothing. The grader's observation checks read
 * this instead of guessing from the command line; it is engine state and lives in the snapshot.
 */
import type { Sighting } from './types.ts';

/** One sighting and the line that produced it (for messages: "`kubectl get …` listed another namespace"). */
export interface SeenOutput extends Sighting {
  readonly line: string;
}

/** Sightings kept (oldest dropped first); a lab session makes a few dozen. */
export const MAX_SIGHTINGS = 500;
/** Names kept per sighting: the kind and namespace are what checks read, names only identify objects. */
export const MAX_SIGHTED_NAMES = 100;

export class Sightings {
  private seen: SeenOutput[] = [];

  record(line: string, sightings: readonly Sighting[]): void {
    for (const s of sightings) {
      const names = s.names.slice(0, MAX_SIGHTED_NAMES);
      // The same objects seen again add nothing: the first line that showed them is kept.
      if (this.seen.some((o) => sameSighting(o, s, names))) continue;
      this.seen.push({
        line,
        resource: s.resource,
        ...(s.namespace !== undefined ? { namespace: s.namespace } : {}),
        names,
        ...(s.on !== undefined ? { on: s.on } : {}),
        ...(s.fields !== undefined ? { fields: [...s.fields] } : {}),
      });
    }
    if (this.seen.length > MAX_SIGHTINGS) this.seen.splice(0, this.seen.length - MAX_SIGHTINGS);
  }

  list(): readonly SeenOutput[] {
    return this.seen;
  }

  snapshot(): SeenOutput[] {
    return this.seen.map((s) => ({
      ...s,
      names: [...s.names],
      ...(s.fields ? { fields: [...s.fields] } : {}),
    }));
  }

  restore(seen: readonly SeenOutput[]): void {
    this.seen = [];
    for (const s of seen) this.record(s.line, [s]);
  }
}

function sameSighting(a: Sighting, b: Sighting, names: readonly string[]): boolean {
  return (
    a.resource === b.resource &&
    a.namespace === b.namespace &&
    a.on === b.on &&
    (a.fields ?? []).join() === (b.fields ?? []).join() &&
    a.names.length === names.length &&
    a.names.every((n, i) => n === names[i])
  );
}
