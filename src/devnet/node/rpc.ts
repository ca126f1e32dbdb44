// The JSON-RPC vocabulary the transport and the services share: the error the
// node writes, method specs with the kinds of their params, and the log levels
// the `level` kind accepts. It sits apart from transport.ts so that services and
// id parsing can throw an RpcError without depending on the HTTP layer.

/** A JSON-RPC error as gorilla/json2 writes it. */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number = -32000,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export const LOG_LEVELS = ['VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The services the node mounts under `/ext`. */
export type ServiceName = 'info' | 'admin' | 'health';

/** How a param is checked while decoding, as the Go type of its field would check it. */
export type ParamKind = 'string' | 'strings' | 'nodeIDs' | 'level' | 'id';
export type Args = Record<string, unknown>;

export interface RpcMethod {
  params: Record<string, ParamKind>;
  call(args: Args): unknown;
}

/** A service's methods by Go name (`GetNodeID`), the name gorilla looks up. */
export type RpcService = Record<string, RpcMethod>;

export const method = (params: Record<string, ParamKind>, call: (args: Args) => unknown): RpcMethod => ({ params, call });

/** A string param, or Go's zero value when it was absent. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
