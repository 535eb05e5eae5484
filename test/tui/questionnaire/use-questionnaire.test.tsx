import { afterEach, describe, expect, it } from 'vitest';
import { Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { questionnaireSpecSchema } from '../../../src/augments/questions/field-spec.js';
import { runQuestionnaire } from '../../../src/augments/questions/run-questionnaire.js';
import { parseCommandLine } from '../../../src/hosts/tui/command-registry.js';
import { useKeys } from '../../../src/hosts/tui/use-keys.js';
import { presenceCommands } from '../../../src/hosts/tui/questionnaire/presence-commands.js';
import { FieldQuestionView } from '../../../src/hosts/tui/questionnaire/field-question-view.js';
import { createTuiPerson, type TuiPerson } from '../../../src/hosts/tui/questionnaire/tui-person.js';
import { useQuestionnaire } from '../../../src/hosts/tui/questionnaire/use-questionnaire.js';
import { KEY, frameWith } from '../chat-harness.js';

afterEach(() => cleanup());

/** The wiring the chat will do, in miniature: keys go to the question first, the view takes the input's place. */
function Screen({ tui, runCommand }: { tui: TuiPerson; runCommand?(line: string): boolean }) {
  const screen = useQuestionnaire(tui, { runCommand });
  const ready = useKeys((key) => {
    screen.handleKey(key);
  });
  if (!ready) return <Text>starting</Text>;
  return screen.question ? <FieldQuestionView question={screen.question} input={screen.input} /> : <Text>{screen.away ? 'away' : 'no question'}</Text>;
}

const spec = questionnaireSpecSchema.parse({
  prompt: 'Before I deploy:',
  fields: [
    { name: 'env', question: 'Which environment?', type: 'choice', options: ['staging', 'production', 'dev'] },
    { name: 'regions', question: 'Which regions?', type: 'list' },
    { name: 'replicas', question: 'How many replicas?', type: 'integer', default: 2 },
  ],
});

async function start(runCommand?: (tui: TuiPerson) => (line: string) => boolean) {
  const tui = createTuiPerson();
  const app = render(<Screen tui={tui} runCommand={runCommand?.(tui)} />);
  const frame = (check: string | ((f: string) => boolean)) => frameWith(() => app.lastFrame(), check);
  await frame('no question');
  const result = runQuestionnaire(spec, tui.person, { signal: new AbortController().signal, emit: () => undefined });
  return { tui, app, frame, result };
}

describe('useQuestionnaire with FieldQuestionView', () => {
  it('a choice picked with arrows, a list typed with commas, a refused number asked again then accepted', async () => {
    const { app, frame, result } = await start();
    expect(await frame('question 1 of 3')).toContain('Before I deploy:');
    app.stdin.write(KEY.down);
    await frame('› 1. staging');
    app.stdin.write(KEY.down);
    await frame('› 2. production');
    app.stdin.write(KEY.enter);
    const second = await frame('question 2 of 3');
    expect(second).not.toContain('Before I deploy:');
    app.stdin.write('eu-west, us-east');
    await frame('› eu-west, us-east');
    app.stdin.write(KEY.enter);
    await frame('question 3 of 3');
    app.stdin.write('lots');
    await frame('lots');
    app.stdin.write(KEY.enter);
    const again = await frame('✗');
    expect(again).toContain('question 3 of 3');
    expect(again).toContain('"lots" is not a whole number; type digits, such as 3');
    // The input is fresh for the question asked again.
    expect(again).toContain('your answer');
    app.stdin.write('4');
    await frame('› 4');
    app.stdin.write(KEY.enter);
    expect(await result).toEqual({ status: 'answered', answers: { env: 'production', regions: ['eu-west', 'us-east'], replicas: 4 } });
    await frame('no question');
  });

  it('Enter on nothing for a required field is refused on the spot, on that field; the dash still takes a default', async () => {
    const { app, frame, result } = await start();
    await frame('question 1 of 3');
    app.stdin.write('2');
    await frame('› 2');
    app.stdin.write(KEY.enter);
    await frame('question 2 of 3');
    app.stdin.write(KEY.enter);
    const refused = await frame('✗');
    expect(refused).toContain('question 2 of 3');
    expect(refused).toContain('Which regions?');
    expect(refused).toContain('an answer is required');
    app.stdin.write('eu-west');
    await frame('› eu-west');
    app.stdin.write(KEY.enter);
    await frame('question 3 of 3');
    // Its hint promises the default for `-`, not for Enter on nothing.
    app.stdin.write(KEY.enter);
    const again = await frame((f) => f.includes('question 3 of 3') && f.includes('an answer is required'));
    expect(again).toContain('or - for 2');
    app.stdin.write('-');
    await frame('› -');
    app.stdin.write(KEY.enter);
    expect(await result).toEqual({ status: 'answered', answers: { env: 'production', regions: ['eu-west'], replicas: 2 } });
  });

  it('Esc declines the questionnaire', async () => {
    const { app, frame, result } = await start();
    await frame('question 1 of 3');
    app.stdin.write(KEY.escape);
    expect(await result).toEqual({ status: 'no-answer', reason: 'declined' });
  });

  it('/away typed at a question runs the command: the questionnaire ends with no answer (away)', async () => {
    const commands = (tui: TuiPerson) => (line: string) => {
      const parsed = parseCommandLine(line);
      const command = presenceCommands(tui).find((c) => c.name === parsed?.name);
      if (!command) return false;
      void command.run(parsed?.args ?? '');
      return true;
    };
    const { app, frame, result } = await start(commands);
    await frame('question 1 of 3');
    app.stdin.write('/away');
    await frame('› /away');
    app.stdin.write(KEY.enter);
    expect(await result).toEqual({ status: 'no-answer', reason: 'away' });
    await frame('away');
  });

  it('a line starting with a slash that is no command is the answer; // escapes one', async () => {
    const tui = createTuiPerson();
    const app = render(<Screen tui={tui} runCommand={() => false} />);
    await frameWith(() => app.lastFrame(), 'no question');
    const path = questionnaireSpecSchema.parse({
      prompt: 'p',
      fields: [
        { name: 'dir', type: 'text' },
        { name: 'other', type: 'text' },
      ],
    });
    const result = runQuestionnaire(path, tui.person, { signal: new AbortController().signal, emit: () => undefined });
    await frameWith(() => app.lastFrame(), 'question 1 of 2');
    app.stdin.write('/var/log');
    await frameWith(() => app.lastFrame(), '› /var/log');
    app.stdin.write(KEY.enter);
    await frameWith(() => app.lastFrame(), 'question 2 of 2');
    app.stdin.write('//away');
    await frameWith(() => app.lastFrame(), '› //away');
    app.stdin.write(KEY.enter);
    expect(await result).toEqual({ status: 'answered', answers: { dir: '/var/log', other: '/away' } });
  });
});
