import { describe, expect, it } from 'vitest';
import * as edit from '../../src/hosts/tui/editor-state.js';
import { editorReducer, initialEditorModel } from '../../src/hosts/tui/use-input-editor.js';

const at = (text: string, cursor: number): edit.EditorState => ({ text, cursor });

describe('editing the input line', () => {
  it('inserts at the cursor and deletes on either side of it', () => {
    expect(edit.insertText(at('helo', 3), 'l')).toEqual(at('hello', 4));
    expect(edit.deleteBackward(at('hello', 5))).toEqual(at('hell', 4));
    expect(edit.deleteBackward(at('hello', 0))).toEqual(at('hello', 0));
    expect(edit.deleteForward(at('hello', 0))).toEqual(at('ello', 0));
    expect(edit.deleteForward(at('hello', 5))).toEqual(at('hello', 5));
  });

  it('keeps an emoji whole when moving and deleting', () => {
    const text = 'a😀b';
    expect(edit.moveLeft(at(text, 3)).cursor).toBe(1);
    expect(edit.moveRight(at(text, 1)).cursor).toBe(3);
    expect(edit.deleteBackward(at(text, 3))).toEqual(at('ab', 1));
  });

  it('moves and deletes by what shows as one character: skin tones, ZWJ families, keycaps, variation selectors, accents', () => {
    const clusters = ['日', '👍🏽', '👨‍👩‍👧', '✔️', '1️⃣', 'e\u0301', '🇯🇵'];
    const text = clusters.join('');
    let state = at(text, text.length);
    const stops = [text.length];
    while (state.cursor > 0) {
      state = edit.moveLeft(state);
      stops.push(state.cursor);
    }
    // One press per character, and each stop is where a character starts.
    expect(stops).toHaveLength(clusters.length + 1);
    expect(
      stops
        .reverse()
        .slice(0, -1)
        .map((offset, index) => text.slice(offset, stops[index + 1])),
    ).toEqual(clusters);
    expect(edit.moveRight(at(text, 1))).toEqual(at(text, 1 + '👍🏽'.length));
    expect(edit.deleteBackward(at('x👍🏽', 'x👍🏽'.length))).toEqual(at('x', 1));
    expect(edit.deleteBackward(at('a👨‍👩‍👧', 'a👨‍👩‍👧'.length))).toEqual(at('a', 1));
    expect(edit.deleteForward(at('1️⃣2', 0))).toEqual(at('2', 0));
  });

  it('moves and deletes by word', () => {
    const text = 'deploy the  api';
    expect(edit.moveWordLeft(at(text, text.length)).cursor).toBe(12);
    expect(edit.moveWordLeft(at(text, 12)).cursor).toBe(7);
    expect(edit.moveWordRight(at(text, 0)).cursor).toBe(6);
    expect(edit.deleteWordBackward(at(text, text.length))).toEqual(at('deploy the  ', 12));
    expect(edit.deleteWordBackward(at('deploy the  ', 12))).toEqual(at('deploy ', 7));
    expect(edit.deleteWordForward(at(text, 6))).toEqual(at('deploy  api', 6));
  });

  it('home and end work on the current line of multi-line text', () => {
    const text = 'one\ntwo\nthree';
    expect(edit.moveLineStart(at(text, 6)).cursor).toBe(4);
    expect(edit.moveLineEnd(at(text, 5)).cursor).toBe(7);
    expect(edit.deleteToLineStart(at(text, 6))).toEqual(at('one\no\nthree', 4));
    expect(edit.deleteToLineEnd(at(text, 5))).toEqual(at('one\nt\nthree', 5));
  });

  it('up and down move between lines, keeping the column where the line allows', () => {
    const text = 'first line\nab\nthird line';
    expect(edit.moveVertical(at(text, 20), -1)).toEqual(at(text, 13));
    expect(edit.moveVertical(at(text, 13), -1)).toEqual(at(text, 2));
    expect(edit.moveVertical(at(text, 2), -1)).toBeUndefined();
    expect(edit.moveVertical(at(text, 8), 1)).toEqual(at(text, 13));
    expect(edit.moveVertical(at(text, 20), 1)).toBeUndefined();
  });
});

describe('input history', () => {
  it('up recalls older entries, down returns to the draft being typed', () => {
    let model = initialEditorModel(['first', 'second']);
    model = editorReducer(model, { type: 'set', text: 'draft' });
    model = editorReducer(model, { type: 'vertical', direction: -1 });
    expect(model.editor).toEqual(edit.editorWith('second'));
    model = editorReducer(model, { type: 'vertical', direction: -1 });
    expect(model.editor.text).toBe('first');
    model = editorReducer(model, { type: 'vertical', direction: -1 });
    expect(model.editor.text).toBe('first');
    model = editorReducer(model, { type: 'vertical', direction: 1 });
    model = editorReducer(model, { type: 'vertical', direction: 1 });
    expect(model.editor.text).toBe('draft');
    model = editorReducer(model, { type: 'vertical', direction: 1 });
    expect(model.editor.text).toBe('draft');
  });

  it('a committed entry joins the history once and empties the line', () => {
    let model = initialEditorModel(['hello']);
    model = editorReducer(model, { type: 'commit', entry: 'hello' });
    expect(model.history).toEqual(['hello']);
    model = editorReducer(model, { type: 'commit', entry: 'next' });
    expect(model).toEqual({ editor: edit.emptyEditor, history: ['hello', 'next'], index: 2, draft: '' });
  });

  it('up inside multi-line text moves a line before it walks the history', () => {
    let model = initialEditorModel(['old']);
    model = editorReducer(model, { type: 'set', text: 'a\nb' });
    model = editorReducer(model, { type: 'vertical', direction: -1 });
    expect(model.editor).toEqual(at('a\nb', 1));
    model = editorReducer(model, { type: 'vertical', direction: -1 });
    expect(model.editor.text).toBe('old');
  });
});
