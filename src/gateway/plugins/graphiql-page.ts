import { Kind, parse } from 'graphql';

/** The URLs of GraphiQL's assets the page names. */
export interface GraphiQLPagePaths {
  js: string;
  css: string;
  favicon: string;
  editorWorkerService: string;
  jsonWorker: string;
  graphqlWorker: string;
}

/** The editor's width relative to the response pane's (GraphiQL's `editorFlex`): 60% of the page for the editor. */
const EDITOR_FLEX = 1.5;

/**
 * What the page changes in GraphiQL's own stylesheet.
 *
 * - GraphiQL unsets Monaco's `overflow-guard` clipping so hovers and suggestions can leave an
 *   editor; the editors' 16-million-pixel line layers then leave the window too, and the page
 *   scrolls. Clipping at the container (which fills the window) keeps the widgets free inside it.
 * - The bundled Fira Code draws `0x` as `0×` through its contextual alternates, and this API is
 *   read in hex: ligatures and alternates stay off in every editor. Monaco writes its own
 *   `font-feature-settings` inline on each line, hence `!important`.
 */
const PAGE_CSS = `
html, body, #root { height: 100%; margin: 0; overflow: hidden; }
.graphiql-container { overflow: clip; contain: paint; }
.graphiql-container .monaco-editor, .graphiql-container .monaco-editor .view-lines, .graphiql-container .monaco-editor .view-line {
  font-variant-ligatures: none !important;
  font-feature-settings: "liga" 0, "calt" 0 !important;
}
`;

/**
 * Runs after GraphiQL's bundle, before it renders (Monaco's API is global: `globalAPI: true`).
 *
 * - The response pane wraps only a result with errors. A message is prose a person must read whole
 *   (the advice of QUERY_TOO_COSTLY or of a refused cursor comes last, off-screen when unwrapped);
 *   data is not: a 66-character hash wrapped mid-token cannot be read or copied whole, so a result
 *   without errors keeps each line whole and a long one scrolls sideways. Monaco wraps a whole
 *   editor or none, hence the choice per result (a top-level `"errors"` key, as GraphiQL prints it).
 * - Autocomplete lists fields in the schema's order, as the docs do. Monaco sorts suggestions by
 *   `sortText`, and monaco-graphql's is the index and the label unpadded (`18_entities` sorts before
 *   `1avalancheNode`), so the router-only `_entities` and `_service`, which the schema puts last, did
 *   not come last. Each suggestion's place in its provider's list becomes its `sortText`, zero-padded
 *   (typed text still ranks by how well it matches first).
 * - Choosing an operation in the run menu (several operations in the editor) selects its name and
 *   scrolls the editor to it, so the text being run is the text on screen. Radix menus announce a
 *   choice, by mouse or keyboard, with a bubbling `menu.itemSelect` event on the item.
 */
const PAGE_SCRIPT = `
(() => {
  const api = self.monaco.editor;
  const languages = self.monaco.languages;
  const register = languages.registerCompletionItemProvider;
  languages.registerCompletionItemProvider = (language, provider) => {
    if (language !== 'graphql') return register.call(languages, language, provider);
    const inOrder = Object.create(provider);
    inOrder.provideCompletionItems = async (...args) => {
      const list = await provider.provideCompletionItems(...args);
      ((list && list.suggestions) || []).forEach((item, index) => { item.sortText = String(index).padStart(5, '0'); });
      return list;
    };
    return register.call(languages, language, inOrder);
  };
  const wrapErrors = (editor) => {
    const update = () => {
      const model = editor.getModel();
      const errors = Boolean(model) && model.findMatches('^ {2}"errors": \\\\[', false, true, true, null, false, 1).length > 0;
      editor.updateOptions({ wordWrap: errors ? 'on' : 'off', wrappingIndent: 'indent' });
    };
    editor.onDidChangeModel(update);
    editor.onDidChangeModelContent(update);
    update();
  };
  api.onDidCreateEditor((editor) => queueMicrotask(() => {
    editor.updateOptions({ fontLigatures: false });
    if (editor.getContainerDomNode().closest('.graphiql-response')) wrapErrors(editor);
  }));
  document.addEventListener('menu.itemSelect', (event) => {
    const item = event.target instanceof Element ? event.target.closest('[role="menuitem"]') : null;
    const menu = item && item.closest('[role="menu"]');
    const trigger = menu && document.getElementById(menu.getAttribute('aria-labelledby') || '');
    if (!trigger || !trigger.classList.contains('graphiql-execute-button')) return;
    const name = (item.textContent || '').trim();
    if (!/^[_A-Za-z][_0-9A-Za-z]*$/.test(name)) return;
    const editor = api.getEditors().find((e) => {
      const node = e.getContainerDomNode();
      return node.isConnected && node.offsetParent !== null && node.closest('.graphiql-query-editor');
    });
    const model = editor && editor.getModel();
    if (!model) return;
    const [match] = model.findMatches('^\\\\s*(?:query|mutation|subscription)\\\\s+' + name + '(?![_0-9A-Za-z])', false, true, true, null, false);
    if (!match) return;
    const end = match.range.endColumn;
    const range = { startLineNumber: match.range.endLineNumber, startColumn: end - name.length, endLineNumber: match.range.endLineNumber, endColumn: end };
    editor.setSelection(range);
    editor.revealRangeNearTop(range, 1);
  });
})();
`;

/** Whether any operation of the document declares variables (an unparsable document counts as yes: the pane stays open). */
function declaresVariables(document: string): boolean {
  if (!document.trim()) return false;
  try {
    return parse(document, { noLocation: true }).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && (d.variableDefinitions?.length ?? 0) > 0);
  } catch {
    return true;
  }
}

/** JSON that is safe inside a `<script>` element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page: yoga's GraphiQL template, with the assets as URLs instead of inlined, and the changes above. */
export function pageHtml(paths: GraphiQLPagePaths, title: string, defaultQuery: string): string {
  const workers = { editorWorkerService: paths.editorWorkerService, json: paths.jsonWorker, graphql: paths.graphqlWorker };
  // The variables and headers pane takes 40% of the editor's height: closed until the examples need it.
  const options = { title, defaultQuery, defaultEditorToolsVisibility: declaresVariables(defaultQuery) ? 'variables' : false };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <link rel="icon" href="${paths.favicon}" />
    <link rel="stylesheet" href="${paths.css}" />
    <style>${PAGE_CSS}</style>
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div>
    <script>
      const workers = ${scriptJson(workers)};
      self['MonacoEnvironment'] = { globalAPI: true, getWorkerUrl: (moduleId, label) => workers[label] };
    </script>
    <script src="${paths.js}"></script>
    <script>${PAGE_SCRIPT}</script>
    <script>
      // GraphiQL splits editor and response 50/50; the editor opens wider (GraphiQL keeps a person's own drag in the same key).
      try { if (!localStorage.getItem('graphiql:editorFlex')) localStorage.setItem('graphiql:editorFlex', '${EDITOR_FLEX}'); } catch {}
      YogaGraphiQL.renderYogaGraphiQL(window.document.querySelector('#root'), ${scriptJson(options)});
    </script>
  </body>
</html>
`;
}
