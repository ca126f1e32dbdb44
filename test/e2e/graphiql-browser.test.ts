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

  it('fits the window, keeps hex readable and follows the operation chosen to run', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(running.url, { waitUntil: 'load' });
    await expect.poll(async () => (await page.locator('.graphiql-query-editor').textContent()) ?? '', { timeout: 30_000 }).toContain('AddressActivity');

    // One scrollbar at most, inside the panes: the page itself neither scrolls nor overflows sideways.
    const layout = await page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      const line = document.querySelector('.graphiql-query-editor .view-line');
      const style = line ? getComputedStyle(line) : undefined;
      const height = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().height ?? -1;
      return {
        scrollHeight: root.scrollHeight,
        scrollWidth: root.scrollWidth,
        innerHeight: window.innerHeight,
        innerWidth: window.innerWidth,
        ligatures: style?.fontVariantLigatures,
        features: style?.fontFeatureSettings,
        editors: height('.graphiql-editors'),
        variables: height('.graphiql-editor-tool[aria-label="Variables"]'),
      };
    });
    expect(layout.scrollHeight).toBeLessThanOrEqual(layout.innerHeight);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
    // Fira Code's ligatures and contextual alternates would draw `0x` as `0×`.
    expect(layout.ligatures).toBe('none');
    expect(layout.features).toMatch(/"calt" 0/);
    expect(layout.features).toMatch(/"liga" 0/);
    // The examples declare no variables: their pane starts closed (its header only).
    expect(layout.variables).toBeGreaterThan(0);
    expect(layout.variables).toBeLessThan(0.1 * layout.editors);

    const choose = async (name: string, shownInResult: string) => {
      await page.locator('.graphiql-execute-button').click();
      await page.getByRole('menuitem', { name }).click();
      await expect.poll(async () => (await page.locator('.graphiql-response').textContent()) ?? '', { timeout: 30_000 }).toContain(shownInResult);
    };
    /** The operations editor's selection, its scroll and the lines it shows (Monaco's API, global on this page). */
    const queryEditor = () =>
      page.evaluate(() => {
        interface Range { startLineNumber: number; endLineNumber: number }
        interface Editor {
          getContainerDomNode(): HTMLElement;
          getSelection(): Range | null;
          getModel(): { getValueInRange(range: Range): string } | null;
          getScrollTop(): number;
          getVisibleRanges(): Range[];
        }
        const { monaco } = window as unknown as { monaco: { editor: { getEditors(): Editor[] } } };
        const editor = monaco.editor.getEditors().find((e) => e.getContainerDomNode().closest('.graphiql-query-editor'));
        const selection = editor?.getSelection();
        const visible = editor?.getVisibleRanges() ?? [];
        return {
          selected: selection ? (editor?.getModel()?.getValueInRange(selection) ?? '') : '',
          line: selection?.startLineNumber ?? 0,
          scrollTop: editor?.getScrollTop() ?? 0,
          firstVisible: visible[0]?.startLineNumber ?? 0,
          lastVisible: visible.at(-1)?.endLineNumber ?? 0,
        };
      });

    // The second of several operations: the editor selects its name and scrolls it to the top.
    await choose('AddressActivity', 'chainName');
    const second = await queryEditor();
    expect(second.selected).toBe('AddressActivity');
    expect(second.scrollTop).toBeGreaterThan(0);
    expect(second.firstVisible).toBeGreaterThan(1);
    expect(second.line).toBeGreaterThanOrEqual(second.firstVisible);
    expect(second.line).toBeLessThanOrEqual(second.firstVisible + 5);

    // One far below the first screen, then back up to the first.
    await choose('NodeOverview', 'databaseVersion');
    const last = await queryEditor();
    expect(last.selected).toBe('NodeOverview');
    expect(last.line).toBeGreaterThan(second.lastVisible);
    expect(last.line).toBeLessThanOrEqual(last.lastVisible);
    await choose('EvmBlockExplorer', 'blockHash');
    const third = await queryEditor();
    expect(third.selected).toBe('EvmBlockExplorer');
    expect(third.line).toBeGreaterThanOrEqual(third.firstVisible);
    expect(third.line).toBeLessThanOrEqual(third.lastVisible);

    // A 66-character hash stays whole on one line of the results, however narrow the pane (Monaco draws spaces as U+00A0).
    const hash = await page.evaluate(() => {
      const lines = [...document.querySelectorAll('.graphiql-response .view-line')];
      const line = lines.find((l) => /"0x[0-9a-f]{64}"/.test(l.textContent ?? ''));
      return line ? { height: line.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(line).lineHeight), text: (line.textContent ?? '').replace(/\s+/g, ' ') } : undefined;
    });
    expect(hash?.text).toMatch(/"blockHash": "0x[0-9a-f]{64}"/);
    expect(hash?.height).toBe(hash?.lineHeight);
    const after = await page.evaluate(() => ({ height: (document.scrollingElement ?? document.documentElement).scrollHeight, inner: window.innerHeight }));
    expect(after.height).toBeLessThanOrEqual(after.inner);
  });
});
