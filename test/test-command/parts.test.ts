import { describe, expect, it } from 'vitest';
import { ProgressLine } from '../../src/hosts/test/report/progress.js';
import { xmlEscape } from '../../src/hosts/test/report/xml.js';
import { scenarioPerson } from '../../src/hosts/test/run/scenario-person.js';
import { parseVerdict } from '../../src/hosts/test/assertions/judge.js';
import { createScriptedModel } from '../../src/model/scripted/scripted-model.js';
import { scriptSchema } from '../../src/model/scripted/script.js';
import type { PresentedQuestion } from '../../src/kernel/person.js';
import type { Scenario } from '../../src/hosts/test/scenario/types.js';

function question(field: string, extra: Partial<PresentedQuestion> = {}): PresentedQuestion {
  return { questionnaireId: 'q1', field, question: `What ${field}?`, type: 'text', required: true, index: 1, total: 1, ...extra };
}

describe('the scripted person of a scenario', () => {
  it('answers each field from the script, lists as comma text and booleans as yes/no', async () => {
    const person = scenarioPerson({ kind: 'scripted', answers: { env: 'production', replicas: 3, regions: ['eu', 'us'], confirm: true }, approve: [] });
    expect(person.present()).toBe(true);
    const signal = new AbortController().signal;
    expect(await person.ask(question('env'), signal)).toEqual({ kind: 'answer', text: 'production' });
    expect(await person.ask(question('replicas'), signal)).toEqual({ kind: 'answer', text: '3' });
    expect(await person.ask(question('regions'), signal)).toEqual({ kind: 'answer', text: 'eu, us' });
    expect(await person.ask(question('confirm'), signal)).toEqual({ kind: 'answer', text: 'yes' });
  });

  it('takes the default for a field it has no answer for, declines one without a default, and notes both', async () => {
    const person = scenarioPerson({ kind: 'scripted', answers: {}, approve: [] });
    const signal = new AbortController().signal;
    expect(await person.ask(question('size', { default: 'm' }), signal)).toEqual({ kind: 'answer', text: '-' });
    expect(await person.ask(question('name'), signal)).toEqual({ kind: 'declined' });
    expect(person.unscripted).toEqual([
      { field: 'size', took: 'default' },
      { field: 'name', took: 'declined' },
    ]);
  });

  it('answers an approval question yes for a tool it approves and no otherwise', async () => {
    const person = scenarioPerson({ kind: 'scripted', answers: { approve: 'always for this session' }, approve: ['mcp_ops_deploy'] });
    const approval = (toolName: string) => ({
      ...question('approve', { type: 'choice', options: ['yes', 'no', 'always for this session'] }),
      purpose: { kind: 'approval' as const, server: 'ops', tool: 'deploy', toolName, arguments: {} },
    });
    const signal = new AbortController().signal;
    expect(await person.ask(approval('mcp_ops_deploy'), signal)).toEqual({ kind: 'answer', text: 'yes' });
    expect(await person.ask(approval('mcp_ops_wipe'), signal)).toEqual({ kind: 'answer', text: 'no' });
  });

  it('approves the tools it lists (globs too); away is nobody and approves nothing', async () => {
    const person = scenarioPerson({ kind: 'scripted', answers: {}, approve: ['mcp_ops_*', 'deploy'] });
    expect([person.approves('mcp_ops_restart'), person.approves('deploy'), person.approves('mcp_files_write'), person.approves('deployer')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const away = scenarioPerson({ kind: 'away' });
    expect(away.present()).toBe(false);
    expect(away.approves('deploy')).toBe(false);
    expect(await away.ask(question('x'), new AbortController().signal)).toEqual({ kind: 'away' });
  });
});

describe('the progress line', () => {
  const scenario = { name: 'deploy asks', turns: [{}, {}, {}] } as unknown as Scenario;

  it('says scenario k of n, the run, the turn and the elapsed time, redrawn in place and cleared after', () => {
    const written: string[] = [];
    let now = 1_000;
    const progress = new ProgressLine({ write: (text) => written.push(text), columns: () => 120 }, () => now);
    progress.scenarioStarted(scenario, { index: 2, total: 5, run: 1, runs: 3 });
    now += 2_500;
    progress.turnStarted({ index: 2 } as Scenario['turns'][number]);
    expect(written.at(-1)).toBe('\r\u001b[2K… scenario 2 of 5 (run 1 of 3) · deploy asks · turn 2 of 3 · 2.5s');
    progress.scenarioFinished();
    expect(written.at(-1)).toBe('\r\u001b[2K');
    progress.stop();
  });

  it('fits the terminal width', () => {
    const progress = new ProgressLine({ write: () => {}, columns: () => 30 }, () => 0);
    progress.scenarioStarted(scenario, { index: 1, total: 1, run: 1, runs: 1 });
    expect(progress.text()).toHaveLength(29);
    expect(progress.text().endsWith('…')).toBe(true);
    progress.stop();
  });
});

describe('JUnit escaping', () => {
  it('escapes markup and quotes and drops characters XML cannot hold', () => {
    expect(xmlEscape(`a<b>&"c"'d'\u0007\u001b[31m`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;[31m');
  });
});

describe("the judge's verdict", () => {
  it('reads passed and score from a JSON object, even wrapped in prose, and falls back to score ≥ 0.5', () => {
    expect(parseVerdict('Sure: {"passed": false, "score": 0.2, "reasoning": "no"} done')).toEqual({ passed: false, score: 0.2, reasoning: 'no' });
    expect(parseVerdict('{"score": 0.7}')).toEqual({ passed: true, score: 0.7, reasoning: '' });
    expect(parseVerdict('{"passed": true}')).toEqual({ passed: true, score: 1, reasoning: '' });
    expect(parseVerdict('I think it is fine')).toBeUndefined();
    expect(parseVerdict('{"reasoning": "no verdict"}')).toBeUndefined();
  });
});

describe('the scripted model: a rule with replies', () => {
  it('gives its replies in turn, one per call, starting over after the last', async () => {
    const script = scriptSchema.parse({ rules: [{ match: 'flip', replies: [{ text: 'heads' }, { text: 'tails' }] }, { steps: [{ text: 'other' }] }] });
    const model = createScriptedModel(script, 'flip');
    const ask = async (text: string) => {
      const result = await model.doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text }] }] });
      return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    };
    expect([await ask('flip'), await ask('flip'), await ask('hello'), await ask('flip')]).toEqual(['heads', 'tails', 'other', 'heads']);
  });

  it('refuses a rule with both steps and replies, or neither', () => {
    expect(scriptSchema.safeParse({ rules: [{ steps: [{ text: 'a' }], replies: [{ text: 'b' }] }] }).success).toBe(false);
    expect(scriptSchema.safeParse({ rules: [{ match: 'x' }] }).success).toBe(false);
  });
});
