import { graphemeEndAfter, graphemeStartBefore } from './graphemes.js';

/** The text being typed and where the cursor is (an offset into `text`). */
export interface EditorState {
  text: string;
  cursor: number;
}

export const emptyEditor: EditorState = { text: '', cursor: 0 };

export function editorWith(text: string): EditorState {
  return { text, cursor: text.length };
}

/** Offset of the character before `at`: a whole grapheme cluster (an emoji with its modifiers). */
function previousOffset(text: string, at: number): number {
  return graphemeStartBefore(text, at);
}

function nextOffset(text: string, at: number): number {
  return graphemeEndAfter(text, at);
}

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

function wordStartBefore(text: string, at: number): number {
  let index = at;
  while (index > 0 && isSpace(text[index - 1])) index--;
  while (index > 0 && !isSpace(text[index - 1])) index--;
  return index;
}

function wordEndAfter(text: string, at: number): number {
  let index = at;
  while (index < text.length && isSpace(text[index])) index++;
  while (index < text.length && !isSpace(text[index])) index++;
  return index;
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end < 0 ? text.length : end;
}

function replaceRange(state: EditorState, from: number, to: number, insert = ''): EditorState {
  return { text: state.text.slice(0, from) + insert + state.text.slice(to), cursor: from + insert.length };
}

export const insertText = (state: EditorState, text: string): EditorState => replaceRange(state, state.cursor, state.cursor, text);
export const deleteBackward = (state: EditorState): EditorState => replaceRange(state, previousOffset(state.text, state.cursor), state.cursor);
export const deleteForward = (state: EditorState): EditorState => replaceRange(state, state.cursor, nextOffset(state.text, state.cursor));
export const moveLeft = (state: EditorState): EditorState => ({ ...state, cursor: previousOffset(state.text, state.cursor) });
export const moveRight = (state: EditorState): EditorState => ({ ...state, cursor: nextOffset(state.text, state.cursor) });
export const moveWordLeft = (state: EditorState): EditorState => ({ ...state, cursor: wordStartBefore(state.text, state.cursor) });
export const moveWordRight = (state: EditorState): EditorState => ({ ...state, cursor: wordEndAfter(state.text, state.cursor) });
export const moveLineStart = (state: EditorState): EditorState => ({ ...state, cursor: lineStart(state.text, state.cursor) });
export const moveLineEnd = (state: EditorState): EditorState => ({ ...state, cursor: lineEnd(state.text, state.cursor) });
export const deleteWordBackward = (state: EditorState): EditorState => replaceRange(state, wordStartBefore(state.text, state.cursor), state.cursor);
export const deleteWordForward = (state: EditorState): EditorState => replaceRange(state, state.cursor, wordEndAfter(state.text, state.cursor));

/** Ctrl+U: to the start of the line; at a line start, joins with the line above. */
export function deleteToLineStart(state: EditorState): EditorState {
  const start = lineStart(state.text, state.cursor);
  return replaceRange(state, start === state.cursor ? previousOffset(state.text, start) : start, state.cursor);
}

/** Ctrl+K: to the end of the line; at a line end, joins with the line below. */
export function deleteToLineEnd(state: EditorState): EditorState {
  const end = lineEnd(state.text, state.cursor);
  return replaceRange(state, state.cursor, end === state.cursor ? nextOffset(state.text, end) : end);
}

/**
 * Moves the cursor one line up or down in multi-line text, keeping the column where it can.
 * Undefined when there is no line that way: the caller then walks the input history.
 */
export function moveVertical(state: EditorState, direction: -1 | 1): EditorState | undefined {
  const start = lineStart(state.text, state.cursor);
  const column = state.cursor - start;
  if (direction < 0) {
    if (start === 0) return undefined;
    const previousStart = lineStart(state.text, start - 1);
    return { ...state, cursor: Math.min(previousStart + column, start - 1) };
  }
  const end = lineEnd(state.text, state.cursor);
  if (end === state.text.length) return undefined;
  const nextStart = end + 1;
  return { ...state, cursor: Math.min(nextStart + column, lineEnd(state.text, nextStart)) };
}
