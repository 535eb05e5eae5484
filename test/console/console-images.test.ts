import { afterEach, describe, expect, it } from 'vitest';
import { copyExample } from '../helpers/agent-fixture.js';
import { chromiumPerFile, openConsole, screenshot } from '../helpers/console-browser.js';
import { PNG_BASE64 } from '../helpers/images.js';
import { ServeScope } from '../helpers/serve-process.js';

const browser = chromiumPerFile();
const scope = new ServeScope();
afterEach(() => scope.stop());

describe('the Console shows the images a thread carried', () => {
  it("draws a user message's image as a thumbnail from the attachment route, with its size", async () => {
    const { serve } = await scope.start(copyExample('demo'), [{ text: 'A dot.' }]);
    const sent = await fetch(`${serve.url}/agent/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        threadId: 'pictures',
        runId: 'run-1',
        messages: [
          {
            id: 'u1',
            role: 'user',
            content: [
              { type: 'text', text: 'what is this?' },
              { type: 'image', source: { type: 'data', value: PNG_BASE64, mimeType: 'image/png' } },
            ],
          },
        ],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
      }),
    });
    expect(sent.status).toBe(200);
    await sent.text();
    const { page, errors } = await openConsole(browser(), `${serve.url}/#thread=pictures`);
    await page.getByText('A dot.').waitFor();
    const figure = page.locator('.message.user .attachment');
    await figure.getByText('image · 70 bytes').waitFor();
    const thumb = figure.getByRole('img', { name: 'image' });
    await thumb.waitFor();
    // Drawn, not broken: the browser decoded the bytes the route served into a 1×1 image.
    await expect(thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).resolves.toBe(1);
    expect(await thumb.getAttribute('src')).toMatch(/^blob:/);
    await screenshot(page, 'image-thumbnail');
    expect(errors).toEqual([]);
  });
});
