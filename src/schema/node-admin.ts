import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { badInput, codedError, ErrorCode } from '../errors.ts';
import { nodeRpc } from '../loaders/nodes.ts';
import type { LoggerLevel } from '../shapes/index.ts';
import { upstreamEnum } from './enums.ts';
import { checkAlias, checkApiPath, checkCb58Id, checkLoggerName, checkNodeName, INPUT_LIMITS } from './input-checks.ts';
import { AvalancheNodeRef, NODE_METHOD, NodeVmRef, nullWhenRpcSays, requireNode, type AvalancheNodeShape } from './node.ts';

/** The node's limit on `admin.alias` / `admin.aliasChain` aliases, in bytes (512 itself is allowed). */
export const MAX_ALIAS_BYTES = INPUT_LIMITS.aliasBytes;

const ADMIN_READ_NOTE = ' Needs `authorization: Bearer <ADMIN_TOKEN>` (ADMIN_DISABLED when the gateway has no token, FORBIDDEN without it) and the node\'s admin API (NODE_METHOD_UNAVAILABLE when it is off).';

export const LogLevel = upstreamEnum('LogLevel', 'A node log level, from most to least verbose: VERBO, DEBUG, TRACE, INFO, WARN, ERROR, FATAL, OFF.', {
  VERBO: { value: 'VERBO', description: 'Everything.' },
  DEBUG: { value: 'DEBUG', description: 'Debugging output (more verbose than TRACE on avalanchego).' },
  TRACE: { value: 'TRACE', description: 'Tracing output.' },
  INFO: { value: 'INFO', description: 'Normal operation (the default).' },
  WARN: { value: 'WARN', description: 'Warnings.' },
  ERROR: { value: 'ERROR', description: 'Errors.' },
  FATAL: { value: 'FATAL', description: 'Fatal errors only.' },
  OFF: { value: 'OFF', description: 'Nothing.' },
});

type LoggerLevelShape = LoggerLevel & { name: string };

const LoggerLevelRef = builder.objectRef<LoggerLevelShape>('LoggerLevel').implement({
  description: 'Levels of one of the node\'s loggers (`main`, `vm-factory`, one per chain such as `P`, `X`, `C`).',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Logger name.' }),
    logLevel: t.field({ type: LogLevel.ref, nullable: true, description: 'Level written to the log file.', resolve: (l) => LogLevel.out(l.logLevel?.toUpperCase()) }),
    displayLevel: t.field({ type: LogLevel.ref, nullable: true, description: 'Level written to stdout.', resolve: (l) => LogLevel.out(l.displayLevel?.toUpperCase()) }),
  }),
});

const loggerList = (levels: Record<string, LoggerLevel> | undefined | null): LoggerLevelShape[] =>
  Object.entries(levels ?? {}).map(([name, level]) => ({ ...level, name })).sort((a, b) => (a.name < b.name ? -1 : 1));

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
    args: { chain: t.arg.string({ required: true, description: 'A blockchain id (cb58; the node does not take an alias here).' }) },
    extensions: { validateArgs: (args) => checkCb58Id('chain', args['chain'], 'a blockchain id (cb58 of 32 bytes)'), cost: NODE_METHOD },
    resolve: async (n, args, ctx) => {
      requireAdmin(ctx);
      return (await nodeRpc(ctx, requireNode(ctx, n.name), 'admin.getChainAliases', { chain: args.chain })).aliases ?? null;
    },
  }),
  loggerLevels: t.field({
    type: [LoggerLevelRef],
    nullable: true,
    description: `Levels of the node's loggers, sorted by name (admin.getLoggerLevel). Null when no logger has that name.${ADMIN_READ_NOTE}`,
    args: { loggerName: t.arg.string({ description: `One logger (e.g. \`main\`, \`C\`; at most ${INPUT_LIMITS.nameLength} characters); all loggers when omitted.` }) },
    extensions: { validateArgs: (args) => checkLoggerName('loggerName', args['loggerName']), cost: NODE_METHOD },
    resolve: async (n, args, ctx) => {
      requireAdmin(ctx);
      const params = args.loggerName ? { loggerName: args.loggerName } : {};
      const result = await nullWhenRpcSays(nodeRpc(ctx, requireNode(ctx, n.name), 'admin.getLoggerLevel', params), /logger with name .* not found/i);
      return result ? loggerList(result.loggerLevels) : null;
    },
  }),
}));

/**
 * Admin calls (the mutations and the admin reads) exist only when the gateway has an
 * ADMIN_TOKEN, and only for callers presenting it. Checked before anything is sent to a node.
 */
