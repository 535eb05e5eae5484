/**
 * Go regular expressions, as PromptKit writes them (scenario patterns, a pack's regex validator),
 * compiled to their JavaScript meaning and matched within a time limit.
 */
import { Script } from 'node:vm';

/**
 * PromptKit writes Go regular expressions: their inline flags (`(?i)`, `(?s)`, `(?m)`, also
 * mid-pattern and as `(?i:...)` groups) become the pattern's JavaScript flags, `(?P<name>` is
 * `(?<name>`, and `\A` / `\z` are `^` / `$`. A flag group applies to the whole pattern here.
 */
export function compilePattern(source: string, extraFlags = ''): RegExp {
  const flags = new Set([...extraFlags]);
  let body = source.replace(/\(\?([imsU]+)\)/g, (_all, found: string) => {
    for (const flag of found) if (flag !== 'U') flags.add(flag);
    return '';
  });
  body = body.replace(/\(\?([imsU]+):/g, (_all, found: string) => {
    for (const flag of found) if (flag !== 'U') flags.add(flag);
    return '(?:';
  });
  body = body
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$');
  return new RegExp(body, [...flags].join(''));
}

/** How long one pattern may take to match one text: far beyond any honest pattern, short enough to wait for. */
export const MATCH_LIMIT_MS = 1000;

/** Run in a context of its own, so V8 can stop it when the time is up (a RegExp cannot be stopped otherwise). */
const TEST = new Script('pattern.test(text)');

/** A pattern that backtracks without end on the text it was given: the author's own mistake. */
export class PatternTimeoutError extends Error {
  constructor(readonly source: string) {
    super(
      `the pattern /${source}/ did not finish matching within ${MATCH_LIMIT_MS / 1000} s: it backtracks without end on this text (nested repeats such as (a+)+ or (.*)*); rewrite it without them`,
    );
  }
}

/**
 * Whether a scenario's pattern (Go's syntax, as compilePattern reads it) matches `text`, within
 * MATCH_LIMIT_MS: a pattern with catastrophic backtracking fails its check naming the pattern,
 * instead of holding `auggy test` (and its SIGTERM) for ever.
 */
export function patternMatches(source: string, text: string, extraFlags = ''): boolean {
  const pattern = compilePattern(source, extraFlags);
  try {
    return TEST.runInNewContext({ pattern, text }, { timeout: MATCH_LIMIT_MS }) === true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new PatternTimeoutError(source);
    throw error;
  }
}
