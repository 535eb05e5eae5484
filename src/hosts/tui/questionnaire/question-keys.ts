import type { PresentedQuestion } from '../../../kernel/person.js';
import * as edit from '../editor-state.js';
import type { EditorState } from '../editor-state.js';
import type { Keypress } from '../parse-keys.js';

/** The answer being typed, and which offered answer the arrows point at (-1: none). */
export interface QuestionInput {
  editor: EditorState;
  highlighted: number;
}

export type QuestionKeyResult =
  /** Not the question's key (Ctrl+C, Ctrl+L): the chat handles it as usual. */
  { kind: 'pass' } | { kind: 'edit'; input: QuestionInput } | { kind: 'submit'; text: string } | { kind: 'decline' };

/** The answers offered to pick with the arrows: a choice's options, or yes and no. */
export function pickable(question: PresentedQuestion): string[] | undefined {
  if (question.type === 'choice') return question.options ?? [];
  if (question.type === 'boolean') return ['yes', 'no'];
  return undefined;
}

const YES_NO: ReadonlyMap<string, number> = new Map([
  ['yes', 0],
  ['y', 0],
  ['true', 0],
  ['no', 1],
  ['n', 1],
  ['false', 1],
]);

/** Where typed text points among the offered answers, read as the answer will be read (parse-answer). */
function matchIndex(question: PresentedQuestion, picks: readonly string[], text: string): number {
  const typed = text.trim().toLowerCase();
  if (question.type === 'boolean') return YES_NO.get(typed) ?? -1;
  if (/^\d+$/.test(typed) && Number(typed) >= 1 && Number(typed) <= picks.length) return Number(typed) - 1;
  return picks.findIndex((pick) => pick.toLowerCase() === typed);
}

/** The arrows start on the default, so Enter on an empty line takes it; with no default, on nothing. */
export function initialQuestionInput(question: PresentedQuestion): QuestionInput {
  const picks = pickable(question);
  return { editor: edit.emptyEditor, highlighted: picks && question.default !== undefined ? matchIndex(question, picks, question.default) : -1 };
}

function editing(input: QuestionInput, question: PresentedQuestion, change: (state: EditorState) => EditorState): QuestionKeyResult {
  const editor = change(input.editor);
  const picks = pickable(question);
  // Typing a number or an option moves the highlight to it, so the screen shows what Enter sends.
  const typed = picks && editor.text.trim() !== '' ? matchIndex(question, picks, editor.text) : -1;
  return { kind: 'edit', input: { editor, highlighted: typed >= 0 ? typed : input.highlighted } };
}

function moved(input: QuestionInput, question: PresentedQuestion, direction: -1 | 1): QuestionKeyResult {
  const picks = pickable(question);
  if (!picks || picks.length === 0) return { kind: 'edit', input };
  const from = input.highlighted < 0 ? (direction > 0 ? -1 : picks.length) : input.highlighted;
  const highlighted = (from + direction + picks.length) % picks.length;
  // Arrows pick; what was typed would contradict the highlight, so it goes.
  return { kind: 'edit', input: { editor: edit.emptyEditor, highlighted } };
}

function submitted(input: QuestionInput, question: PresentedQuestion): QuestionKeyResult {
  const picks = pickable(question);
  if (input.editor.text.trim() === '' && picks && input.highlighted >= 0) return { kind: 'submit', text: picks[input.highlighted] };
  return { kind: 'submit', text: input.editor.text };
}

const CTRL_EDITS: Record<string, (state: EditorState) => EditorState> = {
  a: edit.moveLineStart,
  e: edit.moveLineEnd,
  b: edit.moveLeft,
  f: edit.moveRight,
  w: edit.deleteWordBackward,
  u: edit.deleteToLineStart,
  k: edit.deleteToLineEnd,
};

/**
 * The key map while a question is on screen: one line of answer, arrows over the offered
 * answers, Enter answers, Esc declines. Every other key is kept from the chat input but
 * Ctrl+C (cancel the turn, quit) and Ctrl+L (redraw).
 */
export function questionKey(key: Keypress, input: QuestionInput, question: PresentedQuestion): QuestionKeyResult {
  switch (key.kind) {
    case 'text':
      return editing(input, question, (state) => edit.insertText(state, key.text));
    case 'paste': {
      // An answer is one line; pasted lines of a list become its items.
      const line = key.text.replace(/\s*\n\s*/g, question.type === 'list' ? ', ' : ' ');
      return editing(input, question, (state) => edit.insertText(state, line));
    }
    case 'ctrl': {
      if (key.letter === 'c' || key.letter === 'l') return { kind: 'pass' };
      const change = CTRL_EDITS[key.letter];
      return change ? editing(input, question, change) : { kind: 'edit', input };
    }
    case 'meta':
      if (key.char === 'b') return editing(input, question, edit.moveWordLeft);
      if (key.char === 'f') return editing(input, question, edit.moveWordRight);
      if (key.char === 'd') return editing(input, question, edit.deleteWordForward);
      return { kind: 'edit', input };
    case 'key':
      break;
  }
  const word = key.ctrl || key.meta;
  switch (key.name) {
    case 'enter':
    case 'newline':
      return submitted(input, question);
    case 'escape':
      return { kind: 'decline' };
    case 'up':
      return moved(input, question, -1);
    case 'down':
      return moved(input, question, 1);
    case 'left':
      return editing(input, question, word ? edit.moveWordLeft : edit.moveLeft);
    case 'right':
      return editing(input, question, word ? edit.moveWordRight : edit.moveRight);
    case 'home':
      return editing(input, question, edit.moveLineStart);
    case 'end':
      return editing(input, question, edit.moveLineEnd);
    case 'backspace':
      return editing(input, question, word ? edit.deleteWordBackward : edit.deleteBackward);
    case 'delete':
      return editing(input, question, word ? edit.deleteWordForward : edit.deleteForward);
    default:
      return { kind: 'edit', input };
  }
}
