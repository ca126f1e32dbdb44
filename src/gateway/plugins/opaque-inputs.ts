import { getNamedType, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { FieldCheck } from './use-input-validation.ts';

/** Options of {@link opaqueInputChecks}. */
export interface OpaqueInputsOptions {
  /** Authenticates one cursor; throws a GraphQL error (BAD_USER_INPUT naming `after`) when it is not one of ours. */
  verifyCursor: (cursor: string) => void;
  /**
   * Checks the representations of federation's `_entities` (grammar of every global
   * id and natural key); throws a GraphQL error naming `representations`.
   */
  checkRepresentations?: (schema: GraphQLSchema, representations: unknown) => void;
}

/**
 * Checks of the opaque values a client hands back, run by `useInputValidation`
 * before execution starts, so a forged or damaged one fails the request with
 * BAD_USER_INPUT before any upstream call, wherever it sits in the document:
 *
 * - every `after` of a connection field (a field returning a `...Connection` type)
 *   must be a cursor this gateway signed (HMAC, see `src/schema/pagination.ts`).
 *   They apply to every connection by its shape, so no field can forget them, and
 *   the secret is the gateway's, not a module's;
 * - `_entities(representations:)`, which federation builds outside our schema
 *   modules, gets the same id grammar as `node(id:)`.
 */
export function opaqueInputChecks(schema: GraphQLSchema, options: OpaqueInputsOptions): FieldCheck {
  return (field: GraphQLField<unknown, unknown>, args: Record<string, unknown>) => {
    const after = args['after'];
    // An empty `after` means "from the start", as in the resolvers.
    if (typeof after === 'string' && after !== '' && getNamedType(field.type).name.endsWith('Connection')) options.verifyCursor(after);
    if (field.name === '_entities' && options.checkRepresentations) options.checkRepresentations(schema, args['representations']);
  };
}
