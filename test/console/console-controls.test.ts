import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { copyExample, makeAgentFolder } from '../helpers/agent-fixture.js';
import { chromiumPerFile, openConsole, screenshot } from '../helpers/console-browser.js';
import { interruptModel } from '../helpers/interrupt-agent.js';
import { mcpAgentFolder, toolResults } from '../helpers/mcp-agent.js';
import { ServeScope, startServe } from '../helpers/serve-process.js';

const browser = chromiumPerFile();

const scope = new ServeScope();
afterEach(() => scope.stop());

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel(/Message the agent|Your answer/).fill(text);
  await page.keyboard.press('Enter');
}

/** The focused control's name, as a screen reader would say it: aria-label, its label, or its text. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '';
    const label = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined;
    return (element.getAttribute('aria-label') ?? label ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
  });
}

/** Presses Tab (only) until the focused control's name matches; every name passed on the way is kept. */
async function tabTo(page: Page, name: RegExp, seen: Set<string>, limit = 80): Promise<void> {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press('Tab');
    const focused = await focusedName(page);
    seen.add(focused);
    if (name.test(focused)) return;
  }
  throw new Error(`Tab never reached a control named ${name}; reached: ${[...seen].join(' | ')}`);
}

describe('the Console by keyboard alone', () => {
  it('every control is reached with Tab, and a questionnaire, the board and a new thread are used with keys only', async () => {
    const serve = scope.adopt(await startServe(copyExample('demo')));
    const { page, errors } = await openConsole(browser(), serve.url);
    const seen = new Set<string>();
    await tabTo(page, /^Message the agent/, seen);
    await page.keyboard.type('plan a release');
    await page.keyboard.press('Enter');
    await page.getByRole('form', { name: 'Questions from the agent' }).waitFor();
    await tabTo(page, /^production$/, seen);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('radio', { name: 'production' }).getAttribute('aria-checked')).resolves.toBe('true');
    await tabTo(page, /^Use default: 2$/, seen);
    await page.keyboard.press('Enter');
    await tabTo(page, /^Which regions\?/, seen);
    await page.keyboard.type('eu-west, us-east');
    await tabTo(page, /^Send answers$/, seen);
    await screenshot(page, 'keyboard-questionnaire');
    await page.keyboard.press('Enter');
    await page.getByText('Thanks: the release goes to production with 2 replicas in eu-west, us-east. That is the plan.').waitFor();
    await page.locator('.turn-status.idle').waitFor();

    // The person's board line: typed and saved with Enter.
    await tabTo(page, /^queue\b/, seen);
    await page.keyboard.type('tag the release');
    await page.keyboard.press('Enter');
    await serve.waitForStderr(/board: queue written/);
    // Set the tracked ask, then open the capabilities, with keys.
    await tabTo(page, /^Set the tracked request$/, seen);
    await page.keyboard.type('Plan the release.');
    await page.keyboard.press('Enter');
    await page.getByText('Ask set: Plan the release.').waitFor();
    await tabTo(page, /^Capabilities/, seen);
    await page.keyboard.press('Enter');
    await page.locator('.capabilities details[open]').waitFor();
    // A new thread, and back to the first one, from the list.
    await tabTo(page, /^New thread$/, seen);
    await page.keyboard.press('Enter');
    await page.getByText('Send a message to start a thread.').waitFor();
    await tabTo(page, /^plan a release/, seen);
    await page.keyboard.press('Enter');
    await page.getByText('Thanks: the release goes to production with 2 replicas in eu-west, us-east. That is the plan.').waitFor();

    // Every enabled control on the page was reached by Tab along the way or now.
    await tabTo(page, /^Copy transcript$/, seen);
    const controls = await page.$$eval('button:not([disabled]), input, textarea, summary, select, a[href]', (elements) =>
      elements
        .filter((element) => (element as HTMLElement).offsetParent !== null)
        .map((element) => {
          const label = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined;
          return (element.getAttribute('aria-label') ?? label ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
        }),
    );
    for (let press = 0; press < 60; press++) {
      await page.keyboard.press('Tab');
      seen.add(await focusedName(page));
    }
    expect(controls.filter((name) => !seen.has(name))).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('the Console answers yes/no fields and remembers approvals', () => {
  it('a boolean field is answered with its yes button and reaches the tool as true', async () => {
    const dir = makeAgentFolder({ augments: ['turnControl', 'questions'] });
    const { chat, serve } = await scope.start(dir, interruptModel);
    const { page, errors } = await openConsole(browser(), serve.url);
    await send(page, 'call ask_user {"prompt":"One check first.","fields":[{"name":"ship","question":"Ship it now?","type":"boolean"}]}');
    const form = page.getByRole('form', { name: 'Questions from the agent' });
    await form.getByRole('radio', { name: 'yes' }).click();
    await expect(form.getByRole('radio', { name: 'yes' }).getAttribute('aria-checked')).resolves.toBe('true');
    await form.getByRole('button', { name: 'Send answers' }).click();
    await page.locator('.message.assistant', { hasText: 'Done:' }).waitFor();
    expect(chat.requests.flatMap(toolResults).some((result) => /"ship":true/.test(result))).toBe(true);
    void serve;
    expect(errors).toEqual([]);
  });

  it('"Always for this thread" runs the tool, and the next call of it runs without asking', async () => {
    const { dir } = mcpAgentFolder();
    const { chat, serve } = await scope.start(dir, interruptModel);
    const { page, errors } = await openConsole(browser(), serve.url);
    await send(page, 'call mcp_everything_get_sum {"a":2,"b":2}');
    const card = page.getByRole('region', { name: 'Approval asked' });
    await card.getByRole('button', { name: 'Always for this thread' }).click();
    await page.locator('.message.assistant', { hasText: 'The sum of 2 and 2 is 4' }).waitFor();
    await page.locator('.turn-status.idle').waitFor();
    await send(page, 'call mcp_everything_get_sum {"a":4,"b":4}');
    await page.locator('.message.assistant', { hasText: 'The sum of 4 and 4 is 8' }).waitFor();
    await expect(page.getByRole('region', { name: 'Approval asked' }).count()).resolves.toBe(0);
    expect(chat.requests.flatMap(toolResults).some((result) => /The sum of 4 and 4 is 8/.test(result))).toBe(true);
    void serve;
    expect(errors).toEqual([]);
  });
});
