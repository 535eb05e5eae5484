import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { AUGGY_BIN, copyExample } from '../helpers/agent-fixture.js';

describe('auggy run without a terminal', () => {
  it('says to use --print and exits 2, without starting a session', async () => {
    const dir = copyExample('demo');
    const result = await execa('node', [AUGGY_BIN, 'run', dir], { reject: false, input: '' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--print/);
    expect(result.stdout).toBe('');
  });
});
