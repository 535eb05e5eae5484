// The input moves and deletes by what a person sees as one character: a grapheme cluster. An
// emoji with a skin tone, a family joined by ZWJ, a keycap or ✔️ with its variation selector
// are several code points; stepping through them one by one drew half an emoji under the
// cursor, and Backspace left the other half behind.

let segmenter: Intl.Segmenter | undefined;

/** Made at the first use: the first Intl.Segmenter starts ICU's break iterators (~10–20 ms). */
function graphemes(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

// A cluster is never near this long in practice (the longest emoji sequences are ~35 code units);
// looking at a window around the offset keeps each step cheap however long the text is.
const WINDOW = 256;

/** The offset where the character before `at` starts (0 at the start). */
export function graphemeStartBefore(text: string, at: number): number {
  if (at <= 0) return 0;
  const from = Math.max(0, at - WINDOW);
  let start = from;
  for (const { index } of graphemes().segment(text.slice(from, at))) start = from + index;
  return start;
}

/** The offset just after the character that starts at `at` (the text's length at the end). */
export function graphemeEndAfter(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const first = graphemes()
    .segment(text.slice(at, at + WINDOW))
    [Symbol.iterator]()
    .next();
  return first.done ? text.length : at + first.value.segment.length;
}

/** The text's characters as a person sees them: one string per grapheme cluster. */
export function graphemeClusters(text: string): string[] {
  return Array.from(graphemes().segment(text), (part) => part.segment);
}
