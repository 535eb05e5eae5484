import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { findPersona, personaFolders, personaPrompt, readPersona } from '../../src/hosts/test/scenario/persona.js';
import { selfPlayOf } from '../../src/hosts/test/scenario/load-scenario.js';
import { loadSelfPlayConfig } from '../../src/hosts/test/scenario/self-play-config.js';
import { mockPersonaReply, personaView, selfPlayTurnNumber, stripCompletion } from '../../src/hosts/test/run/persona-player.js';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'promptkit', 'self-play');

function personaFile(folder: string, name: string, text: string): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

const MANIFEST = (name: string, spec: string) => `apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Persona\nmetadata:\n  name: ${name}\nspec:\n${spec}`;

describe('PromptKit personas', () => {
  it("reads PromptKit's own persona file: metadata.name is the id, system_prompt as written, temperature from its defaults", () => {
    const read = readPersona(join(FIXTURE, 'personas', 'curious-learner.persona.yaml'));
    expect(read).toMatchObject({
      ok: true,
      persona: { id: 'curious-learner', temperature: 0.7, goals: [], style: { verbosity: 'medium', challengeLevel: 'medium' } },
    });
    if (!read.ok) throw new Error(read.why);
    const prompt = personaPrompt(read.persona);
    expect(prompt).toEqual({ ok: true, text: expect.stringMatching(/^Generate a natural user message that continues this conversation\./) });
  });

  it("renders system_template with the persona's goals, constraints and style, PromptKit's defaults for what it leaves out, and its optional vars", () => {
    const folder = tempDir('auggy-persona-');
    personaFile(
      folder,
      'x.persona.yaml',
      MANIFEST(
        'skeptic_uk',
        '  system_template: "You want {{persona_goals}}; never {{persona_constraints}}. Be {{verbosity}} at {{challenge_level}}, {{friction_tags}}, in {{region}} about {{product}}."\n  optional_vars: { product: "a kettle" }\n  goals: ["a refund", "an apology"]\n  constraints: []\n  style: { verbosity: short, friction_tags: [impatient] }\n  defaults: { temperature: 0.2 }\n',
      ),
    );
    const read = findPersona('skeptic_uk', [folder]);
    if (!read.ok) throw new Error(read.why);
    expect(read.persona.temperature).toBe(0.2);
    expect(personaPrompt(read.persona)).toEqual({
      ok: true,
      text: 'You want a refund, an apology; never Be respectful and constructive. Be short at medium, impatient, in uk about a kettle.',
    });
  });

  it('a template variable nothing sets, a required var, fragments or no prompt at all are each refused with the reason', () => {
    const folder = tempDir('auggy-persona-');
    personaFile(folder, 'a.persona.yaml', MANIFEST('a', '  system_template: "Hi {{nobody}}"\n'));
    personaFile(folder, 'b.persona.yaml', MANIFEST('b', '  system_template: "Hi {{who}}"\n  required_vars: [who]\n'));
    personaFile(folder, 'c.persona.yaml', MANIFEST('c', '  system_prompt: "x"\n  fragments: [{ name: f }]\n'));
    personaFile(folder, 'd.persona.yaml', MANIFEST('d', '  description: "no prompt"\n'));
    personaFile(folder, 'e.persona.yaml', MANIFEST('e', '  system_prompt: "x"\n  style: { verbosity: chatty }\n'));
    const prompt = (id: string) => {
      const read = findPersona(id, [folder]);
      return read.ok ? personaPrompt(read.persona) : read;
    };
    expect(prompt('a')).toEqual({ ok: false, why: 'persona a: its template leaves {{nobody}} unresolved' });
    expect(prompt('b')).toEqual({ ok: false, why: 'persona b needs who, which nothing sets' });
    expect(prompt('c')).toMatchObject({ ok: false, why: expect.stringMatching(/^persona c uses fragments/) });
    expect(prompt('d')).toEqual({ ok: false, why: 'persona d has no system_template or system_prompt' });
    expect(prompt('e')).toMatchObject({ ok: false, why: expect.stringMatching(/style\.verbosity/) });
  });

  it('finds a persona by its id in any persona file of the folders, and names the folders it looked in when none has it', () => {
    const scenarios = join(tempDir('auggy-persona-'), 'scenarios');
    mkdirSync(scenarios);
    const personas = join(scenarios, '..', 'personas');
    personaFile(personas, 'whoever.persona.yaml', MANIFEST('the-buyer', '  system_prompt: "You buy things."\n'));
    const folders = personaFolders(scenarios, join(scenarios, '..', 'agent'));
    expect(findPersona('the-buyer', folders)).toMatchObject({ ok: true, persona: { id: 'the-buyer', systemPrompt: 'You buy things.' } });
    const missing = findPersona('nobody', folders);
    expect(missing).toMatchObject({
      ok: false,
      why: expect.stringMatching(/^persona nobody has no file: no \*\.persona\.yaml with metadata\.name nobody in /),
    });
    if (!missing.ok) expect(missing.why).toContain(personas.replace('/scenarios/..', ''));
  });
});

