/**
 * Seeded pseudo-random numbers (sfc32 seeded through splitmix32). Every "random" choice of the engine
 * (ClusterIPs, name suffixes, uids, iptables' statistic match) draws from one of these, so the same
 * seed always builds the same cluster.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number | string) {
    let s = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** The generator's full state, for snapshots. */
  state(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  static fromState(state: readonly [number, number, number, number]): Rng {
    const r = new Rng(0);
    [r.a, r.b, r.c, r.d] = state;
    return r;
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 0x100000000;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    if (n <= 0) return 0;
    return Math.floor(this.next() * n);
  }

  /**
   * A string of `length` characters from the alphabet Kubernetes uses for generated name suffixes
   * (`k8s.io/apimachinery/pkg/util/rand`: no vowels, no confusable 0/1/3).
   */
  nameSuffix(length = 5): string {
    let out = '';
    for (let i = 0; i < length; i++) out += NAME_ALPHABET[this.int(NAME_ALPHABET.length)];
    return out;
  }

  /** An RFC 4122 version-4 UUID, as the API server writes metadata.uid. */
  uuid(): string {
    // Every object gets one. Built from character codes in one step: `+=` would leave a chain of
    // twenty cons strings behind each uid that nothing ever flattens (an event's uid is never hashed).
    const codes = UUID_CODES;
    let at = 0;
    for (let i = 0; i < 16; i++) {
      let b = this.int(256);
      if (i === 6) b = (b & 0x0f) | 0x40;
      else if (i === 8) b = (b & 0x3f) | 0x80;
      codes[at++] = HEX_CODES[b >> 4]!;
      codes[at++] = HEX_CODES[b & 15]!;
      if (i === 3 || i === 5 || i === 7 || i === 9) codes[at++] = 45; // '-'
    }
    return String.fromCharCode.apply(null, codes);
  }
}

/** The character codes of the uid being built (one buffer: a uid is built at once, never nested). */
const UUID_CODES: number[] = new Array<number>(36).fill(0);

export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const HEX_CODES: readonly number[] = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * FNV-1a 32-bit; also the hash family Kubernetes uses for pod-template-hash. `from` continues the hash
 * of a prefix: fnv32a(b, fnv32a(a)) === fnv32a(a + b).
 */
export function fnv32a(input: string, from = 0x811c9dc5): number {
  let h = from;
  for (let i = 0; i < input.length; i++) {
    h ^= input.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function hashString(s: string): number {
  return fnv32a(s);
}

/**
 * `rand.SafeEncodeString` from apimachinery: maps each character onto NAME_ALPHABET so a hash can
 * never spell a word. Used for pod-template-hash (`SafeEncodeString(fmt.Sprint(hash))`).
 */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += NAME_ALPHABET[s.charCodeAt(i) % NAME_ALPHABET.length];
  return out;
}
