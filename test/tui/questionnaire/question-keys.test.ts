import { describe, expect, it } from 'vitest';
import type { PresentedQuestion } from '../../../src/kernel/person.js';
import { createKeyReader } from '../../../src/hosts/tui/parse-keys.js';
import { initialQuestionInput, questionKey, type QuestionInput, type QuestionKeyResult } from '../../../src/hosts/tui/questionnaire/question-keys.js';

const base = { questionnaireId: 'q', field: 'f', required: true, index: 1, total: 1 } as const;
const choice: PresentedQuestion = { ...base, question: 'Which?', type: 'choice', options: ['staging', 'production', 'dev'] };
const yesNo: PresentedQuestion = { ...base, question: 'Sure?', type: 'boolean' };
const list: PresentedQuestion = { ...base, question: 'Regions?', type: 'list' };

/** Feeds raw terminal input through the real key reader; returns the last result and the input then. */
function press(question: PresentedQuestion, raw: string[], start = initialQuestionInput(question)): { input: QuestionInput; last?: QuestionKeyResult } {
  const reader = createKeyReader();
  let input = start;
  let last: QuestionKeyResult | undefined;
  for (const chunk of raw) {
    for (const key of reader.read(chunk)) {
      last = questionKey(key, input, question);
      if (last.kind === 'edit') input = last.input;
    }
  }
  return { input, last };
}

const UP = '\u001b[A';
const DOWN = '\u001b[B';

describe('question keys', () => {
  it("arrows move over a choice's options, wrapping; Enter picks the highlighted one", () => {
    expect(initialQuestionInput(choice).highlighted).toBe(-1);
    expect(press(choice, [DOWN, DOWN, '\r']).last).toEqual({ kind: 'submit', text: 'production' });
    expect(press(choice, [UP, '\r']).last).toEqual({ kind: 'submit', text: 'dev' });
    expect(press(choice, [DOWN, DOWN, DOWN, DOWN, '\r']).last).toEqual({ kind: 'submit', text: 'staging' });
  });

  it('the highlight starts on the default', () => {
    expect(initialQuestionInput({ ...choice, default: 'production' }).highlighted).toBe(1);
    expect(press({ ...yesNo, default: 'no' }, ['\r']).last).toEqual({ kind: 'submit', text: 'no' });
  });

  it('typing a number or an option moves the highlight; Enter sends what was typed', () => {
    const typed = press(choice, ['3']);
    expect(typed.input.highlighted).toBe(2);
    expect(press(choice, ['Production']).input.highlighted).toBe(1);
    expect(press(choice, ['prod', '\r']).last).toEqual({ kind: 'submit', text: 'prod' });
    expect(press(yesNo, ['y']).input.highlighted).toBe(0);
    // Booleans are not numbered: "1" is not yes.
    expect(press(yesNo, ['1']).input.highlighted).toBe(-1);
  });

  it('arrows on a boolean pick yes or no', () => {
    expect(press(yesNo, [DOWN, DOWN, '\r']).last).toEqual({ kind: 'submit', text: 'no' });
  });

  it('a line is edited like the chat input: backspace, Ctrl+W, Ctrl+A', () => {
    expect(press(list, ['eu-west, us-east', '\u007f', 't', '\r']).last).toEqual({ kind: 'submit', text: 'eu-west, us-east' });
    expect(press(list, ['a b', '\u0017', '\r']).last).toEqual({ kind: 'submit', text: 'a ' });
    expect(press(list, ['b', '\u0001', 'a', '\r']).last).toEqual({ kind: 'submit', text: 'ab' });
  });

  it('pasted lines of a list become its items; elsewhere one line', () => {
    expect(press(list, ['\u001b[200~eu\nus\u001b[201~', '\r']).last).toEqual({ kind: 'submit', text: 'eu, us' });
    expect(press({ ...list, type: 'text' }, ['\u001b[200~a\nb\u001b[201~', '\r']).last).toEqual({ kind: 'submit', text: 'a b' });
  });

  it("Esc declines; Ctrl+C and Ctrl+L are the chat's; other keys stay with the question", () => {
    expect(press(choice, ['\u001b']).last).toEqual({ kind: 'decline' });
    expect(press(choice, ['\u0003']).last).toEqual({ kind: 'pass' });
    expect(press(choice, ['\u000c']).last).toEqual({ kind: 'pass' });
    expect(press(list, ['x', '\u0004']).last).toMatchObject({ kind: 'edit' });
    expect(press(list, ['\t']).last).toMatchObject({ kind: 'edit' });
  });
});
