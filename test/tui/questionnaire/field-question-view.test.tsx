import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import type { PresentedQuestion } from '../../../src/kernel/person.js';
import { emptyEditor, editorWith } from '../../../src/hosts/tui/editor-state.js';
import { questionHints } from '../../../src/hosts/tui/questionnaire/question-hints.js';
import { FieldQuestionView } from '../../../src/hosts/tui/questionnaire/field-question-view.js';
import { frameWith } from '../chat-harness.js';

afterEach(() => cleanup());

const base = { questionnaireId: 'q', field: 'f', required: true, index: 2, total: 3 } as const;
const none = { editor: emptyEditor, highlighted: -1 };

function draw(question: PresentedQuestion, input = none) {
  const { lastFrame } = render(<FieldQuestionView question={question} input={input} />);
  return frameWith(lastFrame, 'question');
}

describe('FieldQuestionView: the field makes the question', () => {
  it('headed "question 2 of 3", the question, the answer line and the way out', async () => {
    const frame = await draw({ ...base, question: 'What should the release be called?', type: 'text' });
    expect(frame.split('\n')).toEqual(['? question 2 of 3', '  What should the release be called?', '›  your answer', '  Esc declines']);
  });

  it('the intro is shown above the first question', async () => {
    const frame = await draw({ ...base, index: 1, question: 'Which environment?', type: 'text', intro: 'A few settings before I deploy.' });
    expect(frame.split('\n').slice(0, 3)).toEqual(['A few settings before I deploy.', '', '? question 1 of 3']);
  });

  it('a choice lists its options by number, the highlighted one marked', async () => {
    const frame = await draw(
      { ...base, question: 'Which environment?', type: 'choice', options: ['staging', 'production'] },
      { editor: emptyEditor, highlighted: 1 },
    );
    expect(frame).toContain('    1. staging\n  › 2. production');
    expect(frame).toContain('↑↓ and Enter, or type its number or text');
  });

  it('a boolean is shown as yes / no', async () => {
    const frame = await draw({ ...base, question: 'Go ahead?', type: 'boolean' });
    expect(frame).toContain('  yes / no');
    expect(frame).toContain('yes or no · Esc declines');
  });

  it('a default says "or - for" it; a list says commas; numbers are marked as numbers', async () => {
    expect(await draw({ ...base, question: 'Replicas?', type: 'integer', default: '3' })).toContain('a whole number · or - for 3 · Esc declines');
    expect(await draw({ ...base, question: 'Size?', type: 'number' })).toContain('a number · Esc declines');
    expect(await draw({ ...base, question: 'Regions?', type: 'list' })).toContain('one line, separated by commas');
  });

  it('asked again, the reason the last answer was refused', async () => {
    const frame = await draw({ ...base, question: 'Replicas?', type: 'integer', error: '"many" is not a whole number; type digits, such as 3' });
    expect(frame).toContain('  Replicas?\n  ✗ "many" is not a whole number; type digits, such as 3');
  });

  it('what is typed shows in the answer line', async () => {
    const frame = await draw({ ...base, question: 'Regions?', type: 'list' }, { editor: editorWith('eu, us'), highlighted: -1 });
    expect(frame).toContain('› eu, us');
  });

  it('hints: optional fields say Enter skips them', () => {
    expect(questionHints({ ...base, question: 'Note?', type: 'text', required: false })).toEqual(['Enter on nothing skips it', 'Esc declines']);
  });
});
