import { useScreenWidth } from './screen-width.js';

/** Printable ASCII and newlines only: one column per character, nothing for a terminal to interpret. */
const PLAIN = /^[\x20-\x7e\n]*$/;

/**
 * One line, wrapped exactly as Ink's own wrapping (wrap-ansi, `hard`, `trim: false`) wraps it,
 * for text whose every character takes one column. Only ever inserts line breaks.
 */
export function wrapLine(line: string, columns: number): string {
  const rows = [''];
  const push = (row: string) => rows.push(row);
  const last = () => rows[rows.length - 1];
  line.split(' ').forEach((word, index) => {
    let rowLength = last().length;
    if (index !== 0) {
      if (rowLength >= columns) {
        push('');
        rowLength = 0;
      }
      rows[rows.length - 1] += ' ';
      rowLength++;
    }
    if (word.length > columns) {
      // A word longer than the line is cut into pieces of the line's width.
      const breaksStartingThisLine = 1 + Math.floor((word.length - (columns - rowLength) - 1) / columns);
      const breaksStartingNextLine = Math.floor((word.length - 1) / columns);
      if (breaksStartingNextLine < breaksStartingThisLine) push('');
      let visible = last().length;
      for (let i = 0; i < word.length; i++) {
        if (visible + 1 <= columns) rows[rows.length - 1] += word[i];
        else {
          push(word[i]);
          visible = 0;
        }
        visible++;
        if (visible === columns && i < word.length - 1) {
          push('');
          visible = 0;
        }
      }
      return;
    }
    if (rowLength + word.length > columns && rowLength > 0 && word.length > 0) push('');
    rows[rows.length - 1] += word;
  });
  return rows.join('\n');
}

/**
 * Plain text already wrapped to `columns`, the way Ink would wrap it. Ink wraps a text that does
 * not fit by measuring the width of every word and character through Unicode segmentation, which
 * made printing a long transcript take seconds (half of printing 2,000 messages, profiled); text
 * that already fits is drawn as it is. Anything but printable ASCII is left for Ink to wrap.
 */
export function wrapPlainText(text: string, columns: number): string {
  if (columns < 1 || !PLAIN.test(text)) return text;
  return text
    .split('\n')
    .map((line) => (line.length <= columns ? line : wrapLine(line, columns)))
    .join('\n');
}

/** The columns a transcript line's text has beside its two-column gutter. */
export function useGutterTextWidth(gutter: number): number {
  return useScreenWidth() - gutter;
}
