import { Kind, parse, print, printSchema, type ConstDirectiveNode, type DefinitionNode, type GraphQLSchema, type ObjectTypeDefinitionNode } from 'graphql';
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
 *   gets one batched merge entry point by its global id (at most {@link MAX_BATCH_KEYS} a call);
 * - `Address` merges by its natural key instead, `address` and `chainId`, through `addresses(keys:)`
 *   (see {@link MERGE_ENTRY_POINTS}). Validators do not merge by node id: see docs/stitching.md.
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

/** A directive as written in SDL (`@merge(keyField: "id")`), parsed once. */
function directive(text: string): ConstDirectiveNode {
  const type = parse(`type T ${text} { f: Int }`).definitions[0] as ObjectTypeDefinitionNode;
  return type.directives?.[0] as ConstDirectiveNode;
}

/**
 * The merge entry points among the root fields: `nodes(ids:)` by each object's global `id`, and
 * `addresses(keys:)` by an address's natural key, `{ address, chainId }` pairs built from the fields of
 * the `@key` below (what `NATURAL_KEYS` in `./relay-node.ts` names for federation).
 */
export const MERGE_ENTRY_POINTS: ReadonlyMap<string, string> = new Map([
  ['nodes', '@merge(keyField: "id")'],
  ['addresses', '@merge(keyArg: "keys", key: ["address", "chainId"])'],
]);

/**
 * Type-level keys: what a gateway selects from another service's object to merge it through the
 * entry point above that has no `keyField` (stitching adds it to the `id` of `nodes`'s entry point, and
 * reads each entry point's key from its own fields).
 */
export const TYPE_KEYS: ReadonlyMap<string, string> = new Map([['Address', '@key(selectionSet: "{ address chainId }")']]);

const ENTRY_POINT_DIRECTIVES = new Map([...MERGE_ENTRY_POINTS].map(([field, text]) => [field, directive(text)]));
const TYPE_KEY_DIRECTIVES = new Map([...TYPE_KEYS].map(([type, text]) => [type, directive(text)]));

/** One definition in stitching terms: the root query type without gateway fields and with its merge entry points; a type's key. */
function stitchingDefinition(definition: DefinitionNode, queryName: string): DefinitionNode {
  if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) return definition;
  const key = TYPE_KEY_DIRECTIVES.get(definition.name.value);
  if (key) return { ...definition, directives: [...(definition.directives ?? []), key] };
  if (definition.name.value !== queryName) return definition;
  const fields = (definition.fields ?? [])
    .filter((field) => !GATEWAY_FIELDS.has(field.name.value))
    .map((field) => {
      const merge = ENTRY_POINT_DIRECTIVES.get(field.name.value);
      return merge ? { ...field, directives: [...(field.directives ?? []), merge] } : field;
    });
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
      .map((definition) => stitchingDefinition(definition, queryName));
    sdl = `${STITCHING_DIRECTIVES_SDL}\n\n${print({ ...document, definitions })}\n`;
    rendered.set(schema, sdl);
  }
  return sdl;
}

builder.queryField('_sdl', (t) =>
  t.string({
    description: `For schema-stitching gateways, not for apps: this schema's SDL with the stitching directives of \`@graphql-tools/stitching-directives\`: an \`Address\` merges by \`address\` and \`chainId\` through \`addresses(keys:)\`, every other \`Node\` by its global id through \`nodes(ids:)\`, at most ${MAX_BATCH_KEYS} a call (the gateway's \`maxBatchSize\`). Federation routers read \`_service\`.`,
    resolve: (_root, _args, _ctx, info) => printStitchingSDL(info.schema),
  }),
);
