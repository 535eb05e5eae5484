import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { PresentedQuestion } from '../../../kernel/person.js';
import { emptyEditor } from '../editor-state.js';
import type { Keypress } from '../parse-keys.js';
import { initialQuestionInput, questionKey, type QuestionInput } from './question-keys.js';
import type { TuiPerson } from './tui-person.js';

const NO_INPUT: QuestionInput = { editor: emptyEditor, highlighted: -1 };

export interface QuestionnaireOptions {
  /**
   * Offered a line starting with `/` (never `//`): true when it ran it as a slash command
   * (`/away`, `/help`), false to take it as the answer.
   */
  runCommand?(line: string): boolean;
}

export interface QuestionnaireScreen {
  /** The question to draw in the input's place; undefined when none waits. */
  question?: PresentedQuestion;
  input: QuestionInput;
  away: boolean;
  /** Routes a key to the question on screen; false when there is none or the key is the chat's (Ctrl+C). */
  handleKey(key: Keypress): boolean;
}

/** The open question as React state, and the keys that answer it. */
export function useQuestionnaire(tui: TuiPerson, options: QuestionnaireOptions = {}): QuestionnaireScreen {
  const { question, away } = useSyncExternalStore(tui.subscribe, tui.snapshot);
  // Several keys of one chunk of input apply before React draws again: keep the latest here.
  const latest = useRef<{ question?: PresentedQuestion; input: QuestionInput } | undefined>(undefined);
  const [, redraw] = useState(0);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  /** The input for the question now waiting, fresh when the question changed. */
  const inputFor = useCallback((current: PresentedQuestion) => {
    if (latest.current?.question !== current) latest.current = { question: current, input: initialQuestionInput(current) };
    return latest.current.input;
  }, []);

  const handleKey = useCallback(
    (key: Keypress) => {
      const current = tui.snapshot().question;
      if (!current) return false;
      const result = questionKey(key, inputFor(current), current);
      switch (result.kind) {
        case 'pass':
          return false;
        case 'edit':
          latest.current = { question: current, input: result.input };
          redraw((n) => n + 1);
          return true;
        case 'decline':
          tui.decline();
          return true;
        case 'submit': {
          const line = result.text;
          if (line.startsWith('/') && !line.startsWith('//') && optionsRef.current.runCommand?.(line.trim())) {
            latest.current = { question: current, input: initialQuestionInput(current) };
            redraw((n) => n + 1);
            return true;
          }
          // `//` is an answer that starts with a slash, as in the chat input.
          tui.answer(line.startsWith('//') ? line.slice(1) : line);
          return true;
        }
      }
    },
    [tui, inputFor],
  );

  const input = question ? inputFor(question) : NO_INPUT;
  return useMemo(() => ({ question, input, away, handleKey }), [question, input, away, handleKey]);
}
