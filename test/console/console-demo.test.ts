import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { copyExample } from '../helpers/agent-fixture.js';
import { chromiumPerFile, openConsole, screenshot } from '../helpers/console-browser.js';
import { ServeScope, startServe } from '../helpers/serve-process.js';

const browser = chromiumPerFile();

const scope = new ServeScope();
afterEach(() => scope.stop());

/** A rule for the demo's script, before its greeting: a reply whose markup must stay text. */
const MARKUP_RULE = `  - match: "markup"
    steps:
      - text: "Here: <script>window.__injected = 1</script> and <img src=x onerror=\\"window.__injected = 2\\"> and \`code\`.\\n\\n<div onclick=alert(1)>block</div>"
  - match: "^(hi|hello|hey)\\\\b"`;

function demoFolder(): string {
  const dir = copyExample('demo');
  const script = join(dir, 'script.yaml');
  const text = readFileSync(script, 'utf8');
  const withRule = text.replace('  - match: "^(hi|hello|hey)\\\\b"', MARKUP_RULE);
  expect(withRule).not.toBe(text);
  writeFileSync(script, withRule);
  return dir;
}

async function startDemo(env: Record<string, string> = {}): Promise<string> {
  const serve = scope.adopt(await startServe(demoFolder(), [], env));
  return serve.url;
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel(/Message the agent|Your answer/).fill(text);
  await page.keyboard.press('Enter');
}

/** The turn is the person's again: no run in flight. */
async function personHoldsTurn(page: Page): Promise<void> {
  await page.locator('.turn-status.idle, .turn-status.waiting').waitFor();
}

