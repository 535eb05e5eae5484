import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { interruptModel } from '../helpers/interrupt-agent.js';
import { mcpAgentFolder } from '../helpers/mcp-agent.js';
import { ServeScope, type ServeProcess } from '../helpers/serve-process.js';

/** The README's client, as a file where `@ag-ui/client` resolves from this repository's node_modules. */
function readmeExample(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const match = /```js readme-example\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('README.md has no ```js readme-example block');
  const dir = mkdtempSync(join(REPO_ROOT, 'node_modules', '.auggy-readme-'));
  const file = join(dir, 'client.mjs');
  writeFileSync(file, match[1]);
  return file;
}

const scope = new ServeScope();
let serve: ServeProcess;
let file: string;

beforeAll(async () => {
  file = readmeExample();
  ({ serve } = await scope.start(mcpAgentFolder({ augments: ['turnControl', 'questions', 'mcp'] }).dir, interruptModel));
}, 60_000);
afterAll(async () => {
  await scope.stop();
  rmSync(join(file, '..'), { recursive: true, force: true });
});

function runExample(message: string, answers: string[]) {
  return execa('node', [file, message], { input: `${answers.join('\n')}\n`, env: { AUGGY_URL: `${serve.url}/agent/run` }, reject: false });
}

describe('README "Answering from a web app": the example client', () => {
  it('draws a questionnaire one field at a time, resumes, and the turn ends with the answers', async () => {
    const result = await runExample('plan a deploy', ['api', 'x', '', '3']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Which service?');
    expect(result.stdout).toContain('Which environment? (staging / production)');
    // "x" is no whole number: the same words the terminal uses ask for it again.
    expect(result.stdout).toContain('Answer again: How many replicas?');
    expect(result.stdout).toContain('Done: {"status":"answered","answers":{"service":"api","replicas":3,"env":"staging"}}');
  });

  it('answers an approval and request_input the same way', async () => {
    const approval = await runExample('call mcp_everything_get_sum {"a":1,"b":2}', ['yes', 'no']);
    expect(approval.exitCode).toBe(0);
    expect(approval.stdout).toContain('everything wants to run get-sum');
    expect(approval.stdout).toContain('The sum of 1 and 2 is 3');
    const question = await runExample('ask Which region?', ['eu-west']);
    expect(question.exitCode).toBe(0);
    expect(question.stdout).toContain('You said: eu-west');
  });
});
