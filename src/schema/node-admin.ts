import { builder } from './builder.ts';
import type { Context } from './context.ts';
import { badInput } from '../errors/graphql.ts';
import {
  ADMIN_METHOD_COST, aliasApi, aliasChain, chainAliases, dbGet, loadVms, loggerLevels, nodeConfig, runProfiler, setLoggerLevel,
  type DbGetResult, type NamedLoggerLevel,
} from '../loaders/node-admin.ts';
import { nodeName } from '../loaders/nodes.ts';
import { grammar, quoteValue, type Bound } from './bounds.ts';
import { NODE_BOUNDS } from './input-checks.ts';
import { AvalancheNodeRef, checkNodeArg, NodeVmRef, type AvalancheNodeShape } from './node.ts';

/**
 * The admin gate: scope-auth's `admin` scope (src/schema/builder.ts: the caller presented
 * `authorization: Bearer <ADMIN_TOKEN>`), checked before the resolver, so before
 * anything is sent to a node. A refusal is ADMIN_DISABLED when the gateway has no
 * token, FORBIDDEN otherwise (the builder's `unauthorizedError`).
 */
// Never kept by a shared cache: a GET selecting an admin field answers `Cache-Control: no-store` (src/gateway/plugins/use-cache-control.ts).
const ADMIN_ONLY = { authScopes: { admin: true }, extensions: { cacheControl: 'no-store' } } as const;

const ADMIN_READ_NOTE = ' Needs `authorization: Bearer <ADMIN_TOKEN>` (ADMIN_DISABLED when the gateway has no token, FORBIDDEN without it) and the node\'s admin API (NODE_METHOD_UNAVAILABLE when it is off).';

/**
 * The node's log levels, from most to least verbose (avalanchego's `utils/logging`;
 * DEBUG is more verbose than TRACE there). The seed gives levels as strings, so they
 * are served and taken as strings: exactly as the node answers them, and on input one
 * of these names in any case, as the node reads them (BAD_USER_INPUT otherwise,
 * before anything is sent).
 */
export const LOG_LEVELS = ['VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF'] as const;

const LOG_LEVEL_BOUND: Bound = {
  describe: `One of ${LOG_LEVELS.join(', ')} (most to least verbose; any case, as the node reads it).`,
  check(value, path) {
    if (typeof value !== 'string' || !(LOG_LEVELS as readonly string[]).includes(value.toUpperCase())) {
      throw badInput(path, `must be one of ${LOG_LEVELS.join(', ')}, received ${quoteValue(value)}`);
    }
  },
};

/**
 * A database key: 0x and an even number of hex digits (the node decodes whole bytes and
 * refuses an odd count), at most 1 KiB, far above the node's own keys (ids of 32 bytes
 * and short prefixes).
 */
const MAX_DB_KEY_BYTES = 1024;
const DB_KEY_BOUND: Bound = grammar(
  `0x and an even number of hex digits, at most ${MAX_DB_KEY_BYTES} bytes.`,
  '0x and whole bytes of hex',
  (value) => /^0x(?:[0-9a-fA-F]{2})*$/.test(value) && value.length <= 2 + 2 * MAX_DB_KEY_BYTES,
);

const DbGetStatusRef = builder.enumType('DatabaseLookupStatus', {
  description: "What admin.dbGet found (the node's `errorCode`).",
  values: {
    FOUND: { description: 'The key is present; `value` holds its bytes (errorCode 0).' },
    NOT_FOUND: { description: 'The key is absent (errorCode 2). The node answers this as a success.' },
    CLOSED: { description: 'The node\'s database is closed, e.g. while it shuts down (errorCode 1).' },
    UNKNOWN: { description: 'An errorCode this gateway does not know; see `errorCode`.' },
  } as const,
});