describe('the Console on the scripted demo', () => {
  it('sends a message and draws the streamed reply as markdown, with one line per tool call, and copies the transcript as markdown', async () => {
    const url = await startDemo();
    const { page, errors } = await openConsole(browser(), url);
    await send(page, 'hello');
    await page.getByText("Hello! I'm the demo agent.").waitFor();
    await personHoldsTurn(page);
    const tool = page.locator('.tool-line', { hasText: 'board_write' });
    await expect(tool.count()).resolves.toBe(1);
    await tool.locator('summary').click();
    await expect(tool.locator('.tool-detail').textContent()).resolves.toContain('Result');
    await page.locator('.verdict', { hasText: 'achieved' }).first().waitFor();
    await screenshot(page, 'reply');
    await page.getByRole('button', { name: 'Copy transcript' }).click();
    await page.getByText('Transcript copied as markdown.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^\*\*You:\*\* hello\n\n- tool `board_write`/);
    expect(copied).toContain("**Agent:** Hello! I'm the demo agent.");
    expect(errors).toEqual([]);
  });

  it('marks a question as one, says the input waits for the answer, hides the reason, and goes on with the answer', async () => {
    const url = await startDemo();
    const { page, errors } = await openConsole(browser(), url);
    await send(page, 'deploy the api');
    const question = page.locator('.message.question');
    await question.getByText('Which production service should I deploy').waitFor();
    await expect(question.locator('.question-badge').textContent()).resolves.toBe('Question');
    await page.getByText('The agent is waiting for your answer.').waitFor();
    await page.getByLabel('Your answer (the agent is waiting for it)').waitFor();
    // request_input's reason is for the log, never for the person.
    await expect(page.locator('body').textContent()).resolves.not.toContain('neither is the default');
    await screenshot(page, 'question');
    await send(page, 'api-west');
    await page.getByText('Deploying that service now').waitFor();
    await personHoldsTurn(page);
    await expect(page.locator('.board-line[data-line="progress"] input').inputValue()).resolves.toBe('api-west: built, pushed, rolled out');
    expect(errors).toEqual([]);
  });

  it('asks a three-field questionnaire one field each, puts a refused answer back on its field with the reason, and goes on', async () => {
    const url = await startDemo();
    const { page, errors } = await openConsole(browser(), url);
    await send(page, 'plan a release');
    const form = page.getByRole('form', { name: 'Questions from the agent' });
    await form.waitFor();
    await expect(form.locator('.field').count()).resolves.toBe(3);
    await form.getByRole('radio', { name: 'production' }).click();
    await form.getByLabel('How many replicas?').fill('many');
    await form.getByLabel('Which regions? (comma-separated)').fill('eu-west, us-east');
    await screenshot(page, 'questionnaire');
    await form.getByRole('button', { name: 'Send answers' }).click();
    // Only the refused field comes back, with why.
    const refused = page.locator('.field.refused');
    await refused.waitFor();
    await expect(page.locator('.questionnaire .field').count()).resolves.toBe(1);
    await expect(refused.getAttribute('data-field')).resolves.toBe('replicas');
    await expect(refused.locator('.refusal').textContent()).resolves.toMatch(/whole number|integer|number/i);
    await expect(refused.getByLabel('How many replicas?').inputValue()).resolves.toBe('many');
    await screenshot(page, 'questionnaire-refused');
    // The default is one click away.
    await refused.getByRole('button', { name: 'Use default: 2' }).click();
    await expect(refused.getByLabel('How many replicas?').inputValue()).resolves.toBe('2');
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByText('Thanks: the release goes to').waitFor();
    await personHoldsTurn(page);
    expect(errors).toEqual([]);
  });

  it('sets the tracked ask and clears it, as /ask does in the chat', async () => {
    const url = await startDemo();
    const { page, errors } = await openConsole(browser(), url);
    await send(page, 'hello');
    await personHoldsTurn(page);
    const ask = page.getByRole('region', { name: /ask/i });
    await ask.locator('.ask-text', { hasText: 'hello' }).waitFor();
    await ask.getByLabel('Set the tracked request').fill('Deploy api-west today.');
    await ask.getByRole('button', { name: 'Set' }).click();
    await ask.getByText('Ask set: Deploy api-west today.').waitFor();
    await ask.locator('.ask-text', { hasText: 'Deploy api-west today.' }).waitFor();
    await ask.getByRole('button', { name: 'Clear' }).click();
    await ask.getByText('Ask cleared: no request is tracked until your next message.').waitFor();
    expect(errors).toEqual([]);
  });

  it('lists threads newest first and resumes one after a reload, still waiting on its question', async () => {
    const url = await startDemo();
    const { page, errors } = await openConsole(browser(), url);
    await send(page, 'hello');
    await page.getByText("Hello! I'm the demo agent.").waitFor();
    await personHoldsTurn(page);
    await page.getByRole('button', { name: 'New thread' }).click();
    await send(page, 'deploy the api');
    await page.getByText('The agent is waiting for your answer.').waitFor();
    await page.reload();
    await page.getByText('Which production service should I deploy').waitFor();
    await page.getByText('The agent is waiting for your answer.').waitFor();
    const titles = await page.locator('.threads .thread-title').allTextContents();
    expect(titles).toEqual(['deploy the api', 'hello']);
    await send(page, 'api-east');
    await page.getByText('Deploying that service now').waitFor();
    await personHoldsTurn(page);
    // The older thread opens with its own transcript.
    await page.locator('.threads .thread', { hasText: 'hello' }).click();
    await page.getByText("Hello! I'm the demo agent.").waitFor();
    await expect(page.locator('.transcript').textContent()).resolves.not.toContain('api-east');
    expect(errors).toEqual([]);
  });

  it('draws a reply holding <script> and <img onerror> as text, running neither', async () => {
    const url = await startDemo();
    const { page, errors } = await openConsole(browser(), url);
    await send(page, 'show markup');
    const reply = page.locator('.message.assistant').last();
    await reply.getByText('window.__injected = 1', { exact: false }).waitFor();
    await personHoldsTurn(page);
    const text = await reply.textContent();
    expect(text).toContain('<script>');
    expect(text).toContain('<img src=x onerror="window.__injected = 2">');
    expect(text).toContain('<div onclick=alert(1)>block</div>');
    await expect(reply.locator('script, img, div[onclick]').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (window as { __injected?: number }).__injected)).resolves.toBeUndefined();
    await screenshot(page, 'markup-as-text');
    expect(errors).toEqual([]);
  });

  it("shows the workflow's state and visits, and what the agent can do as auggy admin reports it", async () => {
    const serve = scope.adopt(await startServe(copyExample('support')));
    const { page, errors } = await openConsole(browser(), serve.url);
    await send(page, 'I need my balance, my ID is ACC-12345');
    await personHoldsTurn(page);
    const workflow = page.getByRole('region', { name: 'Workflow' });
    await workflow.getByText('State: resolution').waitFor();
    await expect(workflow.locator('.visits').textContent()).resolves.toMatch(/verifying: 1 visit/);
    const capabilities = page.getByRole('region', { name: 'Capabilities' });
    await capabilities.getByText('Capabilities').click();
    await expect(capabilities.textContent()).resolves.toContain('workflow__transition');
    await screenshot(page, 'workflow');
    expect(errors).toEqual([]);
  });

  it('stays readable at 360 px wide, dark when the system is', async () => {
    const url = await startDemo();
    const { page, errors } = await openConsole(browser(), url, { width: 360, height: 740, colorScheme: 'dark' });
    await send(page, 'deploy the api');
    await page.getByText('The agent is waiting for your answer.').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(20, 22, 26)');
    await screenshot(page, 'narrow');
    expect(errors).toEqual([]);
  });

  it('with AUGGY_TOKEN asks for the token once and sends it; a request without it is refused', async () => {
    const url = await startDemo({ AUGGY_TOKEN: 'console-secret' });
    const refused = await fetch(`${url}/agent/threads`);
    expect(refused.status).toBe(401);
    const run = await fetch(`${url}/agent/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(run.status).toBe(401);
    const { page, errors } = await openConsole(browser(), url);
    await page.getByLabel('Access token').fill('wrong');
    await page.getByRole('button', { name: 'Open the Console' }).click();
    await page.getByText('the bearer token is wrong').waitFor();
    await page.getByLabel('Access token').fill('console-secret');
    await page.getByRole('button', { name: 'Open the Console' }).click();
    await send(page, 'hello');
    await page.getByText("Hello! I'm the demo agent.").waitFor();
    await personHoldsTurn(page);
    // Asked once: a reload keeps the tab's token.
    await page.reload();
    await page.getByText("Hello! I'm the demo agent.").waitFor();
    await expect(page.getByLabel('Access token').count()).resolves.toBe(0);
    // Console errors here are the 401s the wrong token drew, which the page showed as a sentence.
    expect(errors.filter((line) => !/401/.test(line))).toEqual([]);
  });
});
