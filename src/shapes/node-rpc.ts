/**
 * The Node JSON-RPC API (`shared/seeds/node-json-rpc-api.md`): the result of every
 * admin, info and health method, the health report the GET endpoints answer, and
 * the JSON-RPC envelope.
 *
 * The node serializes some numbers as decimal strings (`json.Uint32`, `json.Float64`:
 * `networkID`, `numPeers`, `observedUptime`, the uptime percentages); they are read
 * as numbers. 64-bit weights and fees stay decimal strings.
 */
import * as v from 'valibot';
import { isObject, perKit, READ, type Kit, type Leaf } from './kit.ts';

/** Health check names the node seed saw. */
export const HEALTH_CHECK_NAMES = ['C', 'P', 'X', 'bootstrapped', 'database', 'diskspace', 'network', 'router'] as const;

/** A node answers `peers: null` when it has none; read as an empty list. */
function peersOrEmpty(raw: unknown): unknown {
  if (isObject(raw) && (raw.peers === null || raw.peers === undefined)) raw.peers = [];
  return raw;
}

export const describeNode = perKit((k: Kit) => {
  const nodeId = k.pattern(/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/, 'NodeID-<cb58>');

  const LoggerLevel = v.object({ logLevel: k.mayBeAbsent(k.string), displayLevel: k.mayBeAbsent(k.string) });

  const Peer = v.object({
    ip: k.string,
    publicIP: k.string,
    nodeID: nodeId,
    version: k.string,
    lastSent: k.string,
    lastReceived: k.string,
    benched: v.array(k.string),
    observedUptime: k.nodeInteger,
    trackedSubnets: v.array(k.string),
    upgradeTime: v.optional(k.wideInteger),
    supportedACPs: v.optional(v.array(k.int32)),
    objectedACPs: v.optional(v.array(k.int32)),
  });

  /** uint64 weights as decimal strings; sets as arrays. */
  const AcpPreference = v.object({
    supportWeight: k.decimal,
    supporters: v.array(nodeId),
    objectWeight: k.decimal,
    objectors: v.array(nodeId),
    abstainWeight: k.decimal,
  });

  const TxFees = v.object({
    txFee: k.decimal,
    createAssetTxFee: k.decimal,
    createSubnetTxFee: k.decimal,
    transformSubnetTxFee: k.decimal,
    createBlockchainTxFee: k.decimal,
    addPrimaryNetworkValidatorFee: k.decimal,
    addPrimaryNetworkDelegatorFee: k.decimal,
    addSubnetValidatorFee: k.decimal,
    addSubnetDelegatorFee: k.decimal,
  });

  const Upgrades = v.object({
    apricotPhase1Time: k.isoTime,
    apricotPhase2Time: k.isoTime,
    apricotPhase3Time: k.isoTime,
    apricotPhase4Time: k.isoTime,
    apricotPhase4MinPChainHeight: k.wideInteger256,
    apricotPhase5Time: k.isoTime,
    apricotPhasePre6Time: k.isoTime,
    apricotPhase6Time: k.isoTime,
    apricotPhasePost6Time: k.isoTime,
    banffTime: k.isoTime,
    cortinaTime: k.isoTime,
    cortinaXChainStopVertexID: k.string,
    durangoTime: k.isoTime,
    etnaTime: k.isoTime,
    fortunaTime: k.isoTime,
    graniteTime: k.isoTime,
    graniteEpochDuration: v.optional(k.wideInteger256),
    heliconTime: v.optional(k.isoTime),
  });

  /** `contiguousFailures` and `timeOfFirstFailure` describe failures: failing checks (with an `error`) carry them. */
  const HealthCheckResult = v.object({
    message: v.optional(k.unknown),
    error: v.optional(k.unknown),
    timestamp: k.string,
    duration: k.integer,
    contiguousFailures: v.optional(k.int32),
    timeOfFirstFailure: v.optional(k.string),
  });

  const HealthReport = v.object({ checks: v.record(v.string(), HealthCheckResult), healthy: k.boolean });

  /** What the seed's health checks report in `message` (values of any type; the keys are the seed's). */
  const HealthCheckMessages = {
    chain: v.object({
      engine: v.object({
        consensus: v.object({
          lastAcceptedHeight: k.unknown,
          lastAcceptedID: k.unknown,
          longestProcessingBlock: k.unknown,
          processingBlocks: k.unknown,
        }),
        vm: k.unknown,
      }),
      networking: v.object({ percentConnected: k.unknown }),
    }),
    diskspace: v.object({ availableDiskBytes: k.unknown }),
    network: v.object({
      connectedPeers: k.unknown,
      sendFailRate: k.unknown,
      timeSinceLastMsgReceived: k.unknown,
      timeSinceLastMsgSent: k.unknown,
    }),
    router: v.object({ longestRunningRequest: k.unknown, outstandingRequests: k.unknown }),
  };

  /** The envelope of a successful JSON-RPC 2.0 answer. */
  const JsonRpcResponse = v.object({
    jsonrpc: k.openEnum(['2.0']),
    id: k.integer,
    result: v.record(v.string(), v.unknown()),
  });

  return { LoggerLevel, Peer, AcpPreference, TxFees, Upgrades, HealthCheckResult, HealthReport, HealthCheckMessages, JsonRpcResponse };
});

