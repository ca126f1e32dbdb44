import SchemaBuilder from '@pothos/core';
import DirectivePlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import type { Context } from './context.ts';
import { codedError, ErrorCode } from '../errors/graphql.ts';
import ChecksPlugin from './checks-plugin.ts';
import { DateTimeScalar, EvmAddressScalar, HashScalar, HexScalar, IPScalar, UInt256Scalar, UInt64Scalar, URLScalar } from './scalars.ts';

/**
 * The one schema builder. Types live in `src/schema/*`, one module per domain;
 * this file only configures plugins and scalars.
 */
export const builder = new SchemaBuilder<{
  Context: Context;
  Scalars: {
    UInt256: { Input: string; Output: string | number | bigint };
    UInt64: { Input: string; Output: string | number | bigint };
    DateTime: { Input: Date; Output: Date };
    EvmAddress: { Input: string; Output: string };
    Hash: { Input: string; Output: string };
    Hex: { Input: string; Output: string };
    URL: { Input: string; Output: string };
    IP: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
  };
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
  // Nullable unless a field says otherwise: nearly every field is fed by an upstream value that may be
  // absent or unservable, and a null confines that to the field. Non-null (`nullable: false`) only where
  // chaingraph itself guarantees the value: ids, connections and their paging, names and configuration.
  DefaultFieldNullability: true;
  // `admin`: the caller presented `authorization: Bearer <ADMIN_TOKEN>` (admin mutations and admin reads).
  AuthScopes: { admin: boolean };
}>({
  // Scope auth first, so no other plugin's resolver wrapper runs before a refused field is refused.
  plugins: [ScopeAuthPlugin, DirectivePlugin, RelayPlugin, FederationPlugin, ChecksPlugin],
  scopeAuth: {
    authScopes: (ctx) => ({ admin: ctx.isAdmin }),
    // The only scope is `admin`: ADMIN_DISABLED when this deployment has no ADMIN_TOKEN, FORBIDDEN for a caller without it.
    unauthorizedError: (_parent, ctx) =>
      ctx.adminConfigured
        ? codedError(ErrorCode.FORBIDDEN, 'Admin calls need the header `authorization: Bearer <ADMIN_TOKEN>`')
        : codedError(ErrorCode.ADMIN_DISABLED, 'Admin calls are disabled: the gateway has no ADMIN_TOKEN'),
  },
  relay: {
    // `node`/`nodes` and the Node interface are ours (src/schema/relay-node.ts): global ids stay
    // stable when a validator changes status, which the plugin's per-object ids would not.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    clientMutationId: 'omit',
    cursorType: 'String',
    edgesFieldOptions: { nullable: { list: false, items: false }, description: 'The items of this page, each with its cursor.' },
    nodeFieldOptions: { nullable: false, description: 'The item.' },
    cursorFieldOptions: { description: 'Opaque position of this item; pass it as `after` to continue after it (with the same arguments).' },
    pageInfoFieldOptions: { description: 'Where this page sits in the connection.' },
    hasNextPageFieldOptions: { description: 'True when more items follow (exact: the upstream has a next page).' },
    hasPreviousPageFieldOptions: { description: 'Always false: connections here are forward-only.' },
    startCursorFieldOptions: { description: 'Cursor of the first item of this page.' },
    endCursorFieldOptions: { description: 'Cursor of the last item of this page; pass it as `after` for the next page.' },
    pageInfoTypeOptions: { description: 'Where a page sits in its connection. Connections here are forward-only (`first`/`after`).' },
  },
});

builder.addScalarType('UInt256', UInt256Scalar);
builder.addScalarType('UInt64', UInt64Scalar);
builder.addScalarType('DateTime', DateTimeScalar);
builder.addScalarType('EvmAddress', EvmAddressScalar);
builder.addScalarType('Hash', HashScalar);
builder.addScalarType('Hex', HexScalar);
builder.addScalarType('URL', URLScalar);
builder.addScalarType('IP', IPScalar);
builder.addScalarType('JSON', JSONResolver);
builder.addScalarType('JSONObject', JSONObjectResolver);

builder.queryType({ description: 'Everything chaingraph can read: primary-network data, EVM chains, ICM, exports and the configured nodes.' });
builder.mutationType({ description: 'Signature aggregation, transaction exports and node administration.' });
builder.subscriptionType({ description: 'Live updates, served over Server-Sent Events or WebSocket-free multipart.' });

/** The builder's schema types, for helpers that take a field builder (`ObjectFieldBuilder<BuilderTypes, Shape>`). */
export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
