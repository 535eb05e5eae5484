import { execa } from 'execa';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUGGY_BIN } from '../helpers/agent-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

/** auggy started in a folder removed just before, so Node cannot say what the working folder is. */
function auggyInRemovedFolder(...args: string[]) {
  const dir = join(tempDir('auggy-gone-'), 'gone');
  mkdirSync(dir);
  const script = 'cd "$1" && rmdir "$1" && shift && exec "$@"';
  return execa('sh', ['-c', script, 'sh', dir, process.execPath, AUGGY_BIN, ...args], { reject: false, env: { NO_COLOR: '1' } });
}

describe('an error nothing else caught', () => {
  it('is one line that names the src/ file and line it was thrown from, read from the source maps', async () => {
    for (const args of [[], ['run', '--print', 'hello']]) {
      const result = await auggyInRemovedFolder(...args);
      expect(result.exitCode).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^auggy: .*uv_cwd \(at src\/cli\/[\w-]+\.ts:\d+:\d+: a bug in auggy; please report it with this line\)$/);
      expect(result.stderr).not.toContain('dist/bundle');
    }
  });
});
