import { describe, expect, it } from 'vitest';
import { fillResult, pickStep, scriptSchema } from '../../src/model/scripted/script.js';

const script = scriptSchema.parse({
  rules: [
    { match: 'plan', result: '"status":\\s*"answered"', steps: [{ text: 'to {{result.answers.environment}} in {{result.answers.regions}}' }] },
    { match: 'plan', result: '"no-answer"', steps: [{ text: 'nobody answered' }] },
    { match: 'plan', steps: [{ text: 'asking', toolCalls: [{ name: 'ask_user' }] }, { text: 'something else came back' }] },
  ],
});

describe('a scripted rule with a result pattern', () => {
  it('answers the tool result that fits, and fills {{result.*}} from it', () => {
    const answered = '{"status":"answered","answers":{"environment":"staging","regions":["eu","us"]}}';
    const step = pickStep(script, 'plan a release', '', 1, new Map(), answered);
    expect(fillResult(step?.text ?? '', answered)).toBe('to staging in eu, us');
    expect(pickStep(script, 'plan a release', '', 1, new Map(), '{"status":"no-answer","reason":"away"}')?.text).toBe('nobody answered');
    expect(pickStep(script, 'plan a release', '', 1, new Map(), '{"status":"declined"}')?.text).toBe('something else came back');
  });

  it('never fits before a tool round', () => {
    expect(pickStep(script, 'plan a release', '', 0)?.text).toBe('asking');
  });
});
