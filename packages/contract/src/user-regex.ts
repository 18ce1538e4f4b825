import { RE2JS, RE2JSException } from "re2js";

/**
 * Regular expressions that users type (AI action patterns) run in RE2 semantics through `re2js`, a
 * pure-JavaScript port of RE2: matching is linear in the input whatever the pattern, so no pattern can
 * hold a thread the way a backtracking engine can (`^(a|a)*$` on 27 `a` + `!` took 9 s in V8). The
 * contract validates with the very engine the server matches with, so what is accepted runs, and what
 * RE2 cannot run (lookaround, back-references) is refused with a reason a person can act on.
 *
 * Patterns are written in JavaScript syntax (as before): `\u00e9`, `\u{1F600}`, `(?<name>…)` and `\cJ`
 * are translated to RE2's spelling. Case-insensitive matching folds case over Unicode (as the `iu`
 * flags did).
 */

/**
 * Linear, but the factor is the compiled program's size: a counted repetition such as `[\s\S]{1000}`
 * is a thousand instructions (finding its match in 10,800 characters of OCR text took 1.3 s; at 200,
 * 0.26 s). Hand-written patterns are far below the bound (`^IMG_\d{4}\.JPG$` is 14).
 */
export const MAX_REGEX_PROGRAM = 300;

/** What RE2 cannot do, found in the pattern as written (outside character classes and escapes). */
function unsupported(p: string): string | null {
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      const n = p[i + 1] ?? "";
      if (!inClass && /[1-9]/.test(n)) return "Back-references (\\1, \\2…) are not supported";
      if (!inClass && n === "k" && p[i + 2] === "<") return "Named back-references (\\k<name>) are not supported";
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") {
      inClass = true;
      continue;
    }
    if (c === "(" && p[i + 1] === "?") {
      const head = p.slice(i + 2, i + 4);
      if (head === "<=" || head === "<!") return "Lookbehind is not supported";
      if (head[0] === "=" || head[0] === "!") return "Lookahead is not supported";
    }
    if ((c === "+" || c === "*" || c === "?" || c === "}") && p[i + 1] === "+")
      return "Possessive quantifiers (like a++) are not supported";
  }
  return null;
}

export class UserRegexError extends Error {
  override name = "UserRegexError";
}

/**
 * Compiles a user's pattern for matching, or throws a UserRegexError whose message says why not.
 * `caseSensitive: false` folds case (Unicode simple case folding, like JavaScript's `iu`).
 */
export function compileUserRegex(pattern: string, opts: { caseSensitive?: boolean } = {}): RE2JS {
  const why = unsupported(pattern);
  if (why) throw new UserRegexError(why);
  const source = RE2JS.translateRegExp(pattern);
  const compile = (flags: number) => {
    try {
      return RE2JS.compile(source, flags);
    } catch (err) {
      if (!(err instanceof RE2JSException)) throw err;
      // "error parsing regexp: missing closing ]: `[a-z`" → "missing closing ]: `[a-z`"
      throw new UserRegexError(`Not a valid regular expression: ${err.message.replace(/^error parsing regexp: /, "")}`);
    }
  };
  // Syntax first without flags: RE2JS spells case-insensitivity as a `(?i)` prefix, which would
  // show in the quoted part of its error.
  let re = compile(0);
  if (!opts.caseSensitive) re = compile(RE2JS.CASE_INSENSITIVE);
  if (re.programSize() > MAX_REGEX_PROGRAM)
    throw new UserRegexError(
      `The pattern is too complex (${re.programSize()} steps per character, at most ${MAX_REGEX_PROGRAM}): use smaller repetition counts`,
    );
  return re;
}

/** Why a user's pattern cannot be used (null when it can): the 422's message. */
export function regexProblem(pattern: string, opts: { caseSensitive?: boolean } = {}): string | null {
  try {
    compileUserRegex(pattern, opts);
    return null;
  } catch (err) {
    if (err instanceof UserRegexError) return err.message;
    throw err;
  }
}
