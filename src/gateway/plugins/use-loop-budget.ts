import {
  defaultFieldResolver,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LoopBudget } from '../../lib/loop-budget.ts';

const BUDGET = Symbol('chaingraph.loopBudget');
/** Fields whose resolver is wrapped: by field, since other plugins may wrap the resolver again, outside this one's wrapper. */
const wrapped = new WeakSet<GraphQLField<unknown, unknown>>();

type WithBudget = { [BUDGET]?: LoopBudget } | null | undefined;

/**
 * Shares the event loop between operations (src/lib/loop-budget.ts): an operation whose data is at hand
 * (upstream answers from the cache) is otherwise executed, from its first field to its last, without
 * node ever polling for I/O, and 32 of them building 3 MB answers held `/health` for seconds. With this
 * plugin an operation stops when the loop's slice is spent, and goes on at its turn:
 * - when a request to the GraphQL endpoint arrives (`onRequest`), before its body is read, and again
 *   before it is parsed and validated (`onParams`): a burst of requests (hundreds of sockets whose
 *   bodies arrived together) waits its turn rather than being read, parsed and validated all in one
 *   turn of the loop; `/health`, `/ready` and `/metrics` never wait;
 * - between validation and execution (`onContextBuilding`), so the two never make one stretch;
 * - during execution, at a field with a sub-selection whose subtree makes no upstream call (no field
 *   in it declares an upstream cost, `extensions.cost`): its subtree is completed on a later turn.
 *   Fields that call upstreams never wait here, nor does anything above them, so the loaders' batches
 *   are made of exactly the same calls as without this plugin (the upstream call counts do not change);
 *   only the order of errors raised inside a subtree that waited may differ.
 *
 * Nothing waits while the slice has time left, which an ordinary operation never exhausts; under load
 * the operations take turns in the order they stopped. Every transport executes through the same
 * resolvers (graphql-ws and SSE included). The serializing of large results pauses at the same budget
 * (`useResponseLimit`).
 *
 * The resolvers of fields with a sub-selection are wrapped in place once per schema (as `useTracing`
 * does); a wrapped resolver reads this gateway's budget from the operation's context, so an operation
 * of a gateway without this plugin is untouched.
 */
export function useLoopBudget(budget: LoopBudget): Plugin {
  let endpoint = '/graphql';
  return {
    onYogaInit({ yoga }) {
      endpoint = yoga.graphqlEndpoint;
    },
    onSchemaChange({ schema }) {
      wrapResolvers(schema);
    },
    // Before a GraphQL request's body is read and parsed; never /health, /ready or /metrics, which answer at once.
    onRequest({ url }) {
      if (url.pathname === endpoint) return budget.pause();
      return undefined;
    },
    onParams() {
      return budget.pause();
    },
    // After validation and before every plugin's onExecute (the cost estimate, input checks, admission).
    onContextBuilding({ extendContext }) {
      // Yoga's context type does not know the key; extendContext assigns onto this same object.
      extendContext({ [BUDGET]: budget } as object);
      return budget.pause();
    },
  };
}

/** Wraps the resolvers of the fields that return objects, once (subscription roots excepted: their events are small). */
function wrapResolvers(schema: GraphQLSchema): void {
  const subscriptionType = schema.getSubscriptionType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || type === subscriptionType) continue;
    for (const field of Object.values(type.getFields())) {
      if (wrapped.has(field) || !isCompositeType(getNamedType(field.type))) continue;
      wrapped.add(field);
      field.resolve = pausing(field.resolve ?? defaultFieldResolver);
    }
  }
}

const ignore = (): void => undefined;

/** A field's resolver that yields to the loop budget when it should (exported for its test). */
export function pausing(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  const wrapper: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
    const budget = (context as WithBudget)?.[BUDGET];
    const result = budget?.shouldPause() && mayWait(info) ? budget.park().then(() => resolve(source, args, context, info)) : resolve(source, args, context, info);
    // The executor awaits the result and reports its error; but once a sibling has failed their non-null parent it
    // drops the results still pending, and one of them failing later would be an unhandled rejection (which ends
    // a Node process). Marked handled here; the executor's own await still sees the error.
    if (result instanceof Promise) result.catch(ignore);
    return result;
  };
  // The markers other plugins left on the resolver (useTracing's "wrapped"), so they still find them and do not wrap it twice.
  for (const marker of Object.getOwnPropertySymbols(resolve)) Object.defineProperty(wrapper, marker, { value: (resolve as unknown as Record<symbol, unknown>)[marker] });
  return wrapper;
}

/** Per field node and parent type: whether the field and its subtree make no upstream call. */
const verdicts = new WeakMap<FieldNode, WeakMap<GraphQLObjectType, boolean>>();

function mayWait(info: GraphQLResolveInfo): boolean {
  const node = info.fieldNodes[0];
  if (!node) return false;
  let byParent = verdicts.get(node);
  if (!byParent) verdicts.set(node, (byParent = new WeakMap()));
  let verdict = byParent.get(info.parentType);
  if (verdict === undefined) {
    const field = info.parentType.getFields()[info.fieldName];
    verdict = !!field && !callsUpstream(field) && !info.fieldNodes.some((fieldNode) => selectsUpstream(fieldNode.selectionSet?.selections ?? [], getNamedType(field.type), info, new Map()));
    byParent.set(info.parentType, verdict);
  }
  return verdict;
}

const callsUpstream = (field: GraphQLField<unknown, unknown>): boolean => Boolean(field.extensions['cost']);

/** Whether a selection on `type` reaches a field that declares an upstream cost (fragments looked at once each). */
function selectsUpstream(selections: readonly SelectionNode[], type: GraphQLNamedType, info: GraphQLResolveInfo, fragments: Map<string, boolean>): boolean {
  for (const selection of selections) {
    if (selection.kind === Kind.FIELD) {
      // On a union only `__typename` may be selected; meta fields are not in getFields().
      const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
      if (!field) continue;
      if (callsUpstream(field)) return true;
      if (selection.selectionSet && selectsUpstream(selection.selectionSet.selections, getNamedType(field.type), info, fragments)) return true;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? info.schema.getType(selection.typeCondition.name.value) : type;
      if (on && selectsUpstream(selection.selectionSet.selections, on, info, fragments)) return true;
    } else {
      const name = selection.name.value;
      let reaches = fragments.get(name);
      if (reaches === undefined) {
        // Marked first: validation forbids cycles, and a second visit would add nothing.
        fragments.set(name, false);
        const fragment: FragmentDefinitionNode | undefined = info.fragments[name];
        const on = fragment ? info.schema.getType(fragment.typeCondition.name.value) : undefined;
        reaches = Boolean(fragment && on && selectsUpstream(fragment.selectionSet.selections, on, info, fragments));
        fragments.set(name, reaches);
      }
      if (reaches) return true;
    }
  }
  return false;
}