const DatabaseValueRef = builder.objectRef<DbGetResult>('DatabaseValue').implement({
  description: "One key of a node's database (admin.dbGet).",
  fields: (t) => ({
    key: t.field({ type: 'Hex', nullable: false, description: 'The key asked for, as given.', resolve: (r) => r.key }),
    status: t.field({ type: DbGetStatusRef, nullable: false, description: 'Found, not found, or the database closed.', resolve: (r) => r.status }),
    value: t.field({ type: 'Hex', nullable: true, description: "The value's bytes as 0x-hex when `status` is FOUND (`0x` for an empty value); null otherwise.", resolve: (r) => r.value }),
    errorCode: t.exposeInt('errorCode', { nullable: true, description: 'The node\'s raw errorCode: 0 none, 1 closed, 2 not found.' }),
  }),
});

const LoggerLevelRef = builder.objectRef<NamedLoggerLevel>('LoggerLevel').implement({
  description: 'Levels of one of the node\'s loggers (`main`, `vm-factory`, one per chain such as `P`, `X`, `C`).',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Logger name.' }),
    logLevel: t.string({ nullable: true, description: 'Level written to the log file, as the node gives it (e.g. `INFO`); null when it gave none.', resolve: (l) => l.logLevel ?? null }),
    displayLevel: t.string({ nullable: true, description: 'Level written to stdout, as the node gives it (e.g. `INFO`); null when it gave none.', resolve: (l) => l.displayLevel ?? null }),
  }),
});

/*
 * Admin reads are gated like the admin mutations: the admin API is the node operator's,
 * and a read of it (chain aliases, logger levels) tells a stranger how the node is set up
 * and still spends the node's admin endpoint. The info and health APIs stay public: a
 * node serves them to anyone by default, and the public RPC providers expose them too.
 */
builder.objectFields(AvalancheNodeRef, (t) => ({
  chainAliases: t.stringList({
    nullable: true,
    description: `Aliases of a chain on this node (admin.getChainAliases). Null when the node knows no chain with that id.${ADMIN_READ_NOTE}`,
    args: { chain: t.arg.string({ required: true, description: 'A blockchain id (the node does not take an alias here).', bound: NODE_BOUNDS.blockchainId }) },
    ...ADMIN_ONLY,
    upstreamCost: ADMIN_METHOD_COST,
    resolve: (n, args, ctx) => chainAliases(ctx, n.name, args.chain),
  }),
  loggerLevels: t.field({
    type: [LoggerLevelRef],
    nullable: true,
    description: `Levels of the node's loggers, sorted by name (admin.getLoggerLevel). Null when no logger has that name.${ADMIN_READ_NOTE}`,
    args: { loggerName: t.arg.string({ description: 'One logger (e.g. `main`, `C`); all loggers when omitted.', bound: NODE_BOUNDS.loggerName }) },
    ...ADMIN_ONLY,
    upstreamCost: ADMIN_METHOD_COST,
    resolve: (n, args, ctx) => loggerLevels(ctx, n.name, args.loggerName),
  }),
  config: t.field({
    type: 'JSONObject',
    nullable: true,
    description: `The node's whole configuration as it reports it (admin.getConfig): flags, network, HTTP, staking, database and chain settings. Its keys depend on the node's version, so it is served as an object.${ADMIN_READ_NOTE}`,
    ...ADMIN_ONLY,
    upstreamCost: ADMIN_METHOD_COST,
    resolve: (n, _args, ctx) => nodeConfig(ctx, n.name),
  }),
  databaseValue: t.field({
    type: DatabaseValueRef,
    nullable: true,
    description: `One key of the node's database (admin.dbGet): its value, or NOT_FOUND / CLOSED as a status rather than an error.${ADMIN_READ_NOTE}`,
    args: { key: t.arg({ type: 'Hex', required: true, description: 'The key\'s bytes as 0x-hex.', bound: DB_KEY_BOUND }) },
    ...ADMIN_ONLY,
    upstreamCost: ADMIN_METHOD_COST,
    resolve: (n, args, ctx) => dbGet(ctx, n.name, args.key),
  }),
}));