export function requireAdmin(ctx: Context): void {
  if (!ctx.adminConfigured) throw codedError(ErrorCode.ADMIN_DISABLED, 'Admin calls are disabled: the gateway has no ADMIN_TOKEN');
  if (!ctx.isAdmin) throw codedError(ErrorCode.FORBIDDEN, 'Admin calls need the header `authorization: Bearer <ADMIN_TOKEN>`');
}


const NODE_FIELD = "A configured node's name (NODE_NOT_CONFIGURED for another); the first configured node when omitted.";

interface NodeInput {
  node?: string | null;
}

/** Authorizes, then runs `action` on the input's node and returns its payload with the node. */
async function adminCall<I extends NodeInput, P extends object>(
  ctx: Context,
  input: I,
  action: (node: ReturnType<typeof requireNode>) => Promise<P>,
): Promise<P & { avalancheNode: AvalancheNodeShape }> {
  requireAdmin(ctx);
  const node = requireNode(ctx, input.node);
  const payload = await action(node);
  return { ...payload, avalancheNode: { name: node.name } };
}

const inputOf = (args: Record<string, unknown>): Record<string, unknown> => (args['input'] ?? {}) as Record<string, unknown>;

/** The `node` of an admin input: a configured node's name (NODE_NOT_CONFIGURED otherwise), before anything runs. */
const checkInputNode = (args: Record<string, unknown>, ctx: Context): void => checkNodeName('input.node', inputOf(args)['node'], ctx.nodes);

function checkAliasInput(input: Record<string, unknown>): void {
  checkApiPath('input.endpoint', input['endpoint']);
  checkApiPath('input.alias', input['alias']);
}

function checkAliasChainInput(input: Record<string, unknown>): void {
  checkAlias('input.chain', input['chain']);
  checkAlias('input.alias', input['alias']);
}

const avalancheNodeField = { nullable: false, description: 'The node the mutation ran on.' } as const;

// ---------------------------------------------------------------- adminAlias

const AdminAliasInput = builder.inputType('AdminAliasInput', {
  description: 'Arguments of admin.alias.',
  fields: (t) => ({
    node: t.string({ description: NODE_FIELD }),
    endpoint: t.string({ required: true, description: 'The API path after `/ext/`, e.g. `bc/X` or `info` (no empty, `.` or `..` segments).' }),
    alias: t.string({ required: true, description: `The new path after \`/ext/\`, at most ${MAX_ALIAS_BYTES} bytes, without whitespace or \`.\`/\`..\` segments.` }),
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
    chain: t.string({ required: true, description: `The blockchain id (or an existing alias), at most ${MAX_ALIAS_BYTES} bytes.` }),
    alias: t.string({ required: true, description: `The new alias, at most ${MAX_ALIAS_BYTES} bytes; usable wherever the chain id is.` }),
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
    loggerName: t.string({ description: `The logger to change (at most ${INPUT_LIMITS.nameLength} characters); all loggers when omitted.` }),
    logLevel: t.field({ type: LogLevel.ref, description: 'New level of the log file.' }),
    displayLevel: t.field({ type: LogLevel.ref, description: 'New level of stdout.' }),
  }),
});

const AdminSetLoggerLevelPayload = builder
  .objectRef<{ avalancheNode: AvalancheNodeShape; loggerLevels: LoggerLevelShape[] | null }>('AdminSetLoggerLevelPayload')
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
    error: t.exposeString('error', { nullable: false, description: 'Why it failed.' }),
  }),
});

