import { execa } from 'execa';
import { AUGGY_BIN } from './agent-fixture.js';

/** No provider settings leak in from the machine running the tests; no colour in what is compared. */
const CLEAN_ENV = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

/** The built binary with these arguments, under the Node running the tests; resolves with its exit code and output, never rejects. */
export function auggy(args: string[], env: Record<string, string> = {}) {
  return execa(process.execPath, [AUGGY_BIN, ...args], { reject: false, env: { ...CLEAN_ENV, ...env }, extendEnv: true });
}

/** `auggy run <dir> --print` against a loopback server, as --model openai-compatible:test --base-url. */
export function auggyPrint(dir: string, url: string, ...rest: string[]) {
  return auggy(['run', dir, '--print', '--model', 'openai-compatible:test', '--base-url', url, ...rest]);
}