const NODE_FIELD = "A configured node's name (NODE_NOT_CONFIGURED for another); the first configured node when omitted.";

/** The `node` of an admin input: a configured node's name (NODE_NOT_CONFIGURED otherwise), before anything runs. */
const checkInputNode = (args: { input: { node?: string | null | undefined } }, ctx: Context): void => checkNodeArg('input.node', args.input.node, ctx);

/** Runs `action` on the input's node and returns its payload with the node. */
async function onNode<P extends object>(
  ctx: Context,
  input: { node?: string | null | undefined },
  action: (name: string) => Promise<P>,
): Promise<P & { avalancheNode: AvalancheNodeShape }> {
  const name = nodeName(ctx, input.node);
  return { ...(await action(name)), avalancheNode: { name } };
}

const avalancheNodeField = { nullable: false, description: 'The node the mutation ran on.' } as const;

// ---------------------------------------------------------------- adminAlias

const AdminAliasInput = builder.inputType('AdminAliasInput', {
  description: 'Arguments of admin.alias.',
  fields: (t) => ({
    node: t.string({ description: NODE_FIELD }),
    endpoint: t.string({ required: true, description: 'The API path after `/ext/`, e.g. `bc/X` or `info`.', bound: NODE_BOUNDS.apiPath }),
    alias: t.string({ required: true, description: 'The new path after `/ext/`.', bound: NODE_BOUNDS.apiPath }),
  }),
});

const AdminAliasPayload = builder
  .objectRef<{ avalancheNode: AvalancheNodeShape; endpoint: string; alias: string }>('AdminAliasPayload')
  .implement({
    description: 'Result of adminAlias: the API is also reachable at `/ext/<alias>` on that node.',
    fields: (t) => ({
      avalancheNode: t.field({ type: AvalancheNodeRef, ...avalancheNodeField, resolve: (p) => p.avalancheNode }),
      endpoint: t.exposeString('endpoint', { nullable: false, description: 'The aliased endpoint.' }),
      alias: t.exposeString('alias', { nullable: false, description: 'The new alias.' }),
      path: t.string({ nullable: false, description: 'The new path, `/ext/<alias>`.', resolve: (p) => `/ext/${p.alias}` }),
    }),
  });

// ---------------------------------------------------------------- adminAliasChain

const AdminAliasChainInput = builder.inputType('AdminAliasChainInput', {
  description: 'Arguments of admin.aliasChain.',
  fields: (t) => ({
    node: t.string({ description: NODE_FIELD }),
    chain: t.string({ required: true, description: 'The blockchain id (or an existing alias).', bound: NODE_BOUNDS.alias }),
    alias: t.string({ required: true, description: 'The new alias; usable wherever the chain id is.', bound: NODE_BOUNDS.alias }),
  }),
});

const AdminAliasChainPayload = builder
  .objectRef<{ avalancheNode: AvalancheNodeShape; chain: string; alias: string }>('AdminAliasChainPayload')
  .implement({
    description: 'Result of adminAliasChain.',
    fields: (t) => ({
      avalancheNode: t.field({ type: AvalancheNodeRef, ...avalancheNodeField, resolve: (p) => p.avalancheNode }),
      chain: t.exposeString('chain', { nullable: false, description: 'The aliased chain.' }),
      alias: t.exposeString('alias', { nullable: false, description: 'The new alias.' }),
    }),
  });

// ---------------------------------------------------------------- adminSetLoggerLevel

const AdminSetLoggerLevelInput = builder.inputType('AdminSetLoggerLevelInput', {
  description: 'Arguments of admin.setLoggerLevel: at least one of `logLevel` and `displayLevel`.',
  fields: (t) => ({
    node: t.string({ description: NODE_FIELD }),
    loggerName: t.string({ description: 'The logger to change; all loggers when omitted.', bound: NODE_BOUNDS.loggerName }),
    logLevel: t.string({ description: 'New level of the log file.', bound: LOG_LEVEL_BOUND }),
    displayLevel: t.string({ description: 'New level of stdout.', bound: LOG_LEVEL_BOUND }),
  }),
});

