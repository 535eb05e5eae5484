import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUGGY_BIN, copyExample } from '../helpers/agent-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

// Each of Node's own modules a start loads is compiled and run at every start; an import of
// node:crypto alone loaded twenty of them (docs/performance.md, round six). A preload writes the
// list Node keeps (`process.moduleLoadList`) when the process exits.
const PRELOAD = `process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));\n`;

async function modulesOfPrintDemo(): Promise<string[]> {
  const dir = tempDir('auggy-modules-');
  const preload = join(dir, 'preload.cjs');
  const out = join(dir, 'modules.txt');
  writeFileSync(preload, PRELOAD);
  const result = await execa(process.execPath, ['--require', preload, AUGGY_BIN, 'run', copyExample(), '--print', 'hello'], {
    reject: false,
    env: { NO_COLOR: '1', MODULES_OUT: out },
  });
  expect(result.exitCode, result.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n');
}

describe("Node's own modules at start-up", () => {
  it('run --print of the demo loads neither crypto nor readline, which it has no use for', async () => {
    const loaded = await modulesOfPrintDemo();
    expect(loaded).toContain('NativeModule fs');
    const unneeded = loaded.filter((name) => /^NativeModule (crypto|internal\/crypto\/.*|readline|readline\/promises)$/.test(name));
    expect(unneeded).toEqual([]);
  });
});
