import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { copyExample, makeAgentFolder } from '../helpers/agent-fixture.js';
import { postRun, readEvents, runInput } from '../helpers/agui-events.js';
import { chromiumPerFile, openConsole, screenshot } from '../helpers/console-browser.js';
import { startChatServer } from '../helpers/chat-server.js';
import { interruptModel } from '../helpers/interrupt-agent.js';
import { ServeScope, startServe } from '../helpers/serve-process.js';
import { isSummaryRequest, modelReply, turnMessage } from '../context/compaction-helpers.js';

const browser = chromiumPerFile();

const scope = new ServeScope();
afterEach(() => scope.stop());

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel(/Message the agent|Your answer/).fill(text);
  await page.keyboard.press('Enter');
}

async function personHoldsTurn(page: Page): Promise<void> {
  await page.locator('.turn-status.idle, .turn-status.waiting').waitFor();
}

/** The thread the page shows, as its address names it. */
async function shownThread(page: Page): Promise<string> {
  const id = /thread=([A-Za-z0-9_-]+)/.exec(new URL(page.url()).hash)?.[1];
  if (id === undefined) throw new Error(`the page names no thread: ${page.url()}`);
  return id;
}

describe('the Console keeps up with changes made elsewhere', () => {
  it("another client's run, board write and new thread appear on the page without a reload", async () => {
    const serve = scope.adopt(await startServe(copyExample('demo')));
    const { page, errors } = await openConsole(browser(), serve.url);
    await send(page, 'hello');
    await page.getByText("Hello! I'm the demo agent.").waitFor();
    await personHoldsTurn(page);
    const threadId = await shownThread(page);

    // The agent's side: a run on this thread from another client asks, and writes its board line.
    await readEvents(await postRun(serve.url, runInput(threadId, 'deploy the api')));
    await page.locator('.message.question', { hasText: 'Which production service should I deploy' }).waitFor();
    // Asked without an interrupt (that client takes none), it is still the agent waiting on the person.
    await page.getByText('The agent is waiting for your answer.').waitFor();
    await page.locator('.board-line[data-line="progress"] input[value="deploy: waiting to hear which service"]').waitFor();

    // The person's side, from another page: their board line.
    const wrote = await fetch(`${serve.url}/agent/board`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ threadId, lines: { queue: 'docs after the deploy' } }),
    });
    expect(wrote.status).toBe(200);
    await page.locator('.board-line[data-line="queue"] input[value="docs after the deploy"]').waitFor();

    // A thread begun elsewhere joins the list, newest first.
    await readEvents(await postRun(serve.url, runInput('begun-elsewhere', 'hello from another client')));
    await page.locator('.threads li').first().getByText('hello from another client').waitFor();
    await screenshot(page, 'live-updates');
    expect(errors).toEqual([]);
  });
});

describe("the goal's status in the Console", () => {
  it('shows the goal another client set on the thread, and its pause, without a reload', async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'goal'] });
    const { serve } = await scope.start(dir, interruptModel);
    const { page, errors } = await openConsole(browser(), serve.url);
    await send(page, 'hello');
    await page.getByText('You said: hello').waitFor();
    await personHoldsTurn(page);
    const threadId = await shownThread(page);
    const command = async (text: string) => {
      const response = await fetch(`${serve.url}/agent/command`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ threadId, command: text }),
      });
      expect(response.status).toBe(200);
    };
    await command('/goal the docs are published');
    const goal = page.getByRole('region', { name: 'Goal' });
    await goal.getByText('the docs are published').waitFor();
    await goal.getByText('working on it').waitFor();
    await command('/goal pause');
    await goal.getByText('paused', { exact: true }).waitFor();
    await goal.getByText('goal paused by /goal pause; /goal resume goes on').waitFor();
    await screenshot(page, 'goal');
    expect(errors).toEqual([]);
  });
});

describe('the context meter and /compact in the Console', () => {
  it('shows how full the window is after each turn, and Compact now frees it, as /compact does in the chat', async () => {
    const chat = await startChatServer(modelReply, { contextTokens: 3000 });
    try {
      const dir = makeAgentFolder({
        engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${chat.url}\n  maxTokens: 200\n  maxContextTokens: 3000\n`,
      });
      const serve = scope.adopt(await startServe(dir));
      const { page, errors } = await openConsole(browser(), serve.url);
      const meter = page.getByRole('region', { name: 'Context' });
      for (const n of [1, 2, 3]) {
        await send(page, turnMessage(n));
        await page.locator('.message.assistant', { hasText: `noted ${n}` }).waitFor();
        await personHoldsTurn(page);
      }
      await meter.getByText(/^\d+% of 3k tokens/).waitFor();
      const before = Number(await meter.getByRole('meter', { name: 'Context used' }).getAttribute('value'));
      expect(before).toBeGreaterThan(750);
      await screenshot(page, 'context-meter');

      await meter.getByRole('button', { name: 'Compact now' }).click();
      await meter.getByText(/^context compacted \(\d+ earlier messages? summarised\): [\d.k]+ → [\d.k]+ tokens of 3k/).waitFor();
      expect(chat.requests.some(isSummaryRequest)).toBe(true);
      const after = Number(await meter.getByRole('meter', { name: 'Context used' }).getAttribute('value'));
      expect(after).toBeLessThan(before);
      // The thread goes on from the summary.
      await send(page, turnMessage(4));
      await page.locator('.message.assistant', { hasText: 'noted 4' }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await chat.close();
    }
  });
});