const AdminSetLoggerLevelPayload = builder
  .objectRef<{ avalancheNode: AvalancheNodeShape; loggerLevels: NamedLoggerLevel[] | null }>('AdminSetLoggerLevelPayload')
  .implement({
    description: 'Result of adminSetLoggerLevel.',
    fields: (t) => ({
      avalancheNode: t.field({ type: AvalancheNodeRef, ...avalancheNodeField, resolve: (p) => p.avalancheNode }),
      loggerLevels: t.field({
        type: [LoggerLevelRef],
        nullable: true,
        description: 'The loggers changed, with their new levels (null when the node does not report them).',
        resolve: (p) => p.loggerLevels,
      }),
    }),
  });

// ---------------------------------------------------------------- adminLoadVMs

const AdminNodeInput = (name: string, what: string) =>
  builder.inputType(name, {
    description: `Arguments of ${what}.`,
    fields: (t) => ({ node: t.string({ description: NODE_FIELD }) }),
  });

const FailedVmRef = builder.objectRef<{ vmId: string; error: string }>('FailedVm').implement({
  description: 'A plugin VM the node failed to load.',
  fields: (t) => ({
    vmId: t.exposeString('vmId', { nullable: false, description: 'VM id.' }),
    error: t.exposeString('error', { description: 'Why it failed.' }),
  }),
});

const AdminLoadVMsPayload = builder
  .objectRef<{ avalancheNode: AvalancheNodeShape; newVMs: { vmId: string; aliases: string[] }[]; failedVMs: { vmId: string; error: string }[] }>('AdminLoadVMsPayload')
  .implement({
    description: 'Result of adminLoadVMs.',
    fields: (t) => ({
      avalancheNode: t.field({ type: AvalancheNodeRef, ...avalancheNodeField, resolve: (p) => p.avalancheNode }),
      newVMs: t.field({ type: [NodeVmRef], description: 'VMs loaded by this call, with their aliases.', resolve: (p) => p.newVMs }),
      failedVMs: t.field({ type: [FailedVmRef], description: 'VMs that failed to load (empty when none failed).', resolve: (p) => p.failedVMs }),
    }),
  });

// ---------------------------------------------------------------- profilers

const profilerPayload = (name: string, description: string) =>
  builder.objectRef<{ avalancheNode: AvalancheNodeShape }>(name).implement({
    description,
    fields: (t) => ({ avalancheNode: t.field({ type: AvalancheNodeRef, ...avalancheNodeField, resolve: (p) => p.avalancheNode }) }),
  });

const PROFILERS = [
  {
    field: 'adminStartCPUProfiler',
    method: 'admin.startCPUProfiler',
    description: 'Starts CPU profiling on a node (admin.startCPUProfiler). NODE_RPC_ERROR when it is already running.',
    payload: 'The CPU profiler runs until adminStopCPUProfiler.',
  },
  {
    field: 'adminStopCPUProfiler',
    method: 'admin.stopCPUProfiler',
    description: "Stops CPU profiling and writes `cpu.profile` in the node's profile directory (admin.stopCPUProfiler). NODE_RPC_ERROR when none is running.",
    payload: 'The profile is written.',
  },
  {
    field: 'adminMemoryProfile',
    method: 'admin.memoryProfile',
    description: "Writes a memory profile, `mem.profile`, in the node's profile directory (admin.memoryProfile).",
    payload: 'The profile is written.',
  },
  {
    field: 'adminLockProfile',
    method: 'admin.lockProfile',
    description: "Writes mutex statistics, `lock.profile`, in the node's profile directory (admin.lockProfile).",
    payload: 'The profile is written.',
  },
  {
    field: 'adminStacktrace',
    method: 'admin.stacktrace',
    description: "Writes the stack of every goroutine, `stacktrace.txt`, in the node's working directory (admin.stacktrace).",
    payload: 'The stack trace is written.',
  },
] as const;

