import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../schema/context.ts';

/** What a document's operations leave out of each upstream answer (`src/schema/projection.ts`). */
export interface DocumentProjection {
  readonly omitFor: (operation: string) => ReadonlySet<string> | undefined;
  /** Parts left out in all: 0 when the document reads every answer whole. */
  readonly omitted: number;
}

/**
 * Tells the request's upstream calls what its operation never reads: the projection of the
 * executed document (`projectionOf`, planned once per document) becomes the calls' `omit`, so the
 * readers leave those parts of the answers out and the request holds only what its fields use.
 */
export function useProjection(projectionOf: (schema: GraphQLSchema, document: DocumentNode) => DocumentProjection): Plugin {
  return {
    onExecute({ args }) {
      const call = (args.contextValue as Partial<Context> | undefined)?.call;
      if (!call) return;
      const projection = projectionOf(args.schema, args.document);
      if (projection.omitted > 0) call.omit = projection.omitFor;
    },
  };
}
