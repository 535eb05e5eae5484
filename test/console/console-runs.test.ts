import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { THREE_LINES } from '../helpers/board-fixture.js';
import type { ChatReply, ReceivedRequest } from '../helpers/chat-server.js';
import { chromiumPerFile, openConsole, screenshot } from '../helpers/console-browser.js';
import { interruptModel } from '../helpers/interrupt-agent.js';
import { lastUserText, mcpAgentFolder, toolResults } from '../helpers/mcp-agent.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { ServeScope } from '../helpers/serve-process.js';

const browser = chromiumPerFile();

const scope = new ServeScope();
afterEach(() => scope.stop());

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message the agent').fill(text);
  await page.keyboard.press('Enter');
}

function systemPrompt(request: ReceivedRequest): string {
  const system = request.body.messages.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content ?? '');
}

/**
 * `work`: the first round reads the board and its stream is held open (the run is in flight);
 * the round after says what the queue line held when it began. `wait`: a reply held open.
 */
function boardModel(request: ReceivedRequest): ChatReply {
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') return { text: `Round two saw the queue: ${/queue[^\n]*/.exec(systemPrompt(request))?.[0] ?? 'nothing'}` };
  if (lastUserText(request) === 'work') return { text: 'Reading the board. ', toolCalls: [{ name: 'board_read', args: {} }], hold: true };
  if (lastUserText(request) === 'wait') return { text: 'Thinking about it ', hold: true };
  return { text: 'Nothing to do.' };
}

describe('the Console during runs', () => {
  it('writes a person line while the agent works, and the next round reads it; the agent line is read-only and says why', async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'board'], files: { 'augments/board/augment.yaml': THREE_LINES } });
    const { chat, serve } = await scope.start(dir, boardModel);
    const { page, errors } = await openConsole(browser(), serve.url);
    await send(page, 'work');
    await chat.held();
    await page.getByText(/The agent is working… \d+s/).waitFor();
    const queue = page.locator('.board-line[data-line="queue"]');
    await queue.getByLabel(/queue/).fill('ship the docs first');
    await queue.getByRole('button', { name: 'Save' }).click();
    await serve.waitForStderr(/board: queue written/);
    // The agent's line cannot be typed into, and says whose it is.
    const progress = page.locator('.board-line[data-line="progress"]');
    await progress.locator('input').press('x');
    await progress.getByText('"progress" belongs to the agent').waitFor();
    await screenshot(page, 'working-board');
    chat.release();
    await page.getByText('Round two saw the queue:').waitFor();
    expect(systemPrompt(chat.requests[1])).toContain('ship the docs first');
    await page.locator('.turn-status.idle').waitFor();
    await expect(queue.locator('input').inputValue()).resolves.toBe('ship the docs first');
    expect(errors).toEqual([]);
  });

  it('Esc stops a run in flight, and the thread takes the next message', async () => {
    const dir = makeAgentFolder({ augments: ['turnControl'] });
    const { chat, serve } = await scope.start(dir, boardModel);
    const { page, errors } = await openConsole(browser(), serve.url);
    await send(page, 'wait');
    await chat.held();
    await page.getByText(/The agent is working/).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.turn-end', { hasText: 'Stopped.' }).waitFor();
    await serve.waitForStderr(/run \S+ canceled/);
    await send(page, 'hello');
    await page.getByText('Nothing to do.').waitFor();
    expect(errors).toEqual([]);
  });

  it('shows an MCP approval with server, tool and arguments: allowed runs the tool, denied does not', async () => {
    const { dir } = mcpAgentFolder();
    const { chat, serve } = await scope.start(dir, interruptModel);
    const { page, errors } = await openConsole(browser(), serve.url);
    await send(page, 'call mcp_everything_get_sum {"a":2,"b":3}');
    const card = page.getByRole('region', { name: 'Approval asked' });
    await card.waitFor();
    const facts = (await card.locator('.approval-facts').textContent()) ?? '';
    expect(facts).toContain('everything');
    expect(facts).toContain('get-sum');
    expect(facts).toMatch(/"a": 2/);
    await page.getByText('The agent is waiting for your answer.').waitFor();
    await screenshot(page, 'approval');
    await card.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.locator('.message.assistant', { hasText: 'The sum of 2 and 3 is 5' }).waitFor();
    await page.locator('.turn-status.idle').waitFor();

    await send(page, 'call mcp_everything_get_sum {"a":4,"b":4}');
    await page.getByRole('region', { name: 'Approval asked' }).getByRole('button', { name: 'Deny' }).click();
    await page.locator('.message.assistant', { hasText: 'The person refused to let mcp_everything_get_sum run' }).waitFor();
    await page.locator('.turn-status.idle').waitFor();
    expect(chat.requests.flatMap(toolResults).some((result) => /The sum of 4 and 4/.test(result))).toBe(false);
    expect(errors).toEqual([]);
  });
});
