import type { Writer } from './config.js';
import type { BoardLine } from './board-store.js';
import { mayWrite } from './line-rules.js';

function ownerNote(line: BoardLine, reader: Writer): string {
  if (line.owner === 'both') return 'shared: you and the person both write it';
  if (mayWrite(line.owner, reader)) return 'yours: only you write it';
  return `the ${line.owner}'s: read it, do not write it`;
}

function lastWrite(line: BoardLine): string {
  if (!line.by) return '';
  return line.by === 'agent' ? ', last written by you' : ', last written by the person';
}

/** The text quoted line by line, so nothing in it can pass for the block's own structure. */
function quoted(text: string): string {
  if (text.trim() === '') return '> (empty)';
  return text
    .split('\n')
    .map((row) => `> ${row}`)
    .join('\n');
}

/**
 * The `<augment id="board">` block. It is built from board.json at every inference round, which is
 * how a line the person changed mid-turn reaches the model without a message.
 */
export function boardPromptBlock(lines: readonly BoardLine[]): string {
  const sections = lines.map((line) => {
    const heading = `## ${line.name} (${ownerNote(line, 'agent')}${lastWrite(line)})`;
    return [heading, ...(line.description ? [line.description] : []), quoted(line.text)].join('\n');
  });
  return [
    'The board: named lines kept beside this run. The person can change their lines at any moment, even while you work;',
    'this block is re-read before every step, so what you see here is current. Change a line with board_write.',
    '',
    sections.join('\n\n'),
  ].join('\n');
}
