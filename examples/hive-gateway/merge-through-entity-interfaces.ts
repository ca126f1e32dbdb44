/**
 * A Hive Gateway plugin working around how Hive Gateway 2.12 (its stitching runtime,
 * @graphql-tools/delegate 12) merges entity interfaces that have more than one key.
 *
 * Hive turns the supergraph into a stitched schema. Each key of an entity becomes an entry point, and a
 * type with two keys in one subgraph becomes two copies of that subgraph, each a merge target of the
 * other. When an object comes back from a subgraph, `resolveExternalObject` takes the merge plan of its
 * concrete type (`PendingValidator`) as soon as that type has any other target from the same subgraph,
 * and only otherwise the plan of the interface (`Validator`). Subgraphs that extend the interface as an
 * `@interfaceObject` are targets of the interface's plan only. With chaingraph's two validator keys
 * (`id`; `nodeId network`), every concrete validator has a target (chaingraph's other copy), so the
 * interface's plan, and with it every `@interfaceObject` subgraph's fields, is never used: those fields
 * come back null and the subgraph is never asked. Apollo's query planner plans the same supergraph
 * correctly (test/federation/gateway.test.ts runs both).
 *
 * The workaround: for each entity interface that an `@interfaceObject` subgraph extends, its concrete
 * types drop their own merge targets, so objects of those types merge through the interface's plan
 * (which holds every subgraph, chaingraph's copies included), as they do when the interface has one key.
 */
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';

interface MergedTypeInfo {
  targetSubschemas: Map<unknown, unknown[]>;
}
interface StitchingInfo {
  mergedTypes: Record<string, MergedTypeInfo | undefined>;
}

/** Makes the concrete types of entity interfaces merge through their interface's plan (see the module comment). */
export function mergeThroughEntityInterfaces(schema: GraphQLSchema): void {
  const info = schema.extensions['stitchingInfo'] as StitchingInfo | undefined;
  if (!info) return;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isInterfaceType(type)) continue;
    const iface = info.mergedTypes[type.name];
    if (!iface) continue;
    const ifaceTargets = new Set([...iface.targetSubschemas.values()].flat());
    for (const impl of schema.getPossibleTypes(type)) {
      const merged = isObjectType(impl) ? info.mergedTypes[impl.name] : undefined;
      if (!merged) continue;
      const implTargets = new Set([...merged.targetSubschemas.values()].flat());
      // Only where the interface reaches subgraphs its implementations do not (an @interfaceObject).
      if ([...ifaceTargets].some((target) => !implTargets.has(target))) merged.targetSubschemas.clear();
    }
  }
}

/** The plugin: applies {@link mergeThroughEntityInterfaces} to each schema Hive Gateway builds from the supergraph. */
export function useMergeThroughEntityInterfaces(): GatewayPlugin {
  return { onSchemaChange: ({ schema }) => mergeThroughEntityInterfaces(schema) };
}
