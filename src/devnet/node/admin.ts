// The admin API (`/ext/admin`), the only API that changes the node: HTTP and
// chain aliases, logger levels, the CPU profiler and plugin VMs, each refused
// with the node's own message. The aliases, loggers and VMs themselves are in
// NodeState because building the chains seeds them; the profiler and loadVMs
// counters are admin's alone.
import { HEALTH_PERIOD_MS } from './facts.ts';
import { cmp, goPathJoin, goQuote } from './go.ts';
import { decodeBase58 } from '../../lib/base58.ts';
import { decodeHex, idFromName, idFromString } from './ids.ts';
import { method, RpcError, str, type LogLevel, type RpcService } from './rpc.ts';
import type { NodeState } from './state.ts';

/** The seed's limit: 512 characters (code points). */
const MAX_ALIAS_LENGTH = 512;
const tooLong = (alias: string): boolean => alias.length > MAX_ALIAS_LENGTH && [...alias].length > MAX_ALIAS_LENGTH;
/**
 * Aliases (HTTP and chain) one simulated node accepts over its lifetime. The real node
 * has no such cap; the devnet runs inside the gateway's process on `npm start`, so its
 * caller-grown state is budgeted: 1,000 aliases of at most 512 characters, each a few route
 * entries, stay under 4 MB.
 */
export const MAX_ALIASES = 1_000;
/** Plugin VMs `admin.loadVMs` finds on its first and second call. */
const PLUGIN_VMS = ['xsvm', 'timestampvm', 'spacesvm'];
const BROKEN_PLUGIN = 'brokenvm';

/** The raw bytes of a cb58 id (its payload without the checksum) as lowercase hex. */
function idBytes(id: string): string {
  return decodeBase58(id)?.subarray(0, -4).toString('hex') ?? '';
}

export interface Admin {
  service: RpcService;
  cpuProfilerRunning(): boolean;
  loadVMsCalls(): number;
}

