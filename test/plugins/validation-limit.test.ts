import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  buildSchema,
  getEnterLeaveForKind,
  getIntrospectionQuery,
  Kind,
  OverlappingFieldsCanBeMergedRule,
  parse,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type SelectionSetNode,
  type validate,
  type ValidationRule,
} from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { exampleQueries } from '../../src/gateway/graphiql-examples.ts';
import { useParseCache } from '../../src/gateway/plugins/use-parse-cache.ts';
import { useValidationLimit, VALIDATION_LIMIT_DEFAULTS } from '../../src/gateway/plugins/use-validation-limit.ts';
import { validationComplexity } from '../../src/gateway/plugins/validation-complexity.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';

/** The reported attack: 200 copies of one connection under one parent, each behind its own comment (15 KB, under every size limit). */
const attack = (copies = 200, salt = '') =>
  `{ network(name: MAINNET) {\n${Array.from({ length: copies }, (_, i) => `# ${salt} ${i}\nsubnets(first: 1) { edges { node { subnetId isPrimaryNetwork createBlockTimestamp } } }`).join('\n')}\n} }`;

/** What validation did: how often `validate` ran, each run's overlap rules, and their runs and SelectionSet visits. */
interface Counts {
  validations: number;
  overlapRulesPerValidation: number[];
  overlapRuleRuns: number;
  /** SelectionSet visits that reached the defer-aware overlap rule itself. */
  selectionSetVisits: number;
}

const OVERLAP = 'OverlappingFieldsCanBeMergedRule';

/**
 * Counts what reaches graphql-js's `validate`. Registered first, so every later plugin's validate function (the
 * limit's rule-list fix among them) wraps this one: it sees the rule list as `validate` finally gets it, and
 * counts the runs of each overlap rule in it.
 */
function countingPlugin(counts: Counts): Plugin {
  return {
    onValidate({ validateFn, setValidationFn }) {
      const counted: typeof validate = (schema, document, rules, ...rest) => {
        counts.validations += 1;
        const overlap = (rules ?? []).filter((rule) => rule.name === OVERLAP);
        counts.overlapRulesPerValidation.push(overlap.length);
        const wrapped = (rules ?? []).map((rule): ValidationRule => (overlap.includes(rule) ? (context) => ((counts.overlapRuleRuns += 1), rule(context)) : rule));
        return validateFn(schema, document, wrapped, ...rest);
      };
      setValidationFn(counted);
    },
  };
}

/**
 * Counts the SelectionSet visits of the defer-aware overlap rule itself. Registered last, so its validate function
 * wraps the limit's: it sees the rule list as the plugins assembled it and wraps that rule (keeping its name)
 * before the limit decides which visits reach it.
 */
function visitCountingPlugin(counts: Counts): Plugin {
  const wrap = (rule: ValidationRule): ValidationRule => {
    const counted: ValidationRule = (context) => {
      const visitor = rule(context);
      const { enter } = getEnterLeaveForKind(visitor, Kind.SELECTION_SET);
      if (!enter) return visitor;
      return { ...visitor, SelectionSet: (...args: Parameters<typeof enter>) => ((counts.selectionSetVisits += 1), enter.apply(visitor, args)) } as ASTVisitor;
    };
    Object.defineProperty(counted, 'name', { value: OVERLAP });
    return counted;
  };
  return {
    onValidate({ validateFn, setValidationFn }) {
      const counted: typeof validate = (schema, document, rules, ...rest) =>
        validateFn(schema, document, rules?.map((rule) => (rule.name === OVERLAP && rule !== OverlappingFieldsCanBeMergedRule ? wrap(rule) : rule)), ...rest);
      setValidationFn(counted);
    },
  };
}

const SDL = /* GraphQL */ `
  type Query { items(first: Int): [Item!]! item(id: Int): Item node: Item }
  type Item { a(x: Int): Item b: Item c: Int d: Int list: [Int!]! }
`;

/**
 * A small yoga: the counting plugin, @defer/@stream, the limit and the parse cache, in the gateway's order.
 * `check` parses and validates through its envelop, as a request does before execution (the status of a
 * refusal is the gateway's test below).
 */
