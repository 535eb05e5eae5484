import { systemLineEvent } from '../../kernel/events.js';
import type { AdminRow, AugmentFactory } from '../../kernel/augment.js';
import { BOARD_FILE, BoardStore, type BoardLine } from './board-store.js';
import { boardCommand } from './commands.js';
import { MAX_LINE_CHARS, resolveBoardConfig, validateBoardConfig, type LineSpec } from './config.js';
import { applyBoardFlag, checkBoardFlag, applyClientBoard } from './person-inputs.js';
import { boardPromptBlock } from './prompt-block.js';
import { BOARD_CHANGED_EVENT, BOARD_STATE_KEY, linePatch, type SharedBoard, type SharedLine } from './shared-state.js';
import { BOARD_READ, BOARD_WRITE, createBoardTools } from './tools.js';

const SUMMARY =
  'Keeps a few named lines beside the run that the agent and the person both read and write without waiting for each other; ' +
  "a line may belong to one side, and the other side's write is refused with the reason.";

function sharedLine(line: BoardLine): SharedLine {
  return { owner: line.owner, text: line.text, ...(line.by ? { by: line.by } : {}), ...(line.at ? { at: line.at } : {}) };
}

function sharedBoard(lines: readonly BoardLine[]): SharedBoard {
  return Object.fromEntries(lines.map((line) => [line.name, sharedLine(line)]));
}

function lineRow(spec: LineSpec): AdminRow {
  const details = [`owner ${spec.owner}`];
  if (spec.initial) details.push(`initial "${spec.initial.length > 40 ? `${spec.initial.slice(0, 39)}…` : spec.initial}"`);
  return { label: `Line ${spec.name}`, value: `${details.join(', ')}${spec.description ? `: ${spec.description}` : ''}` };
}

export const boardAugment: AugmentFactory = {
  type: 'board',
  summary: SUMMARY,
  skill: 'board',
  validateConfig: (config, file) => validateBoardConfig(config, file),
  describe(_agent, config) {
    const resolved = resolveBoardConfig(config);
    const rows: AdminRow[] = [
      { label: 'Status', value: 'on (opt-in: listed in agent.yaml augments)' },
      { label: 'Exposed tools', value: `${BOARD_READ}({}), ${BOARD_WRITE}({line, text}) (text at most ${MAX_LINE_CHARS} characters)` },
      { label: 'Prompt', value: 'the whole board, read from board.json before every inference round' },
      { label: 'Commands', value: '/board, /board set <line> <text>, /board clear <line> (also while a turn runs)' },
      { label: 'Print flag', value: '--board line=text (repeatable; lines owned by person or both)' },
      {
        label: 'Shared state',
        value: `AG-UI state.${BOARD_STATE_KEY}: STATE_SNAPSHOT at run start, STATE_DELTA and CUSTOM ${BOARD_CHANGED_EVENT} on each change`,
      },
      { label: 'State', value: `<session>/${BOARD_FILE}` },
    ];
    if (!resolved) rows.push({ label: 'Config', value: 'invalid (auggy validate says why); the board is off' });
    else {
      if (resolved.defaulted) rows.push({ label: 'Lines', value: 'default (config.lines not set)' });
      rows.push(...resolved.lines.map(lineRow));
    }
    return { id: 'board', type: 'board', tools: [BOARD_READ, BOARD_WRITE], behavior: SUMMARY, rows };
  },
  create(setup) {
    const resolved = resolveBoardConfig(setup.config);
    if (!resolved) {
      setup.warn(`board: the config in augments/${setup.augmentId}/augment.yaml is invalid (auggy validate says why); the board is off`);
      return { id: setup.augmentId };
    }
    const store = new BoardStore({
      session: setup.session,
      specs: resolved.lines,
      warn: setup.warn,
      // Every change, whoever made it, reaches clients and the TUI as it happens.
      onChange(line) {
        setup.emit({ type: 'STATE_DELTA', delta: linePatch(line.name, sharedLine(line)) });
        if (line.by) setup.emit({ type: 'CUSTOM', name: BOARD_CHANGED_EVENT, value: { line: line.name, text: line.text, by: line.by } });
      },
    });
    // Another writer (a client's board write on this or another replica) changed the file: read
    // it now, so the change reaches this run's clients at once and its next round.
    setup.session.watchState((name) => {
      if (name === BOARD_FILE) store.lines();
    });
    const tools = createBoardTools(store);
    const command = boardCommand(store);
    return {
      id: setup.augmentId,
      tools: () => tools,
      promptBlock: () => boardPromptBlock(store.lines()),
      commands: () => [command],
      checkHostInput: (name, value) => (name === 'board' ? checkBoardFlag(resolved.lines, value) : undefined),
      hostInput: (name, value) => (name === 'board' ? applyBoardFlag(store, value) : undefined),
      sharedState: () => ({ [BOARD_STATE_KEY]: sharedBoard(store.lines()) }),
      async applyClientState(state) {
        const refusals = await applyClientBoard(store, state);
        // The client is the one who wrote these, so it is told, on the run's own stream.
        if (refusals.length > 0) setup.emit(systemLineEvent(`board: not written from the client's state: ${refusals.join('; ')}`));
      },
      snapshot: () => ({ [BOARD_STATE_KEY]: sharedBoard(store.lines()) }),
    };
  },
};
