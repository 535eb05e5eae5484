import { useCallback, useMemo, useRef, useState } from 'react';
import { editorWith, emptyEditor, moveVertical, type EditorState } from './editor-state.js';
import { withEntry } from './input-history.js';

/** The input line plus its history: `index === history.length` is the line being drafted. */
export interface EditorModel {
  editor: EditorState;
  history: string[];
  index: number;
  draft: string;
}

export type EditorAction =
  | { type: 'edit'; change: (state: EditorState) => EditorState }
  | { type: 'set'; text: string }
  | { type: 'vertical'; direction: -1 | 1 }
  | { type: 'commit'; entry: string };

export function initialEditorModel(history: string[]): EditorModel {
  return { editor: emptyEditor, history, index: history.length, draft: '' };
}

function recall(model: EditorModel, index: number): EditorModel {
  const draft = model.index === model.history.length ? model.editor.text : model.draft;
  const text = index === model.history.length ? draft : model.history[index];
  return { ...model, index, draft, editor: editorWith(text) };
}

export function editorReducer(model: EditorModel, action: EditorAction): EditorModel {
  switch (action.type) {
    case 'edit':
      return { ...model, editor: action.change(model.editor) };
    case 'set':
      return { ...model, editor: editorWith(action.text) };
    case 'vertical': {
      // Up and down move between lines of a multi-line message first, then through history.
      const moved = moveVertical(model.editor, action.direction);
      if (moved) return { ...model, editor: moved };
      const index = model.index + action.direction;
      if (index < 0 || index > model.history.length) return model;
      return recall(model, index);
    }
    case 'commit': {
      const history = withEntry(model.history, action.entry);
      return { editor: emptyEditor, history, index: history.length, draft: '' };
    }
  }
}

export interface InputEditor {
  /** The line as last drawn. */
  state: EditorState;
  /** The line now: several keys of one chunk of input apply before React draws again. */
  current(): EditorState;
  edit(change: (state: EditorState) => EditorState): void;
  set(text: string): void;
  vertical(direction: -1 | 1): void;
  /** Empties the line and remembers `entry` in the history (and wherever `persist` keeps it). */
  commit(entry: string): void;
  /** The line is a history entry as recalled, not yet edited. */
  recalled(): boolean;
}

export function isRecalled(model: EditorModel): boolean {
  return model.index < model.history.length && model.editor.text === model.history[model.index];
}

export function useInputEditor(history: string[], persist: (entry: string) => void): InputEditor {
  const [model, setModel] = useState(() => initialEditorModel(history));
  const latest = useRef(model);
  const dispatch = useCallback((action: EditorAction) => {
    latest.current = editorReducer(latest.current, action);
    setModel(latest.current);
  }, []);
  const current = useCallback(() => latest.current.editor, []);
  const edit = useCallback((change: (state: EditorState) => EditorState) => dispatch({ type: 'edit', change }), [dispatch]);
  const set = useCallback((text: string) => dispatch({ type: 'set', text }), [dispatch]);
  const vertical = useCallback((direction: -1 | 1) => dispatch({ type: 'vertical', direction }), [dispatch]);
  const commit = useCallback(
    (entry: string) => {
      dispatch({ type: 'commit', entry });
      if (entry.trim() !== '') persist(entry);
    },
    [dispatch, persist],
  );
  const recalled = useCallback(() => isRecalled(latest.current), []);
  return useMemo(
    () => ({ state: model.editor, current, edit, set, vertical, commit, recalled }),
    [model.editor, current, edit, set, vertical, commit, recalled],
  );
}