function limitedYoga(options: { maxComplexity?: number; limit?: boolean } = {}) {
  const counts: Counts = { validations: 0, overlapRulesPerValidation: [], overlapRuleRuns: 0, selectionSetVisits: 0 };
  const cache = useParseCache();
  const yoga = createYoga({
    schema: buildSchema(SDL),
    parserAndValidationCache: false,
    graphiql: false,
    plugins: [
      countingPlugin(counts),
      useDeferStream(),
      ...(options.limit === false ? [] : [useValidationLimit(options.maxComplexity !== undefined ? { maxComplexity: options.maxComplexity } : {})]),
      cache,
      visitCountingPlugin(counts),
    ],
  });
  const check = (query: string) => {
    const enveloped = yoga.getEnveloped({});
    const errors = enveloped.validate(enveloped.schema, enveloped.parse(query)) as readonly GraphQLError[];
    return { errors, messages: errors.map((error) => error.message), codes: errors.map((error) => error.extensions['code']) };
  };
  return { counts, cache, check };
}

describe('validationComplexity', () => {
  it('puts the reported attack far over the default budget, and one copy far under it', () => {
    expect(validationComplexity(parse(attack()))).toBeGreaterThan(100 * VALIDATION_LIMIT_DEFAULTS.maxComplexity);
    expect(validationComplexity(parse(attack(1)))).toBeLessThan(1);
  });

  it('ignores comments, whitespace and commas', () => {
    const plain = validationComplexity(parse(attack(20)));
    expect(validationComplexity(parse(attack(20, 'other comments')))).toBe(plain);
    expect(validationComplexity(parse(attack(20).replace(/^#.*$/gm, '').replace(/ /g, ' , \n ')))).toBe(plain);
  });

  it('grows quadratically with copies of a field, linearly with distinct fields', () => {
    const copies = (n: number) => validationComplexity(parse(`{ ${'item(id: 1) { c } '.repeat(n)}}`));
    const distinct = (n: number) => validationComplexity(parse(`{ ${Array.from({ length: n }, (_, i) => `i${i}: item(id: 1) { c }`).join(' ')} }`));
    expect(copies(40) / copies(20)).toBeGreaterThan(3.5);
    expect(distinct(40) / distinct(20)).toBeCloseTo(2, 0);
  });

  it('terminates on fragment cycles, self-spreads and unknown fragments', () => {
    const cyclic = parse('{ node { ...A } } fragment A on Item { c ...B b { ...A } } fragment B on Item { d ...A ...Missing }');
    const value = validationComplexity(cyclic);
    expect(Number.isFinite(value)).toBe(true);
    expect(value).toBeLessThan(10);
  });

  it('measures an exponential fragment fan-out from summaries, without expanding it (refused, not hung)', () => {
    // Every fragment spreads the next two: about 2^39 fields once expanded.
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) =>
      i === levels - 1 ? `fragment A${i} on Item { c } fragment B${i} on Item { d }` : `fragment A${i} on Item { ...A${i + 1} ...B${i + 1} } fragment B${i} on Item { ...A${i + 1} ...B${i + 1} }`,
    ).join('\n');
    const document = parse(`{ node { ...A0 } }\n${fragments}`);
    expect(validationComplexity(document, VALIDATION_LIMIT_DEFAULTS.maxComplexity)).toBeGreaterThan(2 ** 30);
  });

  it('counts long string arguments, which the defer-aware rule prints for every compared pair', () => {
    const copies = (length: number) => validationComplexity(parse(`{ ${`node { a(x: "${'y'.repeat(length)}") { c } } `.repeat(10)}}`));
    expect(copies(10_000)).toBeGreaterThan(copies(10) * 10);
  });

  it('is an upper bound of the field comparisons the overlap rule can make (property, against an exhaustive count)', () => {
    fc.assert(
      fc.property(documentArbitrary(), (text) => {
        const document = parse(text);
        expect(validationComplexity(document)).toBeGreaterThanOrEqual(exhaustiveComparisons(document));
      }),
      { numRuns: 300 },
    );
  });
});

describe('useValidationLimit', () => {
  it('without it, @defer/@stream and yoga run two overlap rules per validation (the bug it fixes)', () => {
    const { counts, check } = limitedYoga({ limit: false });
    check('{ node { c } }');
    expect(counts.overlapRulesPerValidation).toEqual([2]);
  });

  it('runs one overlap rule per validation, the defer-aware one: a @stream conflict is still found, once', () => {
    const { counts, check } = limitedYoga();
    expect(check('{ items(first: 2) @stream(initialCount: 1) { c } node { c c } }').errors).toEqual([]);
    expect(check('{ items(first: 2) @stream(initialCount: 1) { c } items(first: 2) { c } }').messages).toEqual([expect.stringContaining('differing stream directives')]);
    expect(counts.validations).toBe(2);
    expect(counts.overlapRulesPerValidation).toEqual([1, 1]);
    expect(counts.overlapRuleRuns).toBe(2);
  });

  it('compares the fields of nested inline fragments once, at the set that holds them (one error, not one per level)', () => {
    const nested = '{ node { ... on Item { ... on Item { ... { k: c k: d } } } } }';
    const { counts, check } = limitedYoga();
    expect(check(nested).messages).toEqual([expect.stringMatching(/^Fields "k" conflict because "c" and "d" are different fields/)]);
    // The root set and `node`'s set: the three inline fragments' sets are skipped.
    expect(counts.selectionSetVisits).toBe(2);
    // Without the limit's rule list, the defer-aware rule visits all five and reports the conflict at four of them
    // (graphql-js's own rule once more).
    const unlimited = limitedYoga({ limit: false });
    expect(unlimited.check(nested).messages).toHaveLength(5);
    expect(unlimited.counts.selectionSetVisits).toBe(5);
  });

  it('keeps the other @defer/@stream rules: @stream on a list only, unique labels', () => {
    const { check } = limitedYoga();
    expect(check('{ node @stream(initialCount: 1) { c } }').messages).toEqual([expect.stringMatching(/stream/i)]);
    expect(check('{ node { ... @defer(label: "x") { c } ... @defer(label: "x") { d } } }').messages).toEqual([expect.stringMatching(/label/i)]);
    expect(check('{ node { ... @defer { c } } items(first: 3) @stream(initialCount: 1) { d } }').errors).toEqual([]);
  });

  it('refuses a document over the budget with QUERY_TOO_COMPLEX before any validation rule runs', () => {
    const { counts, check } = limitedYoga();
    const hostile = `{ ${'item(id: 1) { a(x: 1) { c d } } '.repeat(60)}}`;
    expect(validationComplexity(parse(hostile))).toBeGreaterThan(VALIDATION_LIMIT_DEFAULTS.maxComplexity);
    const refused = check(hostile);
    expect(refused.codes).toEqual(['QUERY_TOO_COMPLEX']);
    expect(refused.errors[0]?.extensions['limits']).toEqual({ maxValidationComplexity: VALIDATION_LIMIT_DEFAULTS.maxComplexity });
    // The same again (a parse-cache hit), and a copy with other comments (a new document): never validated.
    check(hostile);
    expect(check(`# another\n${hostile}`).codes).toEqual(['QUERY_TOO_COMPLEX']);
    expect(counts.validations).toBe(0);
    expect(counts.overlapRuleRuns).toBe(0);
  });

  it('validates a copy that differs only by comments, whitespace and commas once: the validation cache hits', () => {
    const { counts, cache, check } = limitedYoga();
    const query = '{ node { c a(x: 1) { d } } items(first: 2) @stream(initialCount: 1) { c } }';
    for (const variant of [query, `# one\n${query}`, `# two\n${query.replace(/ /g, ',\n  ')}`, `${query}\n# three`]) expect(check(variant).errors).toEqual([]);
    expect(counts.validations).toBe(1);
    expect(cache.parseCacheStats().validated).toBe(1);
    // Other tokens (an argument value) are another document.
    check(query.replace('x: 1', 'x: 2'));
    expect(counts.validations).toBe(2);
  });

  it('validates each copy of an invalid document again: its errors point into its own text', () => {
    const { counts, check } = limitedYoga();
    expect(check('{ node { nope } }').errors[0]?.locations).toEqual([{ line: 1, column: 10 }]);
    expect(check('# a comment line\n{ node { nope } }').errors[0]?.locations).toEqual([{ line: 2, column: 10 }]);
    expect(counts.validations).toBe(2);
  });

  it('reports at most ten errors: each error scans the text before it for its location, so 100 after 900 KB of comments would cost a second', () => {
    const { check } = limitedYoga();
    const query = `${'# padding padding padding padding padding padding padding padding\n'.repeat(14_000)}{ ${Array.from({ length: 100 }, (_, i) => `nope${i}`).join(' ')} }`;
    const { errors } = check(query);
    // Ten located errors, and graphql-js's note that it stopped there.
    expect(errors.filter((error) => error.locations).length).toBe(10);
    expect(errors.length).toBeLessThanOrEqual(11);
  });

  it('property: a document at or under the budget is never refused by it; one over it always is, and is never validated', () => {
    const maxComplexity = 40;
    const { counts, check } = limitedYoga({ maxComplexity });
    const seen = { over: 0, under: 0 };
    fc.assert(
      fc.property(documentArbitrary(), (text) => {
        const before = counts.validations;
        const { codes } = check(text);
        if (validationComplexity(parse(text)) > maxComplexity) {
          seen.over += 1;
          expect(codes).toEqual(['QUERY_TOO_COMPLEX']);
          expect(counts.validations).toBe(before);
        } else {
          seen.under += 1;
          expect(codes).not.toContain('QUERY_TOO_COMPLEX');
        }
      }),
      { numRuns: 200 },
    );
    // Both sides of the budget were drawn.
    expect(seen.over).toBeGreaterThan(10);
    expect(seen.under).toBeGreaterThan(10);
  });
});

describe('the gateway', () => {
  let gateway: Gateway;
  let lenient: Gateway;
  beforeAll(() => {
    // Nothing here reaches the Data API: refusals and validation come before execution.
    const deps = { dataApi: createDataApiClient({ baseUrl: 'http://127.0.0.1:9' }), nodes: [] };
    gateway = createGateway({ graphiql: false }, deps);
    lenient = createGateway({ graphiql: false, maxValidationComplexity: 10_000_000 }, deps);
  });
  afterAll(async () => {
    await Promise.all([gateway.dispose(), lenient.dispose()]);
  });

  const post = async (on: Gateway, query: string) => {
    const response = await on.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query }),
    });
    return { status: response.status, body: (await response.json()) as { errors?: { message: string; extensions?: Record<string, unknown> }[] } };
  };

  it('refuses the reported attack with 400 QUERY_TOO_COMPLEX; MAX_VALIDATION_COMPLEXITY raised, it is validated', async () => {
    const refused = await post(gateway, attack(200, 'a'));
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.map((error) => error.extensions?.['code'])).toEqual(['QUERY_TOO_COMPLEX']);
    const enveloped = lenient.getEnveloped({});
    expect(enveloped.validate(enveloped.schema, parse(attack(200, 'b')))).toEqual([]);
  });

  it('validates @defer and @stream documents as before, and reports an overlap conflict once', () => {
    const enveloped = gateway.getEnveloped({});
    const errors = (query: string) => (enveloped.validate(enveloped.schema, parse(query)) as readonly GraphQLError[]).map((error) => error.message);
    const deferred = '{ network(name: FUJI) { validators(first: 5) { edges { node { nodeId ... on ActiveValidator @defer { peer { nodeID version } } } } } } }';
    expect(errors(deferred)).toEqual([]);
    expect(errors('{ chains @stream(initialCount: 1) { chainId } }')).toEqual([]);
    expect(errors('{ chains @stream(initialCount: 1) { chainId } chains { chainId } }')).toEqual([expect.stringContaining('differing stream directives')]);
    expect(errors('{ network(name: MAINNET) { x: id x: name } }')).toEqual([expect.stringMatching(/^Fields "x" conflict/)]);
  });

  it('passes every document of GraphiQL, the README and the examples, and the full introspection query, far under the budget', () => {
    const documents = [exampleQueries(), getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true })];
    for (const doc of ['README.md', 'docs/api.md']) {
      for (const match of readFileSync(new URL(`../../${doc}`, import.meta.url), 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)) documents.push(match[1] ?? '');
    }
    for (const file of ['examples/client/apollo.ts', 'examples/client/apollo-defer.ts', 'examples/client/urql.ts', 'examples/client/validators.ts', 'examples/relay/validators.ts']) {
      const source = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      // Each file's tagged documents together (the Relay ones spread each other's fragments).
      documents.push([...source.matchAll(/= graphql\(?`([\s\S]*?)`/g)].map((match) => match[1] ?? '').join('\n'));
    }
    expect(documents.length).toBeGreaterThan(8);
    for (const text of documents) expect(validationComplexity(parse(text)), text.slice(0, 80)).toBeLessThan(VALIDATION_LIMIT_DEFAULTS.maxComplexity / 20);
  });

  it('reads MAX_VALIDATION_COMPLEXITY from the environment', () => {
    expect(configFromEnv({}).limits.maxValidationComplexity).toBe(VALIDATION_LIMIT_DEFAULTS.maxComplexity);
    expect(configFromEnv({ MAX_VALIDATION_COMPLEXITY: '5000' }).limits.maxValidationComplexity).toBe(5000);
    expect(() => configFromEnv({ MAX_VALIDATION_COMPLEXITY: 'lots' })).toThrow(/MAX_VALIDATION_COMPLEXITY/);
  });
});

