import { Kind, parse, print, printSchema, type ConstDirectiveNode, type DefinitionNode, type FieldDefinitionNode, type GraphQLSchema } from 'graphql';
import { builder } from './builder.ts';
import { MAX_BATCH_KEYS } from './relay-node.ts';

/**
 * What a schema-stitching gateway reads (`@graphql-tools/stitch` with `stitchingDirectivesTransformer`):
 * `Query._sdl`, chaingraph's SDL in stitching terms. It cannot be the federation SDL: stitching's
 * `@key(selectionSet:)` has the name of federation's `@key(fields:)`, so it is a rendering of its own
 * (modelled on `federationToStitchingSDL` of `@graphql-tools/stitching-directives`):
 *
 * - the schema as a client sees it, without what only a federation router uses (`_entities`,
 *   `_service`, `_Any`, `_Entity`, `_Service`) and without `_sdl` itself;
 * - the stitching directives' definitions, as the package's `stitchingDirectivesTypeDefs` writes them;
 * - `@merge(keyField: "id")` on `nodes(ids:)`: it returns `[Node]`, so every type implementing `Node`
 *   gets one batched merge entry point by its global id (at most {@link MAX_BATCH_KEYS} a call).
 */

/** `stitchingDirectives().stitchingDirectivesTypeDefs` of `@graphql-tools/stitching-directives` (test/schema/stitching.test.ts compares them). */
export const STITCHING_DIRECTIVES_SDL = [
  'directive @key(selectionSet: String!) on OBJECT',
  'directive @computed(selectionSet: String!) on FIELD_DEFINITION',
  'directive @merge(argsExpr: String, keyArg: String, keyField: String, key: [String!], additionalArgs: String) on FIELD_DEFINITION',
  'directive @canonical on OBJECT | INTERFACE | INPUT_OBJECT | UNION | ENUM | SCALAR | FIELD_DEFINITION | INPUT_FIELD_DEFINITION',
].join('\n');

/** The types federation adds, which a stitching gateway must not see. */
export const FEDERATION_ONLY_TYPES: readonly string[] = ['_Any', '_Entity', '_Service'];
/** The root fields for gateways and routers, left out of the stitching SDL. */
const GATEWAY_FIELDS: ReadonlySet<string> = new Set(['_entities', '_service', '_sdl']);

/** The merge entry point: `nodes(ids:)` by each object's `id`. */
const MERGE_BY_ID = (parse('type M { f: Int @merge(keyField: "id") }').definitions[0] as { fields: readonly FieldDefinitionNode[] }).fields[0]?.directives?.[0] as ConstDirectiveNode;

/** The root query type's definition in stitching terms: no gateway fields, `nodes` a merge entry point. */
function stitchingQuery(definition: DefinitionNode, queryName: string): DefinitionNode {
  if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION || definition.name.value !== queryName) return definition;
  const fields = (definition.fields ?? [])
    .filter((field) => !GATEWAY_FIELDS.has(field.name.value))
    .map((field) => (field.name.value === 'nodes' ? { ...field, directives: [...(field.directives ?? []), MERGE_BY_ID] } : field));
  return { ...definition, fields };
}

const rendered = new WeakMap<GraphQLSchema, string>();

/** `schema` in stitching terms (see the module's comment), rendered once per schema. */
export function printStitchingSDL(schema: GraphQLSchema): string {
  let sdl = rendered.get(schema);
  if (sdl === undefined) {
    const queryName = schema.getQueryType()?.name ?? 'Query';
    const document = parse(printSchema(schema));
    const definitions = document.definitions
      .filter((definition) => !('name' in definition && definition.name && FEDERATION_ONLY_TYPES.includes(definition.name.value)))
      .map((definition) => stitchingQuery(definition, queryName));
    sdl = `${STITCHING_DIRECTIVES_SDL}\n\n${print({ ...document, definitions })}\n`;
    rendered.set(schema, sdl);
  }
  return sdl;
}

builder.queryField('_sdl', (t) =>
  t.string({
    description: `For schema-stitching gateways, not for apps: this schema's SDL with the stitching directives of \`@graphql-tools/stitching-directives\` (\`@merge(keyField: "id")\` on \`nodes(ids:)\`: every \`Node\` merges by its global id, at most ${MAX_BATCH_KEYS} a call, the gateway's \`maxBatchSize\`). Federation routers read \`_service\`.`,
    resolve: (_root, _args, _ctx, info) => printStitchingSDL(info.schema),
  }),
);