describe('self-play turns as PromptKit counts them', () => {
  it('plays `turns` messages (1 when absent or 0), up to max_turns only when it is above turns', () => {
    expect(selfPlayOf('u', 'p', {})).toEqual({ role: 'u', persona: 'p', turns: 1, maxTurns: 1 });
    expect(selfPlayOf('u', 'p', { turns: 0 })).toMatchObject({ turns: 1, maxTurns: 1 });
    expect(selfPlayOf('u', 'p', { turns: 3 })).toMatchObject({ turns: 3, maxTurns: 3 });
    expect(selfPlayOf('u', 'p', { turns: 2, max_turns: 5 })).toMatchObject({ turns: 2, maxTurns: 5 });
    expect(selfPlayOf('u', 'p', { turns: 4, max_turns: 2 })).toMatchObject({ turns: 4, maxTurns: 4 });
  });

  const transcript: ModelMessage[] = [
    { role: 'user', content: 'Tell me about solar.' },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: {} }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'search', output: { type: 'text', value: 'found' } }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Solar is clean.' }] },
  ];

  it('shows the persona the conversation with roles swapped, tool calls and results left out', () => {
    expect(personaView(transcript)).toEqual([
      { role: 'user', content: 'Begin the conversation.' },
      { role: 'assistant', content: 'Tell me about solar.' },
      { role: 'user', content: 'Solar is clean.' },
    ]);
    expect(personaView([])).toEqual([{ role: 'user', content: 'Begin the conversation.' }]);
  });

  it("numbers the mock turn by the agent's replies so far plus one, or among self-play messages under duplex", () => {
    expect(selfPlayTurnNumber(transcript, 1, false)).toBe(2);
    expect(selfPlayTurnNumber([], 1, false)).toBe(1);
    expect(selfPlayTurnNumber(transcript, 1, true)).toBe(1);
  });

  it("answers from the persona's selfplay section, then the scenario's turns, then the defaults, as PromptKit's mock repository does", () => {
    const mock = {
      defaultResponse: 'file default',
      scenarios: { s: { turns: { '2': 'scenario turn 2' }, defaultResponse: 'scenario default' } },
      selfplay: { p: { turns: { '1': 'persona turn 1', '3': { content: 'persona turn 3' } } }, q: { defaultResponse: 'q default' } },
    };
    expect(mockPersonaReply(mock, 'p', 's', 1)).toBe('persona turn 1');
    expect(mockPersonaReply(mock, 'p', 's', 3)).toBe('persona turn 3');
    expect(mockPersonaReply(mock, 'p', 's', 2)).toBe('scenario turn 2');
    expect(mockPersonaReply(mock, 'q', 's', 2)).toBe('q default');
    expect(mockPersonaReply(mock, 'p', 's', 4)).toBe('scenario default');
    expect(mockPersonaReply(mock, 'p', 'other', 4)).toBe('file default');
  });

  it("strips PromptKit's completion marker and says it was there", () => {
    expect(stripCompletion('Thanks, that is all. [CONVERSATION_COMPLETE]')).toEqual({ text: 'Thanks, that is all.', complete: true });
    expect(stripCompletion('More please')).toEqual({ text: 'More please', complete: false });
  });
});

describe('self-play.yaml', () => {
  it('names a script or a model per role; a script outside the folder or a model that is no provider:model is an error at its line', () => {
    expect(loadSelfPlayConfig(FIXTURE)).toEqual({ ok: true, roles: [{ id: 'gemini-user', script: join(FIXTURE, 'mock-responses-selfplay.yaml') }] });
    const dir = tempDir('auggy-self-play-');
    writeFileSync(join(dir, 'self-play.yaml'), 'roles:\n  - id: a\n    script: ../elsewhere.yaml\n  - id: b\n    model: gpt-4o\n');
    const loaded = loadSelfPlayConfig(dir);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.diagnostics.map((d) => `${d.line}: ${d.message}`)).toEqual([
      expect.stringMatching(/^3: roles\[0\]\.script \.\.\/elsewhere\.yaml does not exist/),
      expect.stringMatching(/^5: roles\[1\]\.model "gpt-4o" must be provider:model/),
    ]);
    writeFileSync(join(dir, 'self-play.yaml'), 'roles:\n  - id: c\n');
    expect(loadSelfPlayConfig(dir)).toMatchObject({ ok: false, diagnostics: [{ line: 2, message: expect.stringMatching(/script|model/) }] });
  });
});