// Random documents over the small schema: few names (so fields repeat), aliases, equal and differing arguments,
// inline fragments, and fragments that may spread each other (cycles and unknown names included).

const NAMES = ['a', 'b', 'c', 'd'];

function documentArbitrary(): fc.Arbitrary<string> {
  const { selection } = fc.letrec<{ selection: string; set: string }>((tie) => ({
    selection: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.tuple(fc.constantFrom('', 'k: ', 'm: '), fc.constantFrom(...NAMES), fc.constantFrom('', '(x: 1)', '(x: 2)', '(x: "long string value")')).map(([alias, name, args]) => `${alias}${name}${args}`),
      fc.tuple(fc.constantFrom('', 'k: '), fc.constantFrom('a', 'b'), fc.constantFrom('', '(x: 1)'), tie('set')).map(([alias, name, args, set]) => `${alias}${name}${args} ${set}`),
      tie('set').map((set) => `... on Item ${set}`),
      fc.constantFrom('...F0', '...F1', '...F2', '...Missing'),
    ),
    set: fc.array(tie('selection'), { minLength: 1, maxLength: 5 }).map((selections) => `{ ${selections.join(' ')} }`),
  }));
  const set = fc.array(selection, { minLength: 1, maxLength: 6 }).map((selections) => `{ ${selections.join(' ')} }`);
  return fc.tuple(set, fc.array(set, { minLength: 0, maxLength: 3 })).map(([operation, fragments]) =>
    [`{ node ${operation} }`, ...fragments.map((body, i) => `fragment F${i} on Item ${body}`)].join('\n'),
  );
}

