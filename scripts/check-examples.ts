/**
 * Compiles the typed-client examples against the schema (`npm run examples:check`, part of
 * `npm test`): prints the client schema, checks the examples' scalar mappings cover every custom
 * scalar as the schema types it, runs GraphQL Code Generator (client preset, Apollo possibleTypes)
 * and the Relay compiler, then type-checks the examples with tsc; then compiles the README's snippets
 * in the project a team makes to follow it (scripts/readme-project.ts), under `tsc --init`'s
 * `module: nodenext` and under a bundler's settings. Generated files are git-ignored.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isScalarType, isSpecifiedScalarType, printSchema } from 'graphql';
import { getSchema } from '../src/schema/index.ts';
import { scalars as codegenScalars } from '../examples/codegen.ts';
import { createReadmeProject, missingInstalls } from './readme-project.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const schema = getSchema();
mkdirSync(`${root}examples/.generated`, { recursive: true });
// The client's view: no federation directives (clients do not read them).
writeFileSync(`${root}examples/.generated/schema.graphql`, `${printSchema(schema)}\n`);

const relayScalars = (JSON.parse(readFileSync(`${root}examples/relay.config.json`, 'utf8')) as { customScalarTypes: Record<string, string> }).customScalarTypes;
const problems: string[] = [];
for (const type of Object.values(schema.getTypeMap())) {
  if (!isScalarType(type) || isSpecifiedScalarType(type)) continue;
  // graphql-scalars types JSON as `any`: the examples say `unknown`, as strict code should.
  const expected = (type.extensions as { codegenScalarType?: string }).codegenScalarType;
  const mapped: Record<string, string | undefined> = { 'examples/codegen.ts': (codegenScalars as Record<string, string>)[type.name], 'examples/relay.config.json': relayScalars[type.name] };
  for (const [file, value] of Object.entries(mapped)) {
    if (value === undefined) problems.push(`${file} maps no TypeScript type for scalar ${type.name}`);
    else if (expected && value !== expected.replaceAll('any', 'unknown')) problems.push(`${file} maps ${type.name} to ${value}; the schema says ${expected}`);
  }
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}

function run(command: string, args: string[], cwd = root): void {
  // codegen.ts reads a running gateway unless CHAINGRAPH_SCHEMA names a schema file: here, the one just printed.
  const env = { ...process.env, CHAINGRAPH_SCHEMA: `${root}examples/.generated/schema.graphql` };
  const result = spawnSync(`${root}node_modules/.bin/${command}`, args, { cwd, env, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`examples: ${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

run('graphql-codegen', ['--config', 'examples/codegen.ts', '--silent']);
// Relay reads the paths in its config relative to where it runs.
run('relay-compiler', ['relay.config.json'], `${root}examples`);
run('tsc', ['-p', 'examples/tsconfig.json']);

// The README's snippets in the project a team makes to follow it: tsc --init's nodenext, then a bundler's settings.
const project = createReadmeProject(root, `${root}examples/.generated/readme-project/`);
const missing = missingInstalls(root, project);
if (missing.length) {
  console.error(`README.md's frontend section never says to install ${missing.join(', ')}, which its snippets need`);
  process.exit(1);
}
run('graphql-codegen', ['--config', 'examples/codegen.ts', '--silent'], project.dir);
run('tsc', project.nodenext);
run('tsc', project.bundler);
console.log('examples compile against the schema; the README\'s, in a tsc --init project (nodenext) and a bundler one.');
