import { describe, expect, it } from 'vitest';
import { renderTemplate, templateValues } from '../../../src/augments/workflow/render-template.js';

describe('PromptPack template rendering', () => {
  it('substitutes {{variable}} with strings, numbers, objects and dotted paths', () => {
    const values = { name: 'Ada', count: 3, flags: { vip: true }, artifacts: { commit_sha: 'abc123' } };
    expect(renderTemplate('Hi {{name}}, {{ count }} items, {{flags}}, at {{artifacts.commit_sha}}.', '{{variable}}', values)).toBe(
      'Hi Ada, 3 items, {"vip":true}, at abc123.',
    );
  });

  it('renders a value nobody provided as empty rather than as a raw placeholder', () => {
    expect(renderTemplate('Account: {{account_id}}.', '{{variable}}', {})).toBe('Account: .');
  });

  it('follows the pack’s template_engine.syntax', () => {
    expect(renderTemplate('Hi ${name} {{name}}', '${variable}', { name: 'Bo' })).toBe('Hi Bo {{name}}');
    expect(renderTemplate('Hi {name}', '{variable}', { name: 'Cy' })).toBe('Hi Cy');
  });

  it('layers variable defaults, then configured values, then the carried context', () => {
    const prompt = {
      system_template: '',
      variables: [
        { name: 'company', default: 'Initech' },
        { name: 'tone', default: 'calm' },
        { name: 'topic', default: 'billing' },
      ],
    };
    expect(templateValues(prompt, { tone: 'warm', topic: 'cards' }, { topic: 'loans' })).toEqual({ company: 'Initech', tone: 'warm', topic: 'loans' });
    expect(templateValues({ system_template: '', variables: { region: 'north' } }, {}, {})).toEqual({ region: 'north' });
  });
});
