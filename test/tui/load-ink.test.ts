import { execa } from 'execa';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/agent-fixture.js';

// In a Node of its own: the suite's process has long since loaded undici and Ink.
const probe = `
const fetchBefore = globalThis.fetch;
const { loadInteractiveInk } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', 'hosts', 'tui', 'start-tui.js')).href)});
await loadInteractiveInk();
const { render } = await import('ink');
console.log(JSON.stringify({
  undici: process.moduleLoadList.some((name) => name.includes('undici')),
  sameFetch: globalThis.fetch === fetchBefore,
  ink: typeof render,
}));
`;

describe('loading Ink for the chat', () => {
  it("loads Ink and its layout engine without Node's fetch, and gives fetch back as it was", async () => {
    const { stdout } = await execa('node', ['--input-type=module', '-e', probe], { cwd: REPO_ROOT });
    expect(JSON.parse(stdout)).toEqual({ undici: false, sameFetch: true, ink: 'function' });
  });
});
