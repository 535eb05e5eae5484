import { describe, expect, it } from 'vitest';
import { didYouMean, nearest } from '../../src/agent/suggest.js';
import { formatFieldPath, locateField, parseFieldPath, parseYamlSource } from '../../src/agent/yaml-source.js';
import { providerKeyVariable } from '../../src/agent/provider-keys.js';
import { splitFrontMatter } from '../../src/agent/front-matter.js';
import { PROVIDERS } from '../../src/agent/schema.js';

describe('nearest suggestion', () => {
  it('suggests the closest candidate for a typo and nothing for an unrelated word', () => {
    expect(nearest('opneai', PROVIDERS)).toBe('openai');
    expect(nearest('antropic', PROVIDERS)).toBe('anthropic');
    expect(nearest('Ollama', PROVIDERS)).toBe('ollama');
    expect(nearest('banana', PROVIDERS)).toBeUndefined();
    expect(didYouMean('turnContrl', ['turnControl'])).toBe('; did you mean turnControl?');
    expect(didYouMean('zzz', ['turnControl'])).toBe('');
  });
});

describe('field paths', () => {
  it('round-trips dotted paths with list indices', () => {
    expect(parseFieldPath('augments[2]')).toEqual(['augments', 2]);
    expect(parseFieldPath('config.items.0.name')).toEqual(['config', 'items', '0', 'name']);
    expect(formatFieldPath(['augments', 2, 'x'])).toBe('augments[2].x');
  });

  it('locates keys, list items (by number or digit string) and the nearest parent of an absent field', () => {
    const { source } = parseYamlSource('a: 1\nlist:\n  - x\n  - y\nnested:\n  deep: true\n', 'f.yaml');
    expect(locateField(source!, ['list', 1])).toEqual({ line: 4, column: 5 });
    expect(locateField(source!, ['list', '0'])).toEqual({ line: 3, column: 5 });
    expect(locateField(source!, ['nested', 'deep'])).toEqual({ line: 6, column: 3 });
    expect(locateField(source!, ['nested', 'absent'])).toEqual({ line: 5, column: 1 });
    expect(locateField(source!, ['absent'])).toBeUndefined();
  });

  it('shifts positions by the line offset of embedded YAML', () => {
    const { source, diagnostics } = parseYamlSource('name: x\ndescription: y\n', 'SKILL.md', { lineOffset: 1 });
    expect(diagnostics).toEqual([]);
    expect(locateField(source!, ['description'])).toEqual({ line: 3, column: 1 });
  });
});

describe('providerKeyVariable', () => {
  it('names the key variable per provider, engine.apiKeyEnv first, and none for local or scripted engines', () => {
    expect(providerKeyVariable({ provider: 'anthropic' })).toBe('ANTHROPIC_API_KEY');
    expect(providerKeyVariable({ provider: 'openai' })).toBe('OPENAI_API_KEY');
    expect(providerKeyVariable({ provider: 'openrouter' })).toBe('OPENROUTER_API_KEY');
    expect(providerKeyVariable({ provider: 'openai-compatible' })).toBeUndefined();
    expect(providerKeyVariable({ provider: 'openai-compatible', apiKeyEnv: 'VLLM_KEY' })).toBe('VLLM_KEY');
    expect(providerKeyVariable({ provider: 'openai', apiKeyEnv: 'WORK_OPENAI_KEY' })).toBe('WORK_OPENAI_KEY');
    expect(providerKeyVariable({ provider: 'ollama' })).toBeUndefined();
    expect(providerKeyVariable({ provider: 'scripted', apiKeyEnv: 'IGNORED' })).toBeUndefined();
  });
});

describe('splitFrontMatter', () => {
  it('splits YAML from the body, with CRLF line ends too, and refuses a file without front matter', () => {
    expect(splitFrontMatter('---\nname: a\n---\n\nBody\n')).toEqual({ yaml: 'name: a', body: 'Body\n', lineOffset: 1 });
    expect(splitFrontMatter('---\r\nname: a\r\n---\r\nBody')).toEqual({ yaml: 'name: a', body: 'Body', lineOffset: 1 });
    expect(splitFrontMatter('# Title\n')).toBeUndefined();
    expect(splitFrontMatter('---\nname: a\n')).toBeUndefined();
  });
});
