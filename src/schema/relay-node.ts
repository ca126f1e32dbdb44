import { GraphQLError } from 'graphql';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { badInput } from '../errors.ts';

/**
 * Relay object identification. A global id is base64url of the JSON array
 * `[typename, ...localParts]`; `typename` is the stable family name (`Validator`,
 * not `ActiveValidator`), so an id survives a status change.
 */
export function encodeGlobalId(typename: string, parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([typename, ...parts])).toString('base64url');
}

export function decodeGlobalId(id: string): { typename: string; parts: string[] } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    throw badInput('id', 'not a chaingraph global id');
  }
  if (!Array.isArray(decoded) || decoded.length < 1 || !decoded.every((p) => typeof p === 'string' || typeof p === 'number')) {
    throw badInput('id', 'not a chaingraph global id');
  }
  const [typename, ...parts] = decoded as (string | number)[];
  return { typename: String(typename), parts: parts.map(String) };
}

interface NodeFamily {
  /** Loads the object of these local parts, or null when it does not exist. */
  load(ctx: Context, parts: string[]): Promise<object | null>;
  /** The concrete GraphQL type of a loaded object (for families modelled as interfaces). */
  typeOf(object: object): string;
}

const families = new Map<string, NodeFamily>();
const brands = new WeakMap<object, string>();

/** Registers how `node(id:)` refetches a family of objects. Called by each domain module. */
export function registerNodeFamily(typename: string, family: NodeFamily): void {
  if (families.has(typename)) throw new Error(`Node family ${typename} registered twice`);
  families.set(typename, family);
}

/** Marks an object with its concrete GraphQL type, for fields typed as `Node`. */
export function brandNode<T extends object>(object: T, concreteType: string): T {
  brands.set(object, concreteType);
  return object;
}

export const NodeInterface = builder.interfaceRef<object>('Node').implement({
  description: 'An object with a global id that `Query.node(id:)` refetches (Relay object identification).',
  fields: (t) => ({
    id: t.id({ description: 'Globally unique, opaque id.', resolve: () => { throw new GraphQLError('id resolved by the implementing type'); } }),
  }),
  resolveType: (object) => brands.get(object) ?? null,
});

/** Loads any object by global id through its family's loader (node, nodes and federation `_entities`). */
export async function loadNode(ctx: Context, id: string): Promise<object | null> {
  const { typename, parts } = decodeGlobalId(id);
  const family = families.get(typename);
  if (!family) throw badInput('id', `unknown object type "${typename}" in global id`);
  const object = await family.load(ctx, parts);
  return object ? brandNode(object, family.typeOf(object)) : null;
}

builder.queryFields((t) => ({
  node: t.field({
    type: NodeInterface,
    nullable: true,
    description: 'Refetches any object by its global id; null when it no longer exists.',
    args: { id: t.arg.id({ required: true, description: 'A global id from an `id` field.' }) },
    extensions: { validateArgs: (args) => void decodeGlobalId(String(args['id'])) },
    resolve: (_root, args, ctx) => loadNode(ctx, String(args.id)),
  }),
  nodes: t.field({
    type: [NodeInterface],
    nullable: { list: false, items: true },
    description: 'Refetches several objects at once, in the order of `ids` (null where one no longer exists).',
    args: { ids: t.arg.idList({ required: true, description: 'Global ids.' }) },
    extensions: {
      validateArgs: (args) => {
        for (const id of args['ids'] as string[]) decodeGlobalId(String(id));
      },
    },
    // An id that fails to load becomes null with its own error; the others still load.
    resolve: (_root, args, ctx) => Promise.all(args.ids.map((id) => loadNode(ctx, String(id)).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))))),
  }),
}));
