// No module of src/ imports, through any chain of imports, a module that imports it back: type
// imports count too (ESLint's import-x/no-cycle skips them), so a layer's types cannot run back up.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it('src/ has no import cycle, type imports included', async () => {
  const graph = await madge(path.join(root, 'src'), {
    fileExtensions: ['ts'],
    tsConfig: path.join(root, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false, mixedImports: true } },
  });
  // Every module of ours was found (one that is not would drop its cycles silently); packages are not followed.
  expect(graph.warnings().skipped.filter((specifier) => specifier.startsWith('.'))).toEqual([]);
  expect(Object.keys(graph.obj()).length).toBeGreaterThan(200);
  expect(graph.circular()).toEqual([]);
});