const empty = v.object({});

/** The result of every JSON-RPC method of the node seed. */
export const describeNodeResults = perKit((k: Kit) => {
  const { LoggerLevel, Peer, AcpPreference, TxFees, Upgrades, HealthReport } = describeNode(k);
  const loggerLevels = v.record(v.string(), LoggerLevel);
  return {
    'admin.alias': empty,
    'admin.aliasChain': empty,
    'admin.getChainAliases': v.object({ aliases: k.readAlso(v.array(k.string), v.null()) }),
    'admin.getLoggerLevel': v.object({ loggerLevels }),
    'admin.loadVMs': v.object({ newVMs: v.record(v.string(), v.array(k.string)), failedVMs: v.optional(v.record(v.string(), k.string)) }),
    'admin.lockProfile': empty,
    'admin.memoryProfile': empty,
    'admin.setLoggerLevel': v.object({ loggerLevels: v.optional(loggerLevels) }),
    'admin.startCPUProfiler': empty,
    'admin.stopCPUProfiler': empty,
    /** The node's whole configuration; its structure is the node version's own (no fixed schema), so it is kept as an object. */
    'admin.getConfig': v.record(v.string(), k.unknown),
    'admin.stacktrace': empty,
    /** `value` 0x-hex (empty when absent); `errorCode` 0 found, 1 database closed, 2 not found: a not-found key is a success. */
    'admin.dbGet': v.object({ value: k.mayBeAbsent(k.string), errorCode: k.int32 }),
    'info.acps': v.object({ acps: v.record(k.key(/^\d+$/, 'an ACP number'), AcpPreference) }),
    'info.isBootstrapped': v.object({ isBootstrapped: k.boolean }),
    'info.getBlockchainID': v.object({ blockchainID: k.string }),
    'info.getNetworkID': v.object({ networkID: k.nodeInteger }),
    'info.getNetworkName': v.object({ networkName: k.string }),
    'info.getNodeID': v.object({
      nodeID: k.pattern(/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/, 'NodeID-<cb58>'),
      nodePOP: v.object({
        publicKey: k.pattern(/^0x[0-9a-f]{96}$/, 'a 48-byte 0x-hex BLS public key'),
        proofOfPossession: k.pattern(/^0x[0-9a-f]{192}$/, 'a 96-byte 0x-hex BLS signature'),
      }),
    }),
    'info.getNodeIP': v.object({ ip: k.pattern(/^(\[[0-9a-fA-F:.]+\]|[0-9.]+|[A-Za-z0-9.-]+):\d+$/, 'host:port') }),
    'info.getNodeVersion': v.object({
      version: k.string,
      databaseVersion: k.string,
      gitCommit: k.string,
      vmVersions: v.record(v.string(), k.string),
      rpcProtocolVersion: k.string,
    }),
    'info.getTxFee': TxFees,
    'info.getVMs': v.object({ vms: v.record(v.string(), v.array(k.string)), fxs: v.optional(v.record(v.string(), k.string)) }),
    /** `numPeers` is a 64-bit count, a decimal string on the wire. */
    'info.peers': k.variant(peersOrEmpty, v.object({ numPeers: k.nodeInteger, peers: v.array(Peer) })),
    'info.uptime': v.object({ rewardingStakePercentage: k.nodeFloat, weightedAveragePercentage: k.nodeFloat }),
    'info.upgrades': Upgrades,
    'health.health': HealthReport,
    'health.readiness': HealthReport,
    'health.liveness': HealthReport,
  };
});

type NodeShapes = ReturnType<typeof describeNode>;
type Results = ReturnType<typeof describeNodeResults>;
type Result<M extends keyof Results> = v.InferOutput<Results[M]>;

export type LoggerLevel = v.InferOutput<NodeShapes['LoggerLevel']>;
/** `observedUptime` is read as a number (the node sends a decimal string). */
export type Peer = v.InferOutput<NodeShapes['Peer']>;
export type AcpPreference = v.InferOutput<NodeShapes['AcpPreference']>;
export type TxFees = v.InferOutput<NodeShapes['TxFees']>;
export type Upgrades = v.InferOutput<NodeShapes['Upgrades']>;
export type HealthCheckResult = v.InferOutput<NodeShapes['HealthCheckResult']>;
export type HealthReport = v.InferOutput<NodeShapes['HealthReport']>;

type NoParams = Record<string, never>;

