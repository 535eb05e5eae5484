import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT } from './agent-fixture.js';

/** Debian's chromium (apt package `chromium`), driven by playwright-core: the real browser, no download. */
export const CHROMIUM = process.env.AUGGY_CHROMIUM ?? '/usr/bin/chromium';

/** Where the tests leave their screenshots, to be looked at (and one copied into the README). */
export const SCREENSHOTS = join(REPO_ROOT, 'test', 'artifacts', 'console');

/**
 * One browser for the test file that calls this (launched before its first test, closed after
 * its last); each test opens its own context. Returns the browser's getter.
 */
export function chromiumPerFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    // --no-sandbox: CI containers run as root, where Chromium's sandbox cannot start.
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error(`chromium did not start (${CHROMIUM}); install the chromium package or set AUGGY_CHROMIUM`);
    return browser;
  };
}

/**
 * A fresh page (its own storage) on the Console, every console message and page error kept:
 * a test fails on a script the page did not mean to run, or an error it did not expect.
 */
export async function openConsole(
  browser: Browser,
  url: string,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    // Copy transcript writes the clipboard; the tests read it back.
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url);
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
