import { describe, expect, it } from 'vitest';
import { loadAgent } from '../../../src/agent/load-agent.js';
import { DEFAULT_LINES, resolveBoardConfig, validateBoardConfig } from '../../../src/augments/board/config.js';
import { boardFolder } from './harness.js';
import { BUILTIN_AUGMENTS } from '../../../src/augments/registry.js';

const FILE = 'augments/board/augment.yaml';

describe('board config', () => {
  it('lines default to both; initial and description are kept', () => {
    const resolved = resolveBoardConfig({ lines: [{ name: 'queue' }, { name: 'progress', owner: 'agent', initial: 'not started', description: 'how far' }] });
    expect(resolved).toEqual({
      defaulted: false,
      lines: [
        { name: 'queue', owner: 'both' },
        { name: 'progress', owner: 'agent', initial: 'not started', description: 'how far' },
      ],
    });
    expect(validateBoardConfig({ lines: [{ name: 'queue' }] }, FILE)).toEqual([]);
  });

  it('without lines, type: board alone is the default queue (person) and progress (agent)', () => {
    expect(resolveBoardConfig({})).toEqual({ lines: DEFAULT_LINES, defaulted: true });
    expect(DEFAULT_LINES.map((line) => [line.name, line.owner])).toEqual([
      ['queue', 'person'],
      ['progress', 'agent'],
    ]);
    expect(validateBoardConfig({}, FILE)).toEqual([]);
  });

  it('line names must be unique: the second is named with the first it repeats', () => {
    const found = validateBoardConfig({ lines: [{ name: 'queue' }, { name: 'notes' }, { name: 'queue', owner: 'agent' }] }, FILE);
    expect(found).toEqual([
      { severity: 'error', file: FILE, field: 'config.lines[2].name', message: '"queue" is already the name of lines[0]; line names must be unique' },
    ]);
    expect(resolveBoardConfig({ lines: [{ name: 'queue' }, { name: 'queue' }] })).toBeUndefined();
  });

  it('names the field and the fix for a bad owner, a bad name, a missing name, an empty list, a long initial', () => {
    const messages = (config: Record<string, unknown>) => validateBoardConfig(config, FILE).map((d) => `${d.field}: ${d.message}`);
    expect(messages({ lines: [{ name: 'queue', owner: 'user' }] })).toEqual(['config.lines[0].owner: must be agent, person or both']);
    expect(messages({ lines: [{ name: 'my queue' }] })[0]).toMatch(/^config\.lines\[0\]\.name: must start with a letter .*\/board set <line>/);
    expect(messages({ lines: [{ name: 'a=b' }] })[0]).toMatch(/^config\.lines\[0\]\.name: must start with a letter/);
    expect(messages({ lines: [{ owner: 'agent' }] })).toEqual(['config.lines[0].name: is required: the line\'s name, like "queue"']);
    expect(messages({ lines: [] })).toEqual(['config.lines: must list at least one line, or be left out for the default queue and progress lines']);
    expect(messages({ lines: 'queue' })[0]).toMatch(/^config\.lines: must be a list of lines/);
    expect(messages({ lines: [{ name: 'queue', initial: 'x'.repeat(4001) }] })).toEqual(['config.lines[0].initial: must be at most 4000 characters']);
  });

  it('a key a line does not take is a warning, not a silent default', () => {
    expect(validateBoardConfig({ lines: [{ name: 'queue', ownr: 'person' }] }, FILE)).toEqual([
      {
        severity: 'warning',
        file: FILE,
        field: 'config.lines[0].ownr',
        message: 'is not a line setting here and is ignored; a line takes name, owner, initial, description',
      },
    ]);
  });

  it('auggy validate points at the line of augment.yaml that is wrong', async () => {
    const dir = boardFolder('type: board\nconfig:\n  lines:\n    - name: queue\n    - name: queue\n      owner: agent\n');
    const loaded = await loadAgent(dir, BUILTIN_AUGMENTS, { processEnv: {} });
    const found = loaded.diagnostics.filter((d) => d.file === FILE);
    expect(found).toMatchObject([{ severity: 'error', line: 5, field: 'config.lines[1].name' }]);
  });
});
