import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
// CI installs Debian's chromium (.ci/run) and must run this test; elsewhere it is skipped without one.
const haveBrowser = existsSync(CHROMIUM) || Boolean(process.env['CI']);

/**
 * GraphiQL as a person meets it: `npm start` with nothing configured, the printed
 * URL opened in a real (headless) browser with no network, the first example run.
 */
describe.skipIf(!haveBrowser)('GraphiQL in a real browser', () => {
  let running: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    running = await startServer({ ...configFromEnv({}), port: 0 }, pino({ level: 'silent' }));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it('opens with the example queries and runs the validator walk', { timeout: 90_000 }, async () => {
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.hostname !== '127.0.0.1' && url.protocol.startsWith('http')) external.push(req.url());
    });
    await page.goto(running.url, { waitUntil: 'load' });
    // The editor shows the examples; GraphiQL's assets come from the gateway itself.
    const editor = page.locator('.graphiql-query-editor');
    await expect.poll(async () => (await editor.textContent()) ?? '', { timeout: 30_000 }).toContain('ValidatorWalk');
    expect(external).toEqual([]);

    // With several operations in the editor, the run button asks which one to run.
    await page.locator('.graphiql-execute-button').click();
    const choice = page.getByRole('menuitem', { name: 'ValidatorWalk' });
    if (await choice.count()) await choice.first().click();
    else await page.getByText('ValidatorWalk', { exact: true }).last().click();
    const result = page.locator('.graphiql-response');
    await expect.poll(async () => (await result.textContent()) ?? '', { timeout: 30_000 }).toContain('amountStaked');
    const text = (await result.textContent()) ?? '';
    expect(text).toContain('delegators');
    expect(text).not.toContain('"errors"');
    // The editor gets the larger share of a wide window, and the page fills it.
    const widths = await page.evaluate(() => {
      const width = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().width ?? 0;
      return { page: window.innerWidth, container: width('.graphiql-container'), editors: width('.graphiql-editors'), response: width('.graphiql-response') };
    });
    expect(widths.container).toBe(widths.page);
    expect(widths.editors).toBeGreaterThan(1.3 * widths.response);
    if (process.env['GRAPHIQL_SCREENSHOT']) await page.screenshot({ path: process.env['GRAPHIQL_SCREENSHOT'] });
  });
});
