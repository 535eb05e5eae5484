import type { CommandOutput, SlashCommand } from '../../kernel/augment.js';
import type { BoardLine, BoardStore } from './board-store.js';
import { ownerMark, writableLines } from './line-rules.js';

const USAGE = '/board, /board set <line> <text>, /board clear <line>';

/** The whole board for `/board`: every line unshortened (the panel is where lines are cut to fit). */
export function boardLines(lines: readonly BoardLine[], yours: readonly string[]): string[] {
  const width = Math.max(0, ...lines.map((line) => line.name.length));
  const rows = lines.flatMap((line) => {
    const [first, ...rest] = (line.text === '' ? '(empty)' : line.text).split('\n');
    const lead = `  ${line.name.padEnd(width)}  ${ownerMark(line.owner).padEnd(5)}  `;
    return [`${lead}${first}`, ...rest.map((row) => `${' '.repeat(lead.length)}${row}`)];
  });
  const header = yours.length > 0 ? `Board (you can write ${yours.join(', ')}):` : "Board (every line is the agent's; you can read them):";
  return [header, ...rows];
}

function refused(reason: string): CommandOutput {
  return { lines: [`Not written: ${reason}.`], isError: true };
}

/**
 * `/board` shows the board, `/board set <line> <text>` and `/board clear <line>` change one of the
 * person's lines. It runs while a turn is in progress too: the board never waits for the agent.
 */
export function boardCommand(store: BoardStore): SlashCommand {
  const write = async (name: string, text: string): Promise<CommandOutput> => {
    const outcome = await store.write(name, text, 'person');
    if (!outcome.ok) return refused(outcome.reason);
    return { lines: [text === '' ? `${name} cleared.` : `${name} set; the agent sees it at its next step.`] };
  };
  return {
    name: 'board',
    summary: 'the board: /board shows it, /board set <line> <text> and /board clear <line> change your lines (also during a turn)',
    usage: '[set <line> <text> | clear <line>]',
    duringTurn: true,
    run(args): Promise<CommandOutput> | CommandOutput {
      const trimmed = args.trim();
      if (trimmed === '') return { lines: boardLines(store.lines(), writableLines(store.specs, 'person')) };
      const set = /^set(?:\s+(\S+)(?:\s+([\s\S]*))?)?$/i.exec(trimmed);
      if (set) {
        const [, name, text] = set;
        if (name === undefined) return { lines: [`Say which line: /board set <line> <text>.`], isError: true };
        if (text === undefined || text.trim() === '') {
          return { lines: [`Give the text: /board set ${name} <text> (/board clear ${name} empties it).`], isError: true };
        }
        return write(name, text.trim());
      }
      const clear = /^clear(?:\s+(\S+))?(\s+\S[\s\S]*)?$/i.exec(trimmed);
      if (clear) {
        const [, name, extra] = clear;
        if (name === undefined) return { lines: ['Say which line: /board clear <line>.'], isError: true };
        if (extra !== undefined) return { lines: [`/board clear takes only the line's name; to change ${name}: /board set ${name} <text>.`], isError: true };
        return write(name, '');
      }
      return { lines: [`/board does not take "${trimmed.split(/\s+/)[0]}": use ${USAGE}.`], isError: true };
    },
  };
}
