// A rolldown plugin for string-width (Ink measures every line of text with it). string-width 8
// builds `/^\p{RGI_Emoji}$/v` as it is imported, and V8 expands that property of strings (every
// emoji sequence Unicode recommends) when the expression is made: ~20 ms of the chat's start,
// for a test that only a cluster with an emoji in it can pass. So the expression is made the
// first time a cluster that has an Emoji character is measured, and other clusters skip it. Same
// answers: every RGI emoji sequence has an Emoji character in it (UTS #51: basic emoji, keycaps,
// flags, modifier, tag and ZWJ sequences are all built on one).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { replaceOnce as replaceOnceIn } from './bundle-rewrite.mjs';

const replaceOnce = (...args) => replaceOnceIn('lazy-emoji-regex', ...args);
const STRING_WIDTH = /\/node_modules\/string-width\/index\.js$/;
const RGI_EMOJI = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';

export function lazyEmojiRegex() {
  let rewritten = 0;
  return {
    name: 'lazy-emoji-regex',
    transform(code, id) {
      if (!STRING_WIDTH.test(id)) return null;
      // Before 8, string-width (wrap-ansi's own is 7) used the emoji-regex package instead.
      const { version } = JSON.parse(readFileSync(join(dirname(id), 'package.json'), 'utf8'));
      if (Number(version.split('.')[0]) < 8) return null;
      rewritten += 1;
      const lazy = [
        'let rgiEmojiRegex;',
        'const emojiCharacterRegex = /\\p{Emoji}/u;',
        'const isRgiEmoji = (segment) => emojiCharacterRegex.test(segment) && (rgiEmojiRegex ??= /^\\p{RGI_Emoji}$/v).test(segment);',
      ].join('\n');
      return replaceOnce(replaceOnce(code, id, RGI_EMOJI, lazy), id, 'rgiEmojiRegex.test(segment)', 'isRgiEmoji(segment)');
    },
    buildEnd(error) {
      if (!error && rewritten === 0) throw new Error('lazy-emoji-regex: no string-width with `\\p{RGI_Emoji}` was bundled; string-width changed');
    },
  };
}