export function createAdmin(node: NodeState): Admin {
  const { facts, adminEnabled, routes, dealias, chainsById, loggers, vms, chains, lookupChain, trackedSubnetIds } = node;
  let cpuProfilerRunning = false;
  let loadVMsCalls = 0;
  let aliases = 0;
  const countAlias = (): void => {
    if (aliases >= MAX_ALIASES) throw new RpcError(`the devnet node keeps at most ${MAX_ALIASES} aliases`);
    aliases += 1;
  };

  const loggerLevels = (names: readonly string[]): Record<string, { logLevel: string; displayLevel: string }> => {
    const out: Record<string, { logLevel: string; displayLevel: string }> = {};
    for (const name of [...names].sort(cmp)) {
      const levels = loggers.get(name);
      if (!levels) throw new RpcError(`logger with name ${goQuote(name)} not found`);
      out[name] = { logLevel: levels.logLevel, displayLevel: levels.displayLevel };
    }
    return out;
  };

  const service: RpcService = {
    Alias: method({ endpoint: 'string', alias: 'string' }, (args) => {
      const alias = str(args.alias);
      if (tooLong(alias)) throw new RpcError('alias length is too long');
      chains();
      countAlias();
      const error = routes.addAlias(`/ext/${str(args.endpoint)}`, `/ext/${alias}`);
      if (error) throw new RpcError(error);
      return {};
    }),
    AliasChain: method({ chain: 'string', alias: 'string' }, (args) => {
      const alias = str(args.alias);
      if (tooLong(alias)) throw new RpcError('alias length is too long');
      const chain = lookupChain(str(args.chain));
      if (!chain) throw new RpcError(`there is no ID with alias: ${str(args.chain)}`);
      if (dealias.has(alias)) throw new RpcError(`alias already mapped to an ID: ${alias}`);
      countAlias();
      dealias.set(alias, chain.blockchainId);
      chain.aliases.push(alias);
      // The chain alias stays even if its HTTP alias fails, as on the node.
      const error = routes.addAlias(`/ext/${goPathJoin('bc', chain.blockchainId)}`, `/ext/${goPathJoin('bc', alias)}`);
      if (error) throw new RpcError(error);
      return {};
    }),
    GetChainAliases: method({ chain: 'string' }, (args) => {
      const id = idFromString(str(args.chain));
      chains();
      const chain = chainsById.get(id);
      return { aliases: chain ? [...chain.aliases] : null };
    }),
    GetLoggerLevel: method({ loggerName: 'string' }, (args) => {
      chains();
      const name = str(args.loggerName);
      return { loggerLevels: loggerLevels(name === '' ? [...loggers.keys()] : [name]) };
    }),
    SetLoggerLevel: method({ loggerName: 'string', logLevel: 'level', displayLevel: 'level' }, (args) => {
      const logLevel = args.logLevel as LogLevel | undefined;
      const displayLevel = args.displayLevel as LogLevel | undefined;
      if (logLevel === undefined && displayLevel === undefined) throw new RpcError('need to specify either displayLevel or logLevel');
      chains();
      const name = str(args.loggerName);
      const names = name === '' ? [...loggers.keys()] : [name];
      for (const n of names) {
        const levels = loggers.get(n);
        if (!levels) throw new RpcError(`logger with name ${goQuote(n)} not found`);
        if (logLevel !== undefined) levels.logLevel = logLevel;
        if (displayLevel !== undefined) levels.displayLevel = displayLevel;
      }
      return { loggerLevels: loggerLevels(names) };
    }),
    LoadVMs: method({}, () => {
      chains();
      loadVMsCalls += 1;
      // Deterministic plugin directory: the first reload finds one new VM,
      // the second a plugin that cannot start, later ones nothing new.
      if (loadVMsCalls === 1) {
        const name = PLUGIN_VMS.find((n) => !vms.has(idFromName(n))) ?? 'pluginvm';
        vms.set(idFromName(name), []);
        return { newVMs: { [idFromName(name)]: [] } };
      }
      if (loadVMsCalls === 2) {
        return { newVMs: {}, failedVMs: { [idFromName(BROKEN_PLUGIN)]: 'plugin exited before we could connect' } };
      }
      return { newVMs: {} };
    }),
    LockProfile: method({}, () => ({})),
    MemoryProfile: method({}, () => ({})),
    StartCPUProfiler: method({}, () => {
      if (cpuProfilerRunning) throw new RpcError('cpu profiler already running');
      cpuProfilerRunning = true;
      return {};
    }),
    StopCPUProfiler: method({}, () => {
      if (!cpuProfilerRunning) throw new RpcError("cpu profiler doesn't exist");
      cpuProfilerRunning = false;
      return {};
    }),
    Stacktrace: method({}, () => ({})),
    GetConfig: method({}, () => {
      chains();
      // A small part of the node's configuration: enough to identify it.
      return {
        networkID: Number(facts.networkID),
        httpHost: '127.0.0.1',
        httpPort: 9650,
        apiAdminEnabled: adminEnabled,
        healthCheckFrequency: HEALTH_PERIOD_MS * 1_000_000,
        trackedSubnets: [...trackedSubnetIds()],
      };
    }),
    DbGet: method({ key: 'string' }, (args) => {
      const key = decodeHex(str(args.key)).toString('hex');
      // The simulated database holds the chains the node runs: each chain's id bytes
      // map to its VM id bytes, so a found key is one a caller can learn from info and
      // admin answers. Any other key is absent: not-found is a success with errorCode 2.
      for (const chain of chains()) {
        if (idBytes(chain.blockchainId) === key) return { value: `0x${idBytes(chain.vmId)}`, errorCode: 0 };
      }
      return { value: '', errorCode: 2 };
    }),
  };

  return { service, cpuProfilerRunning: () => cpuProfilerRunning, loadVMsCalls: () => loadVMsCalls };
}
