import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
// CI installs Debian's chromium (.ci/run) and must run this test; elsewhere it is skipped without one.
const haveBrowser = existsSync(CHROMIUM) || Boolean(process.env['CI']);

/** A screenshot beside GRAPHIQL_SCREENSHOT's, named for what it shows, when that variable is set. */
const screenshotPath = (name: string) => process.env['GRAPHIQL_SCREENSHOT']?.replace(/(\.png)?$/, `-${name}.png`);

/** Replaces the operations editor's text and runs it (one operation: the run button runs it at once). */
async function run(page: Page, document: string, shownInResult: string): Promise<void> {
  await page.evaluate((text) => {
    interface Editor { getContainerDomNode(): HTMLElement; setValue(value: string): void }
    const { monaco } = window as unknown as { monaco: { editor: { getEditors(): Editor[] } } };
    monaco.editor.getEditors().find((e) => e.getContainerDomNode().closest('.graphiql-query-editor'))?.setValue(text);
  }, document);
  // GraphiQL reads the editor's operations after a debounce: until then the button may still offer the examples' menu.
  await expect.poll(async () => (await page.locator('.graphiql-execute-button').getAttribute('aria-haspopup')) ?? 'none', { timeout: 10_000 }).toBe('none');
  await page.locator('.graphiql-execute-button').click();
  await expect.poll(async () => (await page.locator('.graphiql-response').textContent()) ?? '', { timeout: 30_000 }).toContain(shownInResult);
}

/**
 * GraphiQL as a person meets it: `npm start` with nothing configured, the printed
 * URL opened in a real (headless) browser with no network, the first example run.
 * Started as the CLI starts it, with WARM_UP_MS=0: no query warm-up, GraphiQL's assets built all the same.
 */
