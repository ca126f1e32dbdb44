import { GraphQLError, isLeafType, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { ErrorCode, UNSERVABLE_MESSAGE, unservableMessage } from '../../errors/graphql.ts';
import { useResultErrors } from './result-errors.ts';

/**
 * What a scalar's or an enum's serializer says when it refuses a value, by executor. Each names the type
 * first, and only the message survives:
 * - graphql-js's scalars and enums, and this schema's own: `Int cannot represent non 32-bit signed integer
 *   value: 2147483648`, `Enum "X" cannot represent value: ...`, `UInt64 cannot represent "-1": ...`;
 *   graphql-tools' executor (yoga's) rethrows a serializer's GraphQLError as `new Error(message)` so
 *   that it is masked, and graphql-jit keeps nothing but the message;
 * - graphql-tools, for a serializer that returns null: ``Expected `Int.serialize(...)` to return ...``;
 * - graphql-jit, for one that returns undefined or NaN: `Expected a value of type "Int" but received: ...`;
 * - this schema's scalars, whose refusal is already this plugin's own words (`unservableMessage`), coded
 *   by graphql-js's executor but not by the other two.
 */
const SERIALIZER_REFUSAL = /^(?:Enum "(\w+)" cannot represent |(\w+) cannot (?:represent|be serialized)|Expected `(\w+)\.serialize\(|Expected a value of type "(\w+)" but received)/;

/**
 * A value a field cannot serve (an `Int` beyond 32 bits, a negative `UInt256`, an enum value the schema
 * does not know) answers UPSTREAM_PROTOCOL_ERROR on that field: the value is the upstream's (every output
 * is upstream data, read through the shapes, which already refuse what they can name). Never the
 * serializer's message, which quotes the value, and never a masked INTERNAL_SERVER_ERROR with a stack
 * trace in the log: the line logged is a warning with the type and the path, through the request's logger.
 *
 * The same for both executors (graphql-tools' and the compiled one, `use-compiled-execution.ts`),
 * subscription events and the later payloads of `@defer`/`@stream`. Registered before yoga's masking,
 * like every user plugin.
 */
export function useUnservableValues(): Plugin {
  const refusedType = (schema: GraphQLSchema, error: GraphQLError): string | undefined => {
    // A serializer's refusal carries no code and no original error but a plain Error (never an upstream error).
    if (error.extensions['code'] !== undefined) return undefined;
    const original = error.originalError;
    if (original !== undefined && original.constructor !== Error) return undefined;
    const message = (original ?? error).message;
    const match = UNSERVABLE_MESSAGE.exec(message) ?? SERIALIZER_REFUSAL.exec(message);
    const name = match?.slice(1).find((group) => group !== undefined);
    return name !== undefined && isLeafType(schema.getType(name)) ? name : undefined;
  };
  const mapErrors = (schema: GraphQLSchema, errors: readonly GraphQLError[], log: Logger | undefined): GraphQLError[] | undefined => {
    let mapped: GraphQLError[] | undefined;
    errors.forEach((error, i) => {
      const type = refusedType(schema, error);
      if (type === undefined) return;
      log?.warn({ type, path: error.path }, 'an upstream value the schema cannot serve');
      mapped ??= [...errors];
      mapped[i] = new GraphQLError(unservableMessage(type), {
        nodes: error.nodes,
        path: error.path,
        extensions: { code: ErrorCode.UPSTREAM_PROTOCOL_ERROR, type },
      });
    });
    return mapped;
  };
  return useResultErrors((schema, context) => (errors) => mapErrors(schema, errors, (context as { log?: Logger } | undefined)?.log));
}