/** Every JSON-RPC method of the node seed: its params, and its result as the client returns it. */
export interface NodeRpcMethods {
  'admin.alias': { params: { endpoint: string; alias: string }; result: Result<'admin.alias'> };
  'admin.aliasChain': { params: { chain: string; alias: string }; result: Result<'admin.aliasChain'> };
  'admin.getChainAliases': { params: { chain: string }; result: Result<'admin.getChainAliases'> };
  'admin.getLoggerLevel': { params: { loggerName?: string }; result: Result<'admin.getLoggerLevel'> };
  'admin.loadVMs': { params: NoParams; result: Result<'admin.loadVMs'> };
  'admin.lockProfile': { params: NoParams; result: Result<'admin.lockProfile'> };
  'admin.memoryProfile': { params: NoParams; result: Result<'admin.memoryProfile'> };
  'admin.setLoggerLevel': { params: { loggerName?: string; logLevel?: string; displayLevel?: string }; result: Result<'admin.setLoggerLevel'> };
  'admin.startCPUProfiler': { params: NoParams; result: Result<'admin.startCPUProfiler'> };
  'admin.stopCPUProfiler': { params: NoParams; result: Result<'admin.stopCPUProfiler'> };
  'admin.getConfig': { params: NoParams; result: Result<'admin.getConfig'> };
  'admin.stacktrace': { params: NoParams; result: Result<'admin.stacktrace'> };
  'admin.dbGet': { params: { key: string }; result: Result<'admin.dbGet'> };
  'info.acps': { params: NoParams; result: Result<'info.acps'> };
  'info.isBootstrapped': { params: { chain: string }; result: Result<'info.isBootstrapped'> };
  'info.getBlockchainID': { params: { alias: string }; result: Result<'info.getBlockchainID'> };
  'info.getNetworkID': { params: NoParams; result: Result<'info.getNetworkID'> };
  'info.getNetworkName': { params: NoParams; result: Result<'info.getNetworkName'> };
  'info.getNodeID': { params: NoParams; result: Result<'info.getNodeID'> };
  'info.getNodeIP': { params: NoParams; result: Result<'info.getNodeIP'> };
  'info.getNodeVersion': { params: NoParams; result: Result<'info.getNodeVersion'> };
  'info.getTxFee': { params: NoParams; result: Result<'info.getTxFee'> };
  'info.getVMs': { params: NoParams; result: Result<'info.getVMs'> };
  'info.peers': { params: { nodeIDs?: string[] }; result: Result<'info.peers'> };
  'info.uptime': { params: { subnetID?: string }; result: Result<'info.uptime'> };
  'info.upgrades': { params: NoParams; result: Result<'info.upgrades'> };
  'health.health': { params: { tags?: string[] }; result: Result<'health.health'> };
  'health.readiness': { params: { tags?: string[] }; result: Result<'health.readiness'> };
  'health.liveness': { params: NoParams; result: Result<'health.liveness'> };
}

export type NodeRpcMethod = keyof NodeRpcMethods;

/** The description of one method's result, built for reading (default) or strict checking. */
export function nodeResultShape<M extends NodeRpcMethod>(method: M, k: Kit = READ): Leaf<NodeRpcMethods[M]['result']> {
  const shapes: { [K in NodeRpcMethod]: Leaf<NodeRpcMethods[K]['result']> } = describeNodeResults(k);
  return shapes[method];
}

/** The health GET endpoints: `/ext/health`, `/ext/health/health` (the same report), `/ext/health/readiness`, `/ext/health/liveness`. */
export type HealthPath = 'health' | 'health/health' | 'readiness' | 'liveness';

/** The URL path of each health GET endpoint. */
export const HEALTH_GET_PATHS: Readonly<Record<HealthPath, string>> = {
  health: '/ext/health',
  'health/health': '/ext/health/health',
  readiness: '/ext/health/readiness',
  liveness: '/ext/health/liveness',
};

const NODE_APIS = ['admin', 'info', 'health'] as const;

/** Which API (path under `/ext/`) serves each method. */
export function nodeApiOf(method: NodeRpcMethod): 'admin' | 'info' | 'health' {
  const api = method.slice(0, method.indexOf('.'));
  return NODE_APIS.find((name) => name === api) ?? 'info';
}

/** Methods that only read: safe to retry and to cache. */
export const READ_ONLY_NODE_METHODS: ReadonlySet<NodeRpcMethod> = new Set<NodeRpcMethod>([
  'admin.getChainAliases',
  'admin.getLoggerLevel',
  'admin.getConfig',
  'admin.dbGet',
  'info.acps',
  'info.isBootstrapped',
  'info.getBlockchainID',
  'info.getNetworkID',
  'info.getNetworkName',
  'info.getNodeID',
  'info.getNodeIP',
  'info.getNodeVersion',
  'info.getTxFee',
  'info.getVMs',
  'info.peers',
  'info.uptime',
  'info.upgrades',
  'health.health',
  'health.readiness',
  'health.liveness',
]);