const AdminLoadVMsPayload = builder
  .objectRef<{ avalancheNode: AvalancheNodeShape; newVMs: { vmId: string; aliases: string[] }[]; failedVMs: { vmId: string; error: string }[] }>('AdminLoadVMsPayload')
  .implement({
    description: 'Result of adminLoadVMs.',
    fields: (t) => ({
      avalancheNode: t.field({ type: AvalancheNodeRef, ...avalancheNodeField, resolve: (p) => p.avalancheNode }),
      newVMs: t.field({ type: [NodeVmRef], nullable: false, description: 'VMs loaded by this call, with their aliases.', resolve: (p) => p.newVMs }),
      failedVMs: t.field({ type: [FailedVmRef], nullable: false, description: 'VMs that failed to load (empty when none failed).', resolve: (p) => p.failedVMs }),
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
] as const;

const ADMIN_NOTE = ' Needs `authorization: Bearer <ADMIN_TOKEN>` (ADMIN_DISABLED when the gateway has no token, FORBIDDEN without it) and the node\'s admin API (NODE_METHOD_UNAVAILABLE when it is off).';

builder.mutationFields((t) => ({
  adminAlias: t.field({
    type: AdminAliasPayload,
    nullable: false,
    description: `Makes an API of a node reachable under another path too (admin.alias).${ADMIN_NOTE}`,
    args: { input: t.arg({ type: AdminAliasInput, required: true, description: 'What to alias.' }) },
    extensions: {
      validateArgs: (args, ctx) => {
        checkInputNode(args, ctx);
        checkAliasInput(inputOf(args));
      },
      cost: NODE_METHOD,
    },
    resolve: (_root, { input }, ctx) => {
      checkAliasInput(input);
      return adminCall(ctx, input, async (node) => {
        await node.call('admin.alias', { endpoint: input.endpoint, alias: input.alias }, ctx.call);
        return { endpoint: input.endpoint, alias: input.alias };
      });
    },
  }),
  adminAliasChain: t.field({
    type: AdminAliasChainPayload,
    nullable: false,
    description: `Gives a chain another alias on a node (admin.aliasChain).${ADMIN_NOTE}`,
    args: { input: t.arg({ type: AdminAliasChainInput, required: true, description: 'What to alias.' }) },
    extensions: {
      validateArgs: (args, ctx) => {
        checkInputNode(args, ctx);
        checkAliasChainInput(inputOf(args));
      },
      cost: NODE_METHOD,
    },
    resolve: (_root, { input }, ctx) => {
      checkAliasChainInput(input);
      return adminCall(ctx, input, async (node) => {
        await node.call('admin.aliasChain', { chain: input.chain, alias: input.alias }, ctx.call);
        return { chain: input.chain, alias: input.alias };
      });
    },
  }),
  adminSetLoggerLevel: t.field({
    type: AdminSetLoggerLevelPayload,
    nullable: false,
    description: `Changes the log and/or display level of one or all loggers of a node (admin.setLoggerLevel).${ADMIN_NOTE}`,
    args: { input: t.arg({ type: AdminSetLoggerLevelInput, required: true, description: 'Which logger and which levels.' }) },
    extensions: {
      validateArgs: (args, ctx) => {
        checkInputNode(args, ctx);
        checkLoggerInput(inputOf(args));
      },
      cost: NODE_METHOD,
    },
    resolve: (_root, { input }, ctx) => {
      checkLoggerInput(input);
      return adminCall(ctx, input, async (node) => {
        const result = await node.call(
          'admin.setLoggerLevel',
          {
            ...(input.loggerName ? { loggerName: input.loggerName } : {}),
            ...(input.logLevel ? { logLevel: String(input.logLevel) } : {}),
            ...(input.displayLevel ? { displayLevel: String(input.displayLevel) } : {}),
          },
          ctx.call,
        );
        return { loggerLevels: result?.loggerLevels ? loggerList(result.loggerLevels) : null };
      });
    },
  }),
  adminLoadVMs: t.field({
    type: AdminLoadVMsPayload,
    nullable: false,
    description: `Loads the VMs installed as plugins on a node (admin.loadVMs).${ADMIN_NOTE}`,
    args: { input: t.arg({ type: AdminNodeInput('AdminLoadVMsInput', 'admin.loadVMs'), required: true, description: 'Which node.' }) },
    extensions: { validateArgs: checkInputNode, cost: NODE_METHOD },
    resolve: (_root, { input }, ctx) =>
      adminCall(ctx, input, async (node) => {
        const result = await node.call('admin.loadVMs', {}, ctx.call);
        return {
          newVMs: Object.entries(result.newVMs ?? {}).map(([vmId, aliases]) => ({ vmId, aliases: aliases ?? [] })),
          failedVMs: Object.entries(result.failedVMs ?? {}).map(([vmId, error]) => ({ vmId, error: String(error) })),
        };
      }),
  }),
  ...Object.fromEntries(
    PROFILERS.map((p) => [
      p.field,
      t.field({
        type: profilerPayload(`${capitalize(p.field)}Payload`, `Result of ${p.field}. ${p.payload}`),
        nullable: false,
        description: `${p.description}${ADMIN_NOTE}`,
        args: { input: t.arg({ type: AdminNodeInput(`${capitalize(p.field)}Input`, p.method), required: true, description: 'Which node.' }) },
        extensions: { validateArgs: checkInputNode, cost: NODE_METHOD },
        resolve: (_root, { input }, ctx) =>
          adminCall(ctx, input, async (node) => {
            await node.call(p.method, {}, ctx.call);
            return {};
          }),
      }),
    ]),
  ),
}));

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function checkLoggerInput(input: Record<string, unknown>): void {
  checkLoggerName('input.loggerName', input['loggerName']);
  LogLevel.checkInput('input.logLevel', input['logLevel']);
  LogLevel.checkInput('input.displayLevel', input['displayLevel']);
  if (input['logLevel'] == null && input['displayLevel'] == null) throw badInput('input', 'set logLevel, displayLevel or both');
}