const ADMIN_NOTE = ' Needs `authorization: Bearer <ADMIN_TOKEN>` (ADMIN_DISABLED when the gateway has no token, FORBIDDEN without it) and the node\'s admin API (NODE_METHOD_UNAVAILABLE when it is off).';

builder.mutationFields((t) => ({
  adminAlias: t.field({
    type: AdminAliasPayload,
    nullable: false,
    description: `Makes an API of a node reachable under another path too (admin.alias).${ADMIN_NOTE}`,
    args: { input: t.arg({ type: AdminAliasInput, required: true, description: 'What to alias.' }) },
    ...ADMIN_ONLY,
    checkArgs: checkInputNode,
    upstreamCost: ADMIN_METHOD_COST,
    resolve: (_root, { input }, ctx) =>
      onNode(ctx, input, async (name) => {
        await aliasApi(ctx, name, input.endpoint, input.alias);
        return { endpoint: input.endpoint, alias: input.alias };
      }),
  }),
  adminAliasChain: t.field({
    type: AdminAliasChainPayload,
    nullable: false,
    description: `Gives a chain another alias on a node (admin.aliasChain).${ADMIN_NOTE}`,
    args: { input: t.arg({ type: AdminAliasChainInput, required: true, description: 'What to alias.' }) },
    ...ADMIN_ONLY,
    checkArgs: checkInputNode,
    upstreamCost: ADMIN_METHOD_COST,
    resolve: (_root, { input }, ctx) =>
      onNode(ctx, input, async (name) => {
        await aliasChain(ctx, name, input.chain, input.alias);
        return { chain: input.chain, alias: input.alias };
      }),
  }),
  adminSetLoggerLevel: t.field({
    type: AdminSetLoggerLevelPayload,
    nullable: false,
    description: `Changes the log and/or display level of one or all loggers of a node (admin.setLoggerLevel).${ADMIN_NOTE}`,
    args: { input: t.arg({ type: AdminSetLoggerLevelInput, required: true, description: 'Which logger and which levels.' }) },
    ...ADMIN_ONLY,
    checkArgs: (args, ctx) => {
      checkInputNode(args, ctx);
      if (args.input.logLevel == null && args.input.displayLevel == null) throw badInput('input', 'set logLevel, displayLevel or both');
    },
    upstreamCost: ADMIN_METHOD_COST,
    resolve: (_root, { input }, ctx) => onNode(ctx, input, async (name) => ({ loggerLevels: await setLoggerLevel(ctx, name, input) })),
  }),
  adminLoadVMs: t.field({
    type: AdminLoadVMsPayload,
    nullable: false,
    description: `Loads the VMs installed as plugins on a node (admin.loadVMs).${ADMIN_NOTE}`,
    args: { input: t.arg({ type: AdminNodeInput('AdminLoadVMsInput', 'admin.loadVMs'), required: true, description: 'Which node.' }) },
    ...ADMIN_ONLY,
    checkArgs: checkInputNode,
    upstreamCost: ADMIN_METHOD_COST,
    resolve: (_root, { input }, ctx) => onNode(ctx, input, (name) => loadVms(ctx, name)),
  }),
  ...Object.fromEntries(
    PROFILERS.map((p) => [
      p.field,
      t.field({
        type: profilerPayload(`${capitalize(p.field)}Payload`, `Result of ${p.field}. ${p.payload}`),
        nullable: false,
        description: `${p.description}${ADMIN_NOTE}`,
        args: { input: t.arg({ type: AdminNodeInput(`${capitalize(p.field)}Input`, p.method), required: true, description: 'Which node.' }) },
        ...ADMIN_ONLY,
        checkArgs: checkInputNode,
        upstreamCost: ADMIN_METHOD_COST,
        resolve: (_root, { input }, ctx) =>
          onNode(ctx, input, async (name) => {
            await runProfiler(ctx, name, p.method);
            return {};
          }),
      }),
    ]),
  ),
}));

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
