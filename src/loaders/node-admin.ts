import type { FieldCost } from '../lib/cost.ts';
import type { LoggerLevel, NodeRpcMethod, NodeRpcMethods } from '../shapes/index.ts';
import { withFields } from '../shapes/index.ts';
import { clientOf, NODE_METHOD_COST, nodeRpc, nodeRpcOrNull } from './nodes.ts';
import type { LoaderContext } from './registry.ts';

/**
 * The node's admin API. Reads (chain aliases, logger levels) share the per-request
 * cache of `nodeRpc`; changes are sent as they are asked, never cached. Who may call
 * them is the schema's gate (scope-auth's `admin` scope), checked before any of these run.
 */

/** A logger and its levels, as the schema lists them (sorted by name). */
export type NamedLoggerLevel = LoggerLevel & { name: string };

const loggerList = (levels: Record<string, LoggerLevel> | undefined | null): NamedLoggerLevel[] =>
  Object.entries(levels ?? {}).map(([name, level]) => withFields(level, { name })).sort((a, b) => (a.name < b.name ? -1 : 1));

/** Aliases of a chain (admin.getChainAliases); null when the node knows no chain with that id. */
export async function chainAliases(ctx: LoaderContext, name: string, chain: string): Promise<string[] | null> {
  return (await nodeRpc(ctx, name, 'admin.getChainAliases', { chain })).aliases ?? null;
}

/** Levels of every logger, or of `loggerName` (admin.getLoggerLevel); null when no logger has that name. */
export async function loggerLevels(ctx: LoaderContext, name: string, loggerName?: string | null): Promise<NamedLoggerLevel[] | null> {
  const params = loggerName ? { loggerName } : {};
  const result = await nodeRpcOrNull(ctx, name, 'admin.getLoggerLevel', params, /logger with name .* not found/i);
  return result ? loggerList(result.loggerLevels) : null;
}

/** One admin change on the node `name`: sent once, as asked (never through the per-request cache). */
function adminCall<M extends NodeRpcMethod>(ctx: LoaderContext, name: string, method: M, params: NodeRpcMethods[M]['params']): Promise<NodeRpcMethods[M]['result']> {
  return clientOf(ctx, name).call(method, params, ctx.call);
}

/** admin.alias: the API at `/ext/<endpoint>` is also served at `/ext/<alias>`. */
export async function aliasApi(ctx: LoaderContext, name: string, endpoint: string, alias: string): Promise<void> {
  await adminCall(ctx, name, 'admin.alias', { endpoint, alias });
}

/** admin.aliasChain: `alias` names the chain wherever its id is taken. */
export async function aliasChain(ctx: LoaderContext, name: string, chain: string, alias: string): Promise<void> {
  await adminCall(ctx, name, 'admin.aliasChain', { chain, alias });
}

/** What admin.setLoggerLevel changes: one logger (all when omitted), at least one of the two levels. */
export interface LoggerLevelChange {
  loggerName?: string | null | undefined;
  logLevel?: string | null | undefined;
  displayLevel?: string | null | undefined;
}

/** admin.setLoggerLevel; the loggers changed with their new levels (null when the node does not report them). */
export async function setLoggerLevel(ctx: LoaderContext, name: string, change: LoggerLevelChange): Promise<NamedLoggerLevel[] | null> {
  const result = await adminCall(ctx, name, 'admin.setLoggerLevel', {
    ...(change.loggerName ? { loggerName: change.loggerName } : {}),
    ...(change.logLevel ? { logLevel: change.logLevel } : {}),
    ...(change.displayLevel ? { displayLevel: change.displayLevel } : {}),
  });
  return result?.loggerLevels ? loggerList(result.loggerLevels) : null;
}

/** admin.loadVMs: the VMs this call loaded (with their aliases) and those that failed. */
export async function loadVms(
  ctx: LoaderContext,
  name: string,
): Promise<{ newVMs: { vmId: string; aliases: string[] }[]; failedVMs: { vmId: string; error: string }[] }> {
  const result = await adminCall(ctx, name, 'admin.loadVMs', {});
  return {
    newVMs: Object.entries(result.newVMs ?? {}).map(([vmId, aliases]) => ({ vmId, aliases: aliases ?? [] })),
    failedVMs: Object.entries(result.failedVMs ?? {}).map(([vmId, error]) => ({ vmId, error: String(error) })),
  };
}

/** The admin methods without params or answer: the profilers and the stack trace (each writes a file on the node). */
export type ProfilerMethod = 'admin.startCPUProfiler' | 'admin.stopCPUProfiler' | 'admin.memoryProfile' | 'admin.lockProfile' | 'admin.stacktrace';

/** Runs a profiler method on the node `name`. */
export async function runProfiler(ctx: LoaderContext, name: string, method: ProfilerMethod): Promise<void> {
  await adminCall(ctx, name, method, {});
}

/** admin.getConfig: the node's configuration as it reports it (its structure is the node version's own). */
export async function nodeConfig(ctx: LoaderContext, name: string): Promise<Record<string, unknown>> {
  return nodeRpc(ctx, name, 'admin.getConfig', {});
}

/** What admin.dbGet found: the node's `errorCode` (0, 1, 2) as a status a caller can switch on. */
export type DbGetStatus = 'FOUND' | 'NOT_FOUND' | 'CLOSED' | 'UNKNOWN';

/** The node's `errorCode` of admin.dbGet (rpcdb's Error enum): 0 none, 1 the database is closed, 2 the key is absent. */
const DB_GET_STATUSES: Readonly<Record<number, DbGetStatus>> = { 0: 'FOUND', 1: 'CLOSED', 2: 'NOT_FOUND' };

export interface DbGetResult {
  key: string;
  status: DbGetStatus;
  /** The value's bytes as 0x-hex when found; null otherwise. */
  value: string | null;
  errorCode: number;
}

/**
 * admin.dbGet: one key of the node's database. Not-found and closed are answers
 * (the node's success with an errorCode), not errors, so they are statuses here.
 */
export async function dbGet(ctx: LoaderContext, name: string, key: string): Promise<DbGetResult> {
  const result = await nodeRpc(ctx, name, 'admin.dbGet', { key: key.toLowerCase() });
  const status = DB_GET_STATUSES[result.errorCode] ?? 'UNKNOWN';
  return { key, status, errorCode: result.errorCode, value: status === 'FOUND' ? (result.value || '0x') : null };
}

/** Each admin read or change is one call to its node. */
export const ADMIN_METHOD_COST: FieldCost = NODE_METHOD_COST;
