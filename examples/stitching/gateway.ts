/**
 * A schema-stitching gateway over chaingraph and a second service (`./watchlist.ts`), configured from
 * what each publishes at `Query._sdl` (docs/stitching.md):
 *
 * - `stitchingDirectivesTransformer` reads the stitching directives: chaingraph's
 *   `addresses(keys:) @merge(keyArg: "keys", key: ["address", "chainId"])` with
 *   `Address @key(selectionSet: "{ address chainId }")` makes an `Address` mergeable by its natural key,
 *   and `nodes(ids:) @merge(keyField: "id")` every other type implementing `Node` by its global id;
 * - `batch: true` sends the delegations of one tick to a service as one request;
 * - the merge lookups are batched by a DataLoader whose `maxBatchSize` is chaingraph's batch bound
 *   (`MAX_BATCH_KEYS`, the most keys `addresses(keys:)` and `nodes(ids:)` take), so a list of 1,200
 *   references is three calls, never one refused call.
 *
 * Run it: `CHAINGRAPH_URL=... WATCHLIST_URL=... npx tsx examples/stitching/gateway.ts` serves the
 * stitched schema at http://127.0.0.1:4100/graphql.
 */
import { buildHTTPExecutor } from '@graphql-tools/executor-http';
import { stitchSchemas } from '@graphql-tools/stitch';
import { stitchingDirectives } from '@graphql-tools/stitching-directives';
import { buildSchema, parse, type GraphQLSchema } from 'graphql';

/** A subschema as the stitching transformers take it (`SubschemaConfig` of `@graphql-tools/delegate`). */
type SubschemaConfig = Parameters<ReturnType<typeof stitchingDirectives>['stitchingDirectivesTransformer']>[0];
type HTTPExecutor = ReturnType<typeof buildHTTPExecutor>;

/** chaingraph's batch bound (`MAX_BATCH_KEYS`): the most keys one `addresses(keys:)` or `nodes(ids:)` takes, stated in their descriptions. */
export const CHAINGRAPH_MAX_BATCH_KEYS = 500;

export interface StitchedGatewayOptions {
  /** chaingraph's GraphQL endpoint (`http://127.0.0.1:4000/graphql`). */
  chaingraphUrl: string;
  /** The watchlist service's GraphQL endpoint. */
  watchlistUrl: string;
  /** Headers sent to chaingraph with every request (an `x-api-key`, say). Default none. */
  chaingraphHeaders?: Record<string, string>;
}

/** A service's SDL for stitching gateways: its `{ _sdl }`. */
async function sdlOf(executor: HTTPExecutor): Promise<string> {
  const result = await executor({ document: parse('{ _sdl }') });
  if (Symbol.asyncIterator in result) throw new Error('_sdl: expected one result, got a stream');
  const sdl = (result.data as { _sdl?: unknown } | null | undefined)?._sdl;
  if (typeof sdl !== 'string') throw new Error(`_sdl: ${JSON.stringify(result.errors ?? result)}`);
  return sdl;
}

/** A subschema from the SDL the service publishes, its requests batched. */
async function subschemaAt(endpoint: string, headers: Record<string, string> = {}): Promise<SubschemaConfig> {
  const executor = buildHTTPExecutor({ endpoint, headers });
  return { schema: buildSchema(await sdlOf(executor)), executor, batch: true };
}

/** Every merge lookup of `subschema` batched at most `maxBatchSize` keys a call. */
function withMaxBatchSize(subschema: SubschemaConfig, maxBatchSize: number): SubschemaConfig {
  const merge = Object.fromEntries(
    Object.entries(subschema.merge ?? {}).map(([typeName, config]) => [typeName, { ...config, dataLoaderOptions: { ...config.dataLoaderOptions, maxBatchSize } }]),
  );
  return { ...subschema, merge };
}

/** The stitched schema: serve it with any GraphQL server (`createYoga({ schema })`). */
export async function createStitchedSchema(options: StitchedGatewayOptions): Promise<GraphQLSchema> {
  const { stitchingDirectivesTransformer } = stitchingDirectives();
  const [chaingraph, watchlist] = await Promise.all([subschemaAt(options.chaingraphUrl, options.chaingraphHeaders), subschemaAt(options.watchlistUrl)]);
  return stitchSchemas({
    subschemas: [withMaxBatchSize(stitchingDirectivesTransformer(chaingraph), CHAINGRAPH_MAX_BATCH_KEYS), stitchingDirectivesTransformer(watchlist)],
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { createServer } = await import('node:http');
  const { createYoga } = await import('graphql-yoga');
  const schema = await createStitchedSchema({
    chaingraphUrl: process.env['CHAINGRAPH_URL'] ?? 'http://127.0.0.1:4000/graphql',
    watchlistUrl: process.env['WATCHLIST_URL'] ?? 'http://127.0.0.1:4001/graphql',
  });
  createServer(createYoga({ schema })).listen(4100, '127.0.0.1', () => console.log('stitched gateway at http://127.0.0.1:4100/graphql'));
}
