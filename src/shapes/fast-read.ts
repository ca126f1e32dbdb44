/**
 * The fast path of the tolerant reader: a read-build description compiled (once, into
 * JavaScript source, as ajv does) into a function that checks an answer and builds
 * valibot's output from it, with no issue objects and no calls per field. It returns {@link MISS} at the first
 * thing it does not handle or that does not match, and the reader then runs valibot
 * itself, which finds and reports every broken field (`read.ts`). So valibot stays the
 * one definition of what an answer means; this only makes the common case, an answer
 * that matches, cheap (a 100-item validators page: about a tenth of a valibot parse).
 *
 * Its output is valibot's: objects hold the described fields only. Lists and records
 * are updated in place (the clients read freshly parsed JSON that nothing else holds).
 *
 * A reader may also leave parts out (`omit`: paths such as `subnets[].blockchains[].genesisData`,
 * see `src/schema/projection.ts`): they are neither checked nor copied, and the output has no such
 * property, so a request holds only the parts its operation reads. One reader is compiled per
 * schema and omitted set (the sets are interned, so there are a handful).
 */
import type * as v from 'valibot';

/** Returned when the fast path cannot vouch for a value. */
export const MISS: unique symbol = Symbol('fast-read miss');
type Fast = (value: unknown) => unknown;

/** The parts of valibot's schema and action objects the compiler reads (and `narrowing.ts` walks). */
export interface Node {
  readonly kind?: string;
  readonly type?: string;
  readonly pipe?: readonly Node[];
  readonly entries?: Readonly<Record<string, Node>>;
  readonly item?: Node;
  readonly wrapped?: Node;
  readonly options?: readonly (Node | string)[];
  readonly key?: Node;
  readonly value?: Node;
  readonly default?: unknown;
  readonly literal?: unknown;
  readonly requirement?: unknown;
  readonly operation?: (value: unknown) => unknown;
}

/** Paths of an answer a reader leaves out: property names joined by `.`, `[]` for a list's items, `{}` for a record's values. */
export type OmittedPaths = ReadonlySet<string>;

const NOTHING: OmittedPaths = new Set();
const compiled = new WeakMap<object, WeakMap<OmittedPaths, Fast>>();

/** The fast reader of a (read-build) description, leaving `omit` out; compiled once per schema and set. */
export function fastReader(schema: v.GenericSchema, omit: OmittedPaths = NOTHING): Fast {
  let bySet = compiled.get(schema);
  if (!bySet) compiled.set(schema, (bySet = new WeakMap()));
  let fast = bySet.get(omit);
  if (!fast) {
    fast = compileFunction(schema, [], omit, '');
    bySet.set(omit, fast);
  }
  return fast;
}

/**
 * Compiles `node` (at `path` of the answer) into a function of one value. Constants the code needs
 * (regexps, transforms, defaults, the functions of union options) are passed in `constants`.
 */
function compileFunction(node: Node, constants: unknown[], omit: OmittedPaths, path: string): Fast {
  const code = new Emitter(constants, omit);
  let result: string | undefined;
  try {
    result = code.emit(node, 'input', path);
  } catch (error) {
    if (error instanceof Unsupported) return () => MISS;
    throw error;
  }
  if (result === undefined) return () => MISS;
  const make = new Function('M', 'c', `return function read(input) {\n${code.lines.join('\n')}\nreturn ${result};\n};`) as (m: symbol, c: unknown[]) => Fast;
  return make(MISS, constants);
}

const OBJECT = (name: string): string => `(typeof ${name} !== 'object' || ${name} === null || Array.isArray(${name}))`;

class Unsupported extends Error {}

class Emitter {
  readonly lines: string[] = [];
  #names = 0;
  constructor(
    private readonly constants: unknown[],
    private readonly omit: OmittedPaths,
  ) {}