/**
 * The comparisons the overlap rule can make, counted the slow and obvious way: every selection set of every
 * definition with its fragments expanded (spread once per set, never inside itself), every two fields of it that
 * share a response name, and recursively every two fields of their sub-selections that share one.
 */
function exhaustiveComparisons(document: DocumentNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  interface Occurrence {
    key: string;
    sub: SelectionSetNode | undefined;
    path: readonly string[];
  }
  const flatten = (set: SelectionSetNode, path: readonly string[]): Occurrence[] => {
    const out: Occurrence[] = [];
    const spreads: string[] = [];
    const walk = (selections: SelectionSetNode) => {
      for (const selection of selections.selections) {
        if (selection.kind === Kind.FIELD) out.push({ key: selection.alias?.value ?? selection.name.value, sub: selection.selectionSet, path });
        else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
        else if (!spreads.includes(selection.name.value)) spreads.push(selection.name.value);
      }
    };
    walk(set);
    for (const name of spreads) {
      const fragment = fragments.get(name);
      if (fragment && !path.includes(name)) out.push(...flatten(fragment.selectionSet, [...path, name]));
    }
    return out;
  };
  const between = (left: Occurrence[], right: Occurrence[]): number => {
    let count = 0;
    for (const x of left) for (const y of right) if (x.key === y.key) count += 1 + (x.sub && y.sub ? between(flatten(x.sub, x.path), flatten(y.sub, y.path)) : 0);
    return count;
  };
  const everySet = (set: SelectionSetNode, path: readonly string[]): number => {
    const fields = flatten(set, path);
    let count = 0;
    fields.forEach((x, i) => {
      for (const y of fields.slice(i + 1)) if (x.key === y.key) count += 1 + (x.sub && y.sub ? between(flatten(x.sub, x.path), flatten(y.sub, y.path)) : 0);
      if (x.sub) count += everySet(x.sub, x.path);
    });
    return count;
  };
  let total = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) total += everySet(definition.selectionSet, []);
    if (definition.kind === Kind.FRAGMENT_DEFINITION) total += everySet(definition.selectionSet, [definition.name.value]);
  }
  return total;
}
