import DataLoader from 'dataloader';
import { GraphQLInt, GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { createLoopBudget, type LoopBudget } from '../../src/lib/loop-budget.ts';
import { useLoopBudget } from '../../src/gateway/plugins/use-loop-budget.ts';

interface Ctx {
  extras: DataLoader<number, { x: string }>;
}

/**
 * Items (an upstream listing) with a cost-free sub-object each, and one field per item that calls an
 * upstream through a batching loader: the loop budget may make the cost-free subtrees wait, never the
 * loader's calls. Each call gets a fresh schema (the plugin wraps resolvers in place).
 */
function schema(): GraphQLSchema {
  const Detail = new GraphQLObjectType({
    name: 'Detail',
    fields: { a: { type: GraphQLString }, b: { type: GraphQLInt }, inner: { type: new GraphQLObjectType({ name: 'Inner', fields: { c: { type: GraphQLString } } }) } },
  });
  const Extra = new GraphQLObjectType({ name: 'Extra', fields: { x: { type: GraphQLString } } });
  const Item = new GraphQLObjectType<{ id: number }, Ctx>({
    name: 'Item',
    fields: {
      id: { type: GraphQLInt },
      detail: { type: Detail, resolve: (item) => ({ a: `item ${item.id} é\u{1F600}`, b: item.id * 2, inner: { c: String(item.id) } }) },
      extra: { type: Extra, extensions: { cost: { calls: () => 1 } }, resolve: (item, _args, ctx) => ctx.extras.load(item.id) },
    },
  });
  const Query = new GraphQLObjectType<unknown, Ctx>({
    name: 'Query',
    fields: {
      items: {
        type: new GraphQLList(Item),
        args: { n: { type: GraphQLInt } },
        extensions: { cost: { calls: () => 1 } },
        resolve: async (_source, args: { n?: number }) => Array.from({ length: args.n ?? 300 }, (_, id) => ({ id })),
      },
    },
  });
  return new GraphQLSchema({ query: Query });
}

async function run(plugins: Plugin[], query: string): Promise<{ text: string; batches: number[][] }> {
  const batches: number[][] = [];
  const yoga = createYoga<Record<string, unknown>, Ctx>({
    schema: schema(),
    plugins,
    context: () => ({
      extras: new DataLoader<number, { x: string }>(async (ids) => {
        batches.push([...ids]);
        return ids.map((id) => ({ x: `extra ${id}` }));
      }),
    }),
  });
  const response = await yoga.fetch('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return { text: await response.text(), batches };
}

/** A budget whose slice is always spent, counting how often work parked. */
function spentBudget(): LoopBudget & { parks: () => number } {
  const budget = createLoopBudget({ sliceMs: 0 });
  let parks = 0;
  return {
    ...budget,
    park: () => {
      parks += 1;
      return budget.park();
    },
    pause: () => (budget.shouldPause() ? (parks++, budget.park()) : undefined),
    parks: () => parks,
  };
}

const QUERY = '{ items(n: 300) { id detail { a b inner { c } } extra { x } } }';

describe('useLoopBudget', () => {
  it('makes cost-free subtrees wait their turn, and answers exactly what an unpaused execution answers', async () => {
    const budget = spentBudget();
    const paused = await run([useLoopBudget(budget)], QUERY);
    const plain = await run([], QUERY);
    expect(budget.parks()).toBeGreaterThan(10);
    expect(paused.text).toBe(plain.text);
  });

  it('never delays a field that calls an upstream: the loader batches are the same calls', async () => {
    const budget = spentBudget();
    const paused = await run([useLoopBudget(budget)], QUERY);
    const plain = await run([], QUERY);
    expect(plain.batches).toHaveLength(1);
    expect(paused.batches).toEqual(plain.batches);
  });

  it('never delays a subtree that holds a field calling an upstream', async () => {
    const budget = spentBudget();
    // Every item's subtree reaches `extra`: only the request itself (before parsing, before execution) may wait.
    const { batches } = await run([useLoopBudget(budget)], '{ items(n: 300) { id extra { x } } }');
    expect(batches).toHaveLength(1);
    expect(budget.parks()).toBeLessThanOrEqual(2);
  });

  it('leaves an ordinary operation alone while the slice has time', async () => {
    const budget = createLoopBudget({ sliceMs: 60_000 });
    let parks = 0;
    const counting: LoopBudget = { ...budget, park: () => (parks++, budget.park()), pause: () => (budget.shouldPause() ? (parks++, budget.park()) : undefined) };
    const { text } = await run([useLoopBudget(counting)], '{ items(n: 3) { id detail { a } } }');
    expect(JSON.parse(text)).toMatchObject({ data: { items: [{ id: 0 }, { id: 1 }, { id: 2 }] } });
    expect(parks).toBe(0);
  });
});
