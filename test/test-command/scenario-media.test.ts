import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { AUGGY_BIN, REPO_ROOT, makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { PNG_BASE64, PNG_DATA_URL, imageUrlsOfLastUserMessage, textOfLastUserMessage, writePng } from '../helpers/images.js';
import { tempDir, writeFiles } from '../helpers/temp-dir.js';

function auggyTest(args: string[]) {
  const env = {
    OPENAI_API_KEY: '',
    ANTHROPIC_API_KEY: '',
    AUGGY_MODEL: '',
    AUGGY_BASE_URL: '',
    AUGGY_API_KEY: '',
    NO_COLOR: '1',
    TMPDIR: tempDir('auggy-tmp-'),
  };
  return execa('node', [AUGGY_BIN, 'test', ...args], { reject: false, env, extendEnv: true, cwd: REPO_ROOT });
}

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A PromptKit scenario with one turn of `parts`, as its multimodal examples write them. */
function partsScenario(name: string, parts: string): string {
  return `apiVersion: promptkit.altairalabs.ai/v1alpha1
kind: Scenario
metadata:
  name: ${name}
spec:
  turns:
    - role: user
      parts:
        - type: text
          text: "What is in this image?"
${parts}
      assertions:
        - type: content_includes
          params: { patterns: [dot] }
`;
}

describe('auggy test: media parts of a scenario turn', () => {
  it('sends image parts (a file beside the scenario, and base64 data) as images with the text', async () => {
    const server = await startChatServer(() => ({ text: 'A single dot.' }));
    servers.push(server);
    const dir = makeAgentFolder();
    mkdirSync(join(dir, 'tests', 'media'), { recursive: true });
    writePng(dir, 'tests/media/dot.png');
    writeFiles(dir, {
      'tests/vision.scenario.yaml': partsScenario(
        'sees the dot',
        `        - type: image\n          media: { file_path: media/dot.png, mime_type: image/png }\n        - type: image\n          media: { data: "${PNG_BASE64}", mime_type: image/png }`,
      ),
    });
    const run = await auggyTest([dir, '--model', 'openai-compatible:test', '--base-url', server.url]);
    expect(run.stdout).toContain('PASS  sees the dot');
    expect(run.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(textOfLastUserMessage(server.requests[0])).toBe('What is in this image?');
    expect(imageUrlsOfLastUserMessage(server.requests[0])).toEqual([PNG_DATA_URL, PNG_DATA_URL]);
  });

  it('skips a turn with an audio part, or an image at a network URL, says why under the scenario, and sends nothing', async () => {
    const server = await startChatServer(() => ({ text: 'never asked' }));
    servers.push(server);
    const dir = makeAgentFolder();
    writeFiles(dir, {
      'tests/audio.scenario.yaml': partsScenario('hears', `        - type: audio\n          media: { file_path: a.wav, mime_type: audio/wav }`),
      'tests/remote.scenario.yaml': partsScenario(
        'fetches',
        `        - type: image\n          media: { url: "https://example.com/logo.png", mime_type: image/png }`,
      ),
    });
    const run = await auggyTest([dir, '--model', 'openai-compatible:test', '--base-url', server.url]);
    expect(run.stdout).toContain('auggy sends a model text and images, not audio, so the turn is not run');
    expect(run.stdout).toContain('its image part is at https://example.com/logo.png, and auggy test fetches nothing from the network');
    // Loaded and reported, each skip said under its scenario: the checks were not run, so not passed either.
    expect(run.stdout).toMatch(/^PASS {2}hears .*\n {6}note: turn 1: its audio part is not sent/m);
    expect(server.requests).toHaveLength(0);
  });

  it('fails the run when an image part names a file that is not there', async () => {
    const server = await startChatServer(() => ({ text: 'never asked' }));
    servers.push(server);
    const dir = makeAgentFolder();
    writeFiles(dir, { 'tests/missing.scenario.yaml': partsScenario('missing', `        - type: image\n          media: { file_path: gone.png }`) });
    const run = await auggyTest([dir, '--model', 'openai-compatible:test', '--base-url', server.url]);
    expect(run.stdout).toMatch(/^FAIL {2}missing /m);
    expect(run.stdout).toContain('the image in part 2:');
    expect(run.stdout).toContain('gone.png does not exist');
    expect(run.exitCode).not.toBe(0);
    expect(server.requests).toHaveLength(0);
  });
});