  #name(prefix: string): string {
    return `${prefix}${this.#names++}`;
  }

  #constant(value: unknown): string {
    this.constants.push(value);
    return `c[${this.constants.length - 1}]`;
  }

  /** Emits the checks of `node` on the value named `input` (at `path`); returns the name of its output, undefined when it cannot. */
  emit(node: Node, input: string, path: string): string | undefined {
    // A pipe whose head is itself piped (`v.pipe(nodeNumber, v.integer())`): the head's own actions run first.
    const head = node.pipe?.[0];
    let out = head !== undefined && head !== node && head.pipe ? this.emit(head, input, path) : this.#base(node, input, path);
    for (const action of node.pipe?.slice(1) ?? []) {
      if (out === undefined) return undefined;
      out = this.#action(action, out, path);
    }
    return out;
  }

  #action(action: Node, input: string, path: string): string | undefined {
    if (action.kind === 'metadata') return input;
    if (action.kind === 'schema') return this.emit(action, input, path);
    const out = this.#name('t');
    if (action.type === 'transform' && action.operation) {
      this.lines.push(`const ${out} = ${this.#constant(action.operation)}(${input});`);
      return out;
    }
    if (action.type === 'finite') {
      this.lines.push(`if (!Number.isFinite(${input})) return M;`);
      return input;
    }
    const test = this.#actionTest(action, input);
    if (test !== undefined) {
      this.lines.push(`if (!(${test})) return M;`);
      return input;
    }
    if (action.type === 'check' && typeof action.requirement === 'function') {
      this.lines.push(`if (!${this.#constant(action.requirement)}(${input})) return M;`);
      return input;
    }
    if (action.type === 'regex' && action.requirement instanceof RegExp) {
      this.lines.push(`if (typeof ${input} !== 'string' || !${this.#constant(action.requirement)}.test(${input})) return M;`);
      return input;
    }
    return undefined;
  }

  /** The inline condition of a number check valibot makes (integer, safe integer, bounds), or undefined for any other action. */
  #actionTest(action: Node, input: string): string | undefined {
    switch (action.type) {
      case 'integer':
        return `Number.isInteger(${input})`;
      case 'safe_integer':
        return `Number.isSafeInteger(${input})`;
      case 'min_value':
        return typeof action.requirement === 'number' ? `${input} >= ${action.requirement}` : undefined;
      case 'max_value':
        return typeof action.requirement === 'number' ? `${input} <= ${action.requirement}` : undefined;
      default:
        return undefined;
    }
  }

  /**
   * A condition that is true exactly when `node` takes `input` as it is: a string, number or boolean
   * schema whose pipe holds only inline checks. Undefined for anything else (transforms, objects...).
   */
  #test(node: Node, input: string): string | undefined {
    const tests: string[] = [];
    // A piped head has actions of its own, which this inline test would skip.
    if (node.pipe?.[0]?.pipe) return undefined;
    if (node.type === 'string' || node.type === 'boolean') tests.push(`typeof ${input} === '${node.type}'`);
    else if (node.type === 'number') tests.push(`typeof ${input} === 'number' && ${input} === ${input}`);
    else return undefined;
    for (const action of node.pipe?.slice(1) ?? []) {
      if (action.kind === 'metadata') continue;
      const test = action.type === 'finite'
        ? `Number.isFinite(${input})`
        : action.type === 'regex' && action.requirement instanceof RegExp
          ? `${this.#constant(action.requirement)}.test(${input})`
          : this.#actionTest(action, input);
      if (test === undefined) return undefined;
      tests.push(test);
    }
    return tests.join(' && ');
  }

  #base(node: Node, input: string, path: string): string | undefined {
    const check = (condition: string): string => {
      this.lines.push(`if (${condition}) return M;`);
      return input;
    };
    switch (node.type) {
      case 'string':
      case 'boolean':
        return check(`typeof ${input} !== '${node.type}'`);
      case 'number':
        return check(`typeof ${input} !== 'number' || ${input} !== ${input}`);
      case 'null':
        return check(`${input} !== null`);
      case 'unknown':
      case 'any':
        return input;
      case 'literal':
        return check(`${input} !== ${this.#constant(node.literal)}`);
      case 'picklist':
        return check(`!${this.#constant(new Set(node.options))}.has(${input})`);
      case 'optional':
      case 'nullable':
      case 'nullish':
        return this.#wrapper(node, input, path);
      case 'array':
        return node.item ? this.#array(node.item, input, path) : undefined;
      case 'record':
        return node.value ? this.#record(node.value, input, path) : undefined;
      case 'union':
        return this.#union((node.options ?? []).filter((o): o is Node => typeof o === 'object'), input, path);
      case 'object':
      case 'loose_object':
        return node.entries ? this.#object(node.entries, input, path) : undefined;
      default:
        return undefined;
    }
  }

  #wrapper(node: Node, input: string, path: string): string | undefined {
    const wrapped = node.wrapped;
    if (!wrapped) return undefined;
    const out = this.#name('w');
    const fallback = node.default;
    this.lines.push(`let ${out};`, `if (${input} === undefined) {`);
    if (node.type === 'nullable') this.lines.push('return M;');
    else if (fallback === undefined) this.lines.push(`${out} = undefined;`);
    else {
      // As valibot: the default is then read; a fresh copy, never one shared by all answers.
      const defaultOf = typeof fallback === 'function' ? fallback
        : () => (typeof fallback === 'object' && fallback !== null ? structuredClone(fallback) : fallback);
      const d = this.#name('d');
      this.lines.push(`const ${d} = ${this.#constant(defaultOf)}();`);
      this.lines.push(`${out} = ${this.#must(this.emit(wrapped, d, path))};`);
    }
    if (node.type !== 'optional') this.lines.push(`} else if (${input} === null) {`, `${out} = null;`);
    this.lines.push('} else {');
    this.lines.push(`${out} = ${this.#must(this.emit(wrapped, input, path))};`, '}');
    return out;
  }

  #array(item: Node, input: string, path: string): string {
    const i = this.#name('i');
    const x = this.#name('x');
    this.lines.push(`if (!Array.isArray(${input})) return M;`, `for (let ${i} = 0; ${i} < ${input}.length; ${i}++) {`, `const ${x} = ${input}[${i}];`);
    const read = this.#must(this.emit(item, x, `${path}[]`));
    this.lines.push(`if (${read} !== ${x}) ${input}[${i}] = ${read};`, '}');
    return input;
  }

  #record(item: Node, input: string, path: string): string {
    const key = this.#name('k');
    const x = this.#name('x');
    this.lines.push(`if ${OBJECT(input)} return M;`, `for (const ${key} of Object.keys(${input})) {`, `const ${x} = ${input}[${key}];`);
    const read = this.#must(this.emit(item, x, `${path}{}`));
    this.lines.push(`if (${read} !== ${x}) ${input}[${key}] = ${read};`, '}');
    return input;
  }

  #union(options: readonly Node[], input: string, path: string): string {
    const out = this.#name('u');
    this.lines.push(`let ${out} = M;`);
    // Leading options that are plain checks (an amount's string, a wide integer's number) run inline: the
    // common case costs no call. The others, and every option after one that is not, are compiled apart.
    let inline = 0;
    for (const option of options) {
      const test = this.#test(option, input);
      if (test === undefined) break;
      this.lines.push(`if (${out} === M && ${test}) ${out} = ${input};`);
      inline += 1;
    }
    for (const option of options.slice(inline)) this.lines.push(`if (${out} === M) ${out} = ${this.#constant(compileFunction(option, [], this.omit, path))}(${input});`);
    this.lines.push(`if (${out} === M) return M;`);
    return out;
  }

  // A new object of the described fields only, as valibot's: what the cache keeps is what is served.
  #object(entries: Readonly<Record<string, Node>>, input: string, path: string): string {
    const out = this.#name('o');
    this.lines.push(`if ${OBJECT(input)} return M;`, `const ${out} = {};`);
    for (const [name, node] of Object.entries(entries)) {
      const at = path === '' ? name : `${path}.${name}`;
      // Left out: neither checked nor copied.
      if (this.omit.has(at)) continue;
      const key = JSON.stringify(name);
      const x = this.#name('x');
      this.lines.push(`const ${x} = ${input}[${key}];`);
      const read = this.#must(this.emit(node, x, at));
      this.lines.push(`if (${read} !== undefined) ${out}[${key}] = ${read}; else if (${key} in ${input}) ${out}[${key}] = undefined;`);
    }
    return out;
  }

  /** What this compiler does not handle ends the compilation: the whole reader answers MISS and valibot reads. */
  #must(out: string | undefined): string {
    if (out === undefined) throw new Unsupported();
    return out;
  }
}
