import { compileUserRegex } from "@hangar/contract";

/**
 * The patterns AI actions match names and board paths with (issue 27). Nothing here backtracks: globs
 * run in the matcher below, at most (value length + 1) × (pattern length + 1) steps; regular
 * expressions run in RE2 (`compileUserRegex` in the contract, the engine the contract validates
 * with), linear in the input. A file name sent by an anonymous visitor can no longer hold a thread
 * (`*_*_*_*_*_*.jpg` against 110 `_` + `.png` took 15 s as a JavaScript RegExp).
 */

// Glob tokens: a code point (≥ 0, case-folded) or one of these.
const STAR = -1; // `*`: any run of characters within one path segment
const GLOBSTAR = -2; // `**`: any run of characters, `/` included
const ONE = -3; // `?`: one character other than `/`
const SLASH = 0x2f;

const foldCache = new Map<number, number>();
const single = (s: string): number | null => {
  const cp = s.codePointAt(0);
  return cp !== undefined && s.length === (cp > 0xffff ? 2 : 1) ? cp : null;
};
/**
 * Simple case folding of one code point, as JavaScript's `iu` flags compare (`K` Kelvin sign, `ſ`,
 * final sigma): lower-case of the upper-case where each is one code point, else lower-case alone.
 */
function fold(cp: number): number {
  if (cp < 0x80) return cp >= 65 && cp <= 90 ? cp + 32 : cp;
  let f = foldCache.get(cp);
  if (f === undefined) {
    const s = String.fromCodePoint(cp);
    const upper = single(s.toUpperCase());
    f = (upper !== null ? single(String.fromCodePoint(upper).toLowerCase()) : null) ?? single(s.toLowerCase()) ?? cp;
    if (foldCache.size < 4096) foldCache.set(cp, f);
  }
  return f;
}

/** Unicode-normalised (NFC: a macOS name's decomposed "é" equals a typed one) and case-folded. */
const codePoints = (s: string): number[] => Array.from(s.normalize("NFC"), (ch) => fold(ch.codePointAt(0)!));

function compileGlob(pattern: string): Int32Array {
  const out: number[] = [];
  const cps = codePoints(pattern);
  for (let i = 0; i < cps.length; i++) {
    if (cps[i] === 0x2a /* * */) {
      const double = cps[i + 1] === 0x2a;
      if (double) i++;
      const t = double ? GLOBSTAR : STAR;
      // `**` beside `*` is `**`: one token, so runs of stars do not multiply states.
      const last = out[out.length - 1];
      if (last === GLOBSTAR) continue;
      if (last === STAR) out[out.length - 1] = t;
      else out.push(t);
    } else out.push(cps[i] === 0x3f /* ? */ ? ONE : cps[i]!);
  }
  return Int32Array.from(out);
}

/**
 * Whether `value` matches the glob `pattern` whole: `*` within a path segment, `**` across `/`, `?`
 * one character, everything else literal; case-insensitive. A simulation of the pattern's automaton:
 * the set of pattern positions reachable so far is carried along the value, one character at a time,
 * so the work is bounded by (value length + 1) × (pattern length + 1) whatever the pattern.
 * `stats.steps` counts the position visits (the tests hold it to that bound).
 */
export function globMatches(pattern: string, value: string, stats?: { steps: number }): boolean {
  const toks = compileGlob(pattern);
  const m = toks.length;
  let cur = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  // A star may match nothing: whoever reaches it also reaches the position after it.
  const close = (s: Uint8Array) => {
    for (let i = 0; i < m; i++) if (s[i] && toks[i]! < 0 && toks[i] !== ONE) s[i + 1] = 1;
  };
  cur[0] = 1;
  close(cur);
  let steps = m + 1;
  for (const cp of codePoints(value)) {
    next.fill(0);
    let alive = false;
    for (let i = 0; i < m; i++) {
      if (!cur[i]) continue;
      const t = toks[i]!;
      if (t === GLOBSTAR || (t === STAR && cp !== SLASH)) next[i] = 1;
      else if ((t === ONE && cp !== SLASH) || t === cp) next[i + 1] = 1;
      else continue;
      alive = true;
    }
    steps += m + 1;
    if (!alive) {
      if (stats) stats.steps = steps;
      return false;
    }
    close(next);
    [cur, next] = [next, cur];
  }
  if (stats) stats.steps = steps;
  return cur[m] === 1;
}

/** Compiled user regexes, most recently used last: a run over every asset compiles each pattern once. */
const regexCache = new Map<string, ReturnType<typeof compileUserRegex>>();
export function userRegex(pattern: string, caseSensitive: boolean): ReturnType<typeof compileUserRegex> {
  const key = `${caseSensitive ? "s" : "i"}:${pattern}`;
  let re = regexCache.get(key);
  if (re) regexCache.delete(key);
  else re = compileUserRegex(pattern, { caseSensitive });
  regexCache.set(key, re);
  if (regexCache.size > 256) regexCache.delete(regexCache.keys().next().value!);
  return re;
}

/** Glob or (RE2) regular expression, case-insensitive; a glob must match the whole value, a regex any part. */
export function patternMatches(pattern: string, value: string, regex: boolean): boolean {
  return regex ? userRegex(pattern, false).test(value) : globMatches(pattern, value);
}