describe.skipIf(!haveBrowser)('GraphiQL in a real browser', () => {
  let running: RunningServer;
  let browser: Browser;
  /** GraphiQL's builds and the loads that waited for one, when startServer resolved (the CLI logs "ready" then). */
  let atReady: { builds: number; waits: number };

  beforeAll(async () => {
    running = await startServer({ ...configFromEnv({}), port: 0, warmUpMs: 0 }, pino({ level: 'silent' }), { warmUp: true });
    atReady = { builds: running.gateway.graphiql?.builds ?? -1, waits: running.gateway.graphiql?.waits ?? -1 };
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it('serves the first page load after "ready" from assets built at start, as every later load', { timeout: 90_000 }, async () => {
    // Built once while the server started (WARM_UP_MS=0 warms no query, but builds these), before any load.
    expect(atReady).toEqual({ builds: 1, waits: 0 });
    const loads: number[] = [];
    for (let i = 0; i < 2; i++) {
      // A page of its own each time (a fresh context: no cached asset, nothing stored): each load is a first load.
      const page = await browser.newPage();
      const started = performance.now();
      await page.goto(running.url, { waitUntil: 'load' });
      loads.push(Math.round(performance.now() - started));
      await expect.poll(async () => (await page.locator('.graphiql-query-editor').textContent()) ?? '', { timeout: 30_000 }).toContain('ValidatorWalk');
      await page.close();
    }
    // Neither load waited for a build, nor started one: the first is served from buffers as the second is.
    expect({ builds: running.gateway.graphiql?.builds, waits: running.gateway.graphiql?.waits }).toEqual({ builds: 1, waits: 0 });
    console.info(`GraphiQL page loads (browser load event, ms): first ${loads[0]}, second ${loads[1]}`);
  });

  it('wraps a long error message in the result pane at 1400x900: every word on screen', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(running.url, { waitUntil: 'load' });
    await expect.poll(async () => (await page.locator('.graphiql-query-editor').textContent()) ?? '', { timeout: 30_000 }).toContain('ValidatorWalk');
    const refusals = [
      // A cursor refusal, whose advice comes last.
      ['cursor', '{ network(name: MAINNET) { validators(first: 2, after: "bm90LWEtY3Vyc29y.AAAAAAAAAAAAAAAAAAAAAA") { edges { cursor } } } }', 'BAD_USER_INPUT'],
      // QUERY_TOO_COSTLY, whose advice (smaller pages, fewer nested connections) comes last.
      ['cost', '{ network(name: MAINNET) { subnets(first: 100) { edges { node { validators(first: 100) { edges { node { delegators(first: 100) { edges { node { txHash } } } } } } } } } } }', 'QUERY_TOO_COSTLY'],
    ] as const;
    for (const [name, operation, code] of refusals) {
      // The message as the API answers it, to find on screen whole.
      const answer = (await (await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: operation }) })).json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(answer.errors[0]?.extensions.code).toBe(code);
      const message = answer.errors[0]?.message ?? '';
      expect(message.length).toBeGreaterThan(150);
      await run(page, operation, code);
      const shown = await page.evaluate(() => {
        const pane = document.querySelector('.graphiql-response')?.getBoundingClientRect();
        const lines = [...document.querySelectorAll('.graphiql-response .view-line')].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
        // Each line's text as drawn (its span), not the line box, which spans the editor's scroll width.
        const drawn = lines.map((line) => {
          const box = (line.firstElementChild ?? line).getBoundingClientRect();
          return { right: box.right, bottom: box.bottom, text: line.textContent ?? '' };
        });
        return { pane: pane ? { left: pane.left, right: pane.right, bottom: pane.bottom } : undefined, drawn, innerWidth: window.innerWidth, innerHeight: window.innerHeight };
      });
      expect(shown.pane).toBeDefined();
      const pane = shown.pane as { left: number; right: number; bottom: number };
      expect(pane.right).toBeLessThanOrEqual(shown.innerWidth);
      // No line of the result reaches past the pane's right edge: the message wrapped, nothing is off-screen sideways.
      for (const line of shown.drawn) expect([name, line.text, line.right <= pane.right]).toEqual([name, line.text, true]);
      // The whole message is on screen, its last words included (Monaco draws spaces as U+00A0; a wrapped line breaks at a space).
      const flat = (text: string) => text.replace(/[\s\u00a0]+/g, ' ');
      const text = flat(shown.drawn.map((line) => line.text).join(''));
      expect(text).toContain(flat(JSON.stringify(message).slice(1, -1)));
      // The message's last word and its closing quote (a word is never split: lines break at spaces), within the pane.
      const ending = shown.drawn.find((line) => flat(line.text).includes(`${message.split(' ').at(-1) ?? ''}"`));
      expect(ending).toBeDefined();
      expect((ending?.bottom ?? Infinity) <= Math.min(pane.bottom, shown.innerHeight)).toBe(true);
      const path = screenshotPath(`error-${name}`);
      if (path) await page.screenshot({ path });
    }
    await page.close();
  });

  it('suggests the fields an app uses first at the root, the router-only ones after them', { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(running.url, { waitUntil: 'load' });
    await expect.poll(async () => (await page.locator('.graphiql-query-editor').textContent()) ?? '', { timeout: 30_000 }).toContain('ValidatorWalk');
    await page.evaluate(() => {
      interface Editor { getContainerDomNode(): HTMLElement; setValue(value: string): void; setPosition(p: { lineNumber: number; column: number }): void; focus(): void; trigger(source: string, id: string, payload: unknown): void }
      const { monaco } = window as unknown as { monaco: { editor: { getEditors(): Editor[] } } };
      const editor = monaco.editor.getEditors().find((e) => e.getContainerDomNode().closest('.graphiql-query-editor'));
      editor?.setValue('{\n  \n}');
      editor?.setPosition({ lineNumber: 2, column: 3 });
      editor?.focus();
      editor?.trigger('test', 'editor.action.triggerSuggest', {});
    });
    const rows = page.locator('.suggest-widget .monaco-list-row');
    await expect.poll(async () => rows.count(), { timeout: 10_000 }).toBeGreaterThan(5);
    const labels = await rows.evaluateAll((elements) => elements.map((e) => e.getAttribute('aria-label') ?? ''));
    // The first rows are the root fields in the schema's (sorted) order, as the docs list them.
    const introspected = (await (await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __schema { queryType { fields { name } } } }' }) })).json()) as { data: { __schema: { queryType: { fields: { name: string }[] } } } };
    const fields = introspected.data.__schema.queryType.fields.map((f) => f.name);
    expect(fields.slice(-3)).toEqual(['_entities', '_service', '_sdl']);
    expect(labels.slice(0, 5)).toEqual(fields.slice(0, 5));
    expect(labels.filter((label) => label.startsWith('_'))).toEqual([]);
    await page.close();
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
