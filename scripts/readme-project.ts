/**
 * The project a frontend team makes to follow the README's "For frontend developers" section, built
 * from this repo's node_modules (no install, no network): a `package.json` as `npm init -y` writes it
 * with `"type": "module"`, the `tsconfig.json` that `tsc --init` writes (`module: nodenext`) with the one
 * line the README changes, a bundler-style `tsconfig.bundler.json` beside it, and each `ts` block of the
 * section at the path of the examples/ file that holds exactly that text. `npm run examples:check`
 * compiles it against the printed schema; test/docs/readme-snippets.test.ts against a running gateway,
 * then runs each program.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

/** The section of README.md under `## For frontend developers`. */
export function frontendSection(root: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## For frontend developers\n');
  if (start === -1) throw new Error('README.md has no "For frontend developers" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** Each fenced ts/js block of the section, with the examples/ file that holds exactly it (undefined: none). */
export function frontendSnippets(root: string): { code: string; file: string | undefined }[] {
  const examples = readdirSync(join(root, 'examples'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js)$/.test(file) && !file.includes('__generated__') && !file.includes('.generated'))
    .map((file) => ({ file: `examples/${file}`, text: readFileSync(join(root, 'examples', file), 'utf8').trimEnd() }));
  return [...frontendSection(root).matchAll(/```(?:ts|js|typescript|javascript)\n([\s\S]*?)\n```/g)].map((m) => {
    const code = (m[1] as string).trimEnd();
    return { code, file: examples.find((e) => e.text === code)?.file };
  });
}

/** The packages the section's install commands (`npm i …`, `npm i -D …` in backticks) name. */
export function installedPackages(section: string): Set<string> {
  const commands = [...section.matchAll(/`npm (?:i|install) ([^`]+)`/g)].map((m) => m[1] as string);
  return new Set(commands.flatMap((command) => command.split(/\s+/).filter((word) => !word.startsWith('-'))));
}

/** The tsconfig line the README changes in what `tsc --init` writes: the snippets read `process.env`. */
const TYPES_LINE = { init: '"types": [],', readme: '"types": ["node"],' };

export interface ReadmeProject {
  dir: string;
  /** The project's files holding the README's snippets, relative to `dir` (`examples/client/urql.ts`...). */
  files: string[];
  /** `tsc` arguments that compile it as `tsc --init` made it, as `npx tsc` does: each `.js` beside its `.ts`. */
  nodenext: string[];
  /** `tsc` arguments that type-check it as a bundler-style project (`module: esnext`, `moduleResolution: bundler`). */
  bundler: string[];
}

/** Writes the project into `dir` (emptied first); `tsc --init` is this repo's TypeScript's. */
export function createReadmeProject(root: string, dir: string): ReadmeProject {
  const snippets = frontendSnippets(root);
  const missing = snippets.filter((s) => s.file === undefined);
  if (missing.length) throw new Error(`README.md's frontend section holds ${missing.length} block(s) that no examples/ file holds exactly, starting:\n${missing[0]?.code.slice(0, 200)}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'readme-project', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  execFileSync(join(root, 'node_modules/.bin/tsc'), ['--init'], { cwd: dir, stdio: 'ignore' });
  const init = readFileSync(join(dir, 'tsconfig.json'), 'utf8');
  if (!init.includes(TYPES_LINE.init)) throw new Error(`tsc --init no longer writes ${TYPES_LINE.init}: check what README.md tells to change`);
  writeFileSync(join(dir, 'tsconfig.json'), init.replace(TYPES_LINE.init, TYPES_LINE.readme));
  const bundler = { extends: './tsconfig.json', compilerOptions: { module: 'esnext', moduleResolution: 'bundler', noEmit: true } };
  writeFileSync(join(dir, 'tsconfig.bundler.json'), `${JSON.stringify(bundler, null, 2)}\n`);
  const files = snippets.map(({ code, file }) => {
    mkdirSync(dirname(join(dir, file as string)), { recursive: true });
    writeFileSync(join(dir, file as string), `${code}\n`);
    return file as string;
  });
  return {
    dir,
    files,
    nodenext: ['-p', join(dir, 'tsconfig.json')],
    bundler: ['-p', join(dir, 'tsconfig.bundler.json')],
  };
}

/**
 * What the section's install commands leave out: each package a snippet imports, the package its types
 * come from when that is another (`@types/ws` for `ws`), and what the README's tsconfig needs
 * (`typescript`, `@types/node`). Resolved as tsc resolves them in the project.
 */
export function missingInstalls(root: string, project: ReadmeProject): string[] {
  const listed = installedPackages(frontendSection(root));
  const options: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'] };
  const needed = new Set(['typescript', '@types/node']);
  for (const file of project.files) {
    const path = join(project.dir, file);
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(path, 'utf8')).importedFiles) {
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      needed.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
      const typesFrom = ts.resolveModuleName(specifier, path, options, ts.sys, undefined, undefined, ts.ModuleKind.ESNext).resolvedModule?.packageId?.name;
      if (typesFrom) needed.add(typesFrom);
    }
  }
  return [...needed].filter((name) => !listed.has(name));
}
