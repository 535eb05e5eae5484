import { z } from 'zod';
import { assertionType } from './types.js';
import { patternMatches } from './bounded-match.js';
import { listed, regexSource, shown, stringList } from './describe.js';

const patternsParams = z.object({ patterns: stringList });

const includes = (text: string, pattern: string) => text.toLowerCase().includes(pattern.toLowerCase());

function wordBoundary(text: string, pattern: string): boolean {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}($|[^\\p{L}\\p{N}_])`, 'iu').test(text);
}

/** content_includes (PromptKit `contains`): every pattern appears in the reply, ignoring case. */
export const contentIncludes = assertionType({
  name: 'content_includes',
  aliases: ['contains'],
  params: patternsParams,
  check({ patterns }, scope) {
    const missing = patterns.filter((pattern) => !includes(scope.text, pattern));
    return {
      passed: missing.length === 0,
      score: (patterns.length - missing.length) / patterns.length,
      expected: `the reply to include ${listed(patterns)}`,
      actual: missing.length === 0 ? 'all found' : `${listed(missing)} missing from ${shown(scope.text)}`,
    };
  },
});

/** content_includes_any (PromptKit `contains_any`): at least one pattern appears. */
export const contentIncludesAny = assertionType({
  name: 'content_includes_any',
  aliases: ['contains_any'],
  params: patternsParams,
  check({ patterns }, scope) {
    const found = patterns.filter((pattern) => includes(scope.text, pattern));
    return {
      passed: found.length > 0,
      expected: `the reply to include one of ${listed(patterns, 'or')}`,
      actual: found.length > 0 ? `found ${listed(found)}` : `none in ${shown(scope.text)}`,
    };
  },
});

/** content_excludes: no reply contains any pattern (`match_mode: word_boundary` for whole words). */
export const contentExcludes = assertionType({
  name: 'content_excludes',
  aliases: ['content_not_includes'],
  params: z
    .object({ patterns: stringList.optional(), words: stringList.optional(), match_mode: z.enum(['substring', 'word_boundary']).optional() })
    .refine((params) => params.patterns !== undefined || params.words !== undefined, {
      message: 'needs patterns: the texts that must not appear',
      path: ['patterns'],
    }),
  check(params, scope) {
    const patterns = params.patterns ?? params.words ?? [];
    const matches = params.match_mode === 'word_boundary' ? wordBoundary : includes;
    const found = patterns.filter((pattern) => scope.replies.some((reply) => matches(reply, pattern)));
    return {
      passed: found.length === 0,
      expected: `the reply not to include ${listed(patterns, 'or')}`,
      actual:
        found.length === 0
          ? 'none found'
          : `${listed(found)} found in ${shown(scope.replies.find((reply) => found.some((pattern) => matches(reply, pattern))))}`,
    };
  },
});

/** regex (PromptKit also `content_matches`): the reply matches `pattern`, or does not with `expect_match: false`. */
export const regex = assertionType({
  name: 'regex',
  aliases: ['content_matches'],
  params: z.object({ pattern: regexSource, expect_match: z.boolean().default(true) }),
  check({ pattern, expect_match: expectMatch }, scope) {
    const matched = patternMatches(pattern, scope.text);
    return {
      passed: matched === expectMatch,
      expected: `the reply ${expectMatch ? 'to match' : 'not to match'} /${pattern}/`,
      actual: `${matched ? 'it matched' : 'no match'} in ${shown(scope.text)}`,
    };
  },
});

const count = z.number().int().min(0);

/** min_length: the reply has at least `min` characters (also written `min_characters`, `min_chars`). */
export const minLength = assertionType({
  name: 'min_length',
  params: z
    .object({ min: count.optional(), min_characters: count.optional(), min_chars: count.optional() })
    .transform((params) => params.min ?? params.min_characters ?? params.min_chars)
    .refine((min) => min !== undefined, { message: 'needs min: the fewest characters the reply may have' }),
  check(min, scope) {
    const length = scope.text.length;
    return { passed: length >= (min ?? 0), expected: `a reply of at least ${min} characters`, actual: `${length} characters` };
  },
});

/** max_length (PromptKit also `length`): the reply has at most `max` characters. */
export const maxLength = assertionType({
  name: 'max_length',
  aliases: ['length'],
  params: z
    .object({ max: count.optional(), max_characters: count.optional(), max_chars: count.optional() })
    .transform((params) => params.max ?? params.max_characters ?? params.max_chars)
    .refine((max) => max !== undefined, { message: 'needs max: the most characters the reply may have' }),
  check(max, scope) {
    const length = scope.text.length;
    return { passed: length <= (max ?? Infinity), expected: `a reply of at most ${max} characters`, actual: `${length} characters` };
  },
});
