import { createHash } from 'node:crypto';
import { Rng } from '../rng.ts';
import type {
  AddressInfo,
  Chain,
  ChainFeature,
  CurrencyCode,
  Erc1155Token,
  Erc1155TokenBalance,
  Erc1155Transfer,
  Erc20Token,
  Erc20Transfer,
  Erc721Token,
  Erc721Transfer,
  ExportOperation,
  FullNativeTransaction,
  FullTransaction,
  IcmMessage,
  InternalTransaction,
  NativeTokenBalance,
  NativeTransaction,
  NetworkToken,
  NftMetadata,
  NftToken,
  Price,
  TeleporterMessageInfo,
  TransactionDetails,
} from '../../shapes/index.ts';

/**
 * The EVM side of the devnet's Data API: chains, address histories, balances,
 * NFTs, ICM messages, deployments and export operations of one network.
 *
 * Volumes are unbounded (any address has a history), so per-address data is
 * generated on first use from a hash of (seed, network, chain, address) and kept
 * in a bounded LRU: the same request always gets the same answer, and memory
 * stays small. Transaction hashes are self-describing (an authenticated,
 * masked encoding of chain, address and index), so a hash seen in any listing
 * can be looked up without an index of every generated transaction.
 */

export interface EvmChainSeed {
  evmChainId: number;
  blockchainId: string;
  subnetId: string;
  vmId: string;
  name: string;
  isCChain: boolean;
}

export type EvmNetwork = 'mainnet' | 'fuji';

export interface EvmFixtures {
  evmChainId: string;
  address: string;
  contractAddress: string;
  nftContract: string;
  nftTokenId: string;
  txHash: string;
  icmAddress: string;
  operationId: string;
  /** The C-chain's blockchain id (an alias of `evmChainId` in `/v1/chains/{chainId}`). */
  blockchainId: string;
  /** An ERC-1155 collection and a token of it that `address` holds. */
  erc1155Contract: string;
  erc1155TokenId: string;
  /** The deployment transaction of `contractAddress` (sent by `address`). */
  deploymentTxHash: string;
  /** Also, when the network has them: `icmSourceTxHash` + `icmSourceEvmChainId`, `subnetEvmChainId`. */
  [k: string]: string;
}

export interface BlockRange {
  /** Inclusive. */
  startBlock?: number;
  /** Exclusive. */
  endBlock?: number;
}

/** The validated body of `POST /v1/operations/transactions:export`. */
export interface ExportRequest {
  type: string;
  firstDate?: string;
  lastDate?: string;
  addresses: string[];
  includeChains: string[];
  /** Set by the caller when the request names chains the dataset does not have: the operation then FAILs. */
  unknownChains?: string[];
}

export interface EvmData {
  readonly network: EvmNetwork;
  /** E17 objects of this network, C-chain first. */
  chains(): readonly Chain[];
  /** True when `chainId` is one of this network's EVM chain ids or blockchain ids. */
  hasChain(chainId: string): boolean;
  /** The chain's latest block number at `now()`; undefined for an unknown chain. */
  latestBlock(chainId: string): number | undefined;
  /** E3 items (address-scoped views) in the block range, ascending by timestamp. */
  addressTransactions(chainId: string, address: string, range: BlockRange): TransactionDetails[] | undefined;
  /** E9 items: transactions the address sent or received natively, ascending by timestamp. */
  nativeTransactions(chainId: string, address: string, range: BlockRange): NativeTransaction[] | undefined;
  /** E14 / E10: the native balance at `blockNumber` (default latest). */
  nativeBalance(chainId: string, address: string, blockNumber: number | undefined, currency: CurrencyCode): NativeTokenBalance | undefined;
  /** E10: ERC-1155 balances held at `blockNumber` (default latest), optionally of one contract. */
  erc1155Balances(chainId: string, address: string, blockNumber: number | undefined, contractAddress?: string): Erc1155TokenBalance[] | undefined;
  /** E6: the contract's deployment transaction; undefined when the chain or contract is unknown. */
  deployment(chainId: string, contractAddress: string, currency: CurrencyCode): FullTransaction | undefined;
  /** The complete view of one transaction; undefined when the chain or hash is unknown. */
  transaction(chainId: string, txHash: string, currency: CurrencyCode): FullTransaction | undefined;
  /** E19: undefined when the chain, collection or token id is unknown. */
  nftToken(chainId: string, contractAddress: string, tokenId: string): NftToken | undefined;
  /** E16: messages where the address is sender or recipient, newest first. */
  icmMessages(address: string): IcmMessage[];
  /** E5: starts an export operation (RUNNING). */
  createExport(request: ExportRequest): ExportOperation;
  /** `GET /v1/operations/{id}`: the operation as of `now()`. */
  operation(operationId: string): ExportOperation | undefined;
  fixtures(): EvmFixtures;
}

export interface CreateEvmDataInput {
  network: EvmNetwork;
  /** The C-chain and every EVM subnet chain of the network. */
  chains: EvmChainSeed[];
  seed: number;
  /** Clock in ms since epoch. */
  now: () => number;
}

// ---------------------------------------------------------------- constants

const DAY = 86_400;
/** Token ids 1..RESERVED_NFT_IDS of every ERC-721 collection belong to the fixture address. */
const RESERVED_NFT_IDS = 16;
const ERC1155_IDS_PER_COLLECTION = 40;
const HISTORY_CACHE_SIZE = 512;
const ICM_CACHE_SIZE = 512;
const MAX_OPERATIONS = 10_000;
/** How long an export stays RUNNING. */
const EXPORT_RUN_MS = 3_000;
/** Exports spanning more days than this complete with a truncation warning. */
const EXPORT_MAX_DAYS = 366;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** The TeleporterMessenger address, the same on every chain. */
const TELEPORTER_ADDRESS = '0x253b2784c75e510dd0ff1da844684a1ac0aa5fcf';
const MULTICALL3_ADDRESS = '0xca11bde05977b3631167028862be2a173976ca11';
const C_CHAIN_GENESIS_TS = 1_600_858_926;

/** Units of each currency per US dollar. */
const USD_RATES: Record<CurrencyCode, number> = {
  usd: 1, eur: 0.92, aud: 1.52, cad: 1.36, chf: 0.88, clp: 945, cny: 7.2,
  czk: 23.1, dkk: 6.87, gbp: 0.79, hkd: 7.8, huf: 365, jpy: 150, nzd: 1.66,
};

const COLLECTION_STEMS = ['Punks', 'Kittens', 'Knights', 'Lands', 'Relics', 'Voyagers', 'Sprites'];
const ITEM_STEMS = ['Items', 'Badges', 'Potions', 'Tickets', 'Cards'];
const TRAITS: Record<string, string[]> = {
  Background: ['Red', 'Blue', 'Snow', 'Night', 'Gold'],
  Eyes: ['Laser', 'Sleepy', 'Wide', 'Wink'],
  Hat: ['None', 'Crown', 'Cap', 'Helmet'],
};
const RARITIES = ['common', 'uncommon', 'rare', 'epic', 'legendary'];

// ---------------------------------------------------------------- internal model

type ContractKind = 'erc20' | 'erc721' | 'erc1155' | 'router' | 'staking';

interface ContractDef {
  address: string;
  kind: ContractKind;
  name: string;
  symbol: string;
  decimals: number;
  logoUri: string;
  deployer: string;
  /** Position in the deployer's history. */
  deployIndex: number;
  deployBlock: number;
  /** ERC-20 only. */
  usdPrice: number;
  /** NFT collections: token ids are 1..supply. */
  supply: number;
  /** ERC-20: the DEX pair of this token against the wrapped native token. */
  pair: string;
}

interface ChainCtx {
  idx: number;
  seed: EvmChainSeed;
  evmChainId: string;
  genesisTs: number;
  blockTime: number;
  anchorBlock: number;
  historyLo: number;
  baseFee: bigint;
  token: NetworkToken;
  usdPrice: number;
  chain: Chain;
  erc20: ContractDef[];
  erc721: ContractDef[];
  erc1155: ContractDef[];
  router: ContractDef;
  staking: ContractDef;
  team: string;
  contracts: Map<string, ContractDef>;
  deploymentsBy: Map<string, ContractDef[]>;
}

type Kind =
  | 'native-out' | 'native-in' | 'erc20-out' | 'erc20-in' | 'swap-buy' | 'swap-sell'
  | 'nft-mint' | 'nft-in' | 'erc1155-in' | 'erc1155-batch-out' | 'claim';

const FIXTURE_KINDS: Kind[] = [
  'native-out', 'erc20-in', 'swap-buy', 'nft-mint', 'erc1155-in', 'claim',
  'native-in', 'erc20-out', 'swap-sell', 'nft-in', 'erc1155-batch-out',
];
const WEIGHTED_KINDS: Kind[] = [
  'native-out', 'native-out', 'native-in', 'native-in', 'native-in', 'erc20-out', 'erc20-in', 'erc20-in',
  'swap-buy', 'swap-sell', 'nft-mint', 'nft-in', 'erc1155-in', 'erc1155-batch-out', 'claim',
];

/** One transaction, complete (every transfer, not only the owner's). */
interface TxRecord {
  blockNumber: number;
  native: FullNativeTransaction;
  erc20: Erc20Transfer[];
  erc721: Erc721Transfer[];
  erc1155: Erc1155Transfer[];
  internal: InternalTransaction[];
  teleporter?: TeleporterMessageInfo;
}

interface History {
  records: TxRecord[];
  firstBlock: number;
  finalBalance: bigint;
  erc1155: { contract: ContractDef; tokenId: number; balance: bigint; sinceBlock: number }[];
}

interface IcmRecord {
  message: IcmMessage;
  index: number;
  src: ChainCtx;
  dst: ChainCtx;
  sourceBlock: number;
  destinationBlock?: number;
}

interface OperationRecord {
  id: string;
  type: string;
  createdMs: number;
  failure?: string;
  nextDate?: string;
}

// ---------------------------------------------------------------- small helpers

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function hashHex(text: string, bytes = 32): string {
  return sha256(text).subarray(0, bytes).toString('hex');
}

function derivedAddress(label: string): string {
  return `0x${hashHex(label, 20)}`;
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Decimal string with at most 6 fraction digits and no exponent. */
export function formatDecimal(value: number): string {
  const fixed = value.toFixed(6);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

function price(usd: number, currency: CurrencyCode): Price {
  return { currencyCode: currency, value: formatDecimal(usd * USD_RATES[currency]) };
}

/** A deterministic day-to-day drift of a price, within ±15 %. */
function historicalUsd(usd: number, timestamp: number): number {
  const day = Math.floor(timestamp / DAY);
  return usd * (1 + 0.15 * Math.sin(day / 9));
}

/** Amount in base units -> decimal number of whole tokens (precision is enough for prices). */
function toUnits(amount: bigint, decimals: number): number {
  if (decimals <= 6) return Number(amount) / 10 ** decimals;
  return Number(amount / pow10(decimals - 6)) / 1e6;
}

function pad32(hex: string): string {
  return hex.replace(/^0x/, '').padStart(64, '0');
}

function uuidFrom(bytes: Buffer): string {
  const h = Buffer.from(bytes.subarray(0, 16));
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x40;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

function isoDate(timestampSec: number): string {
  return new Date(timestampSec * 1000).toISOString().slice(0, 10);
}

/** A Map kept to `max` entries, least recently used evicted first. */
class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  getOrCreate(key: K, make: () => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = make();
    this.map.set(key, value);
    if (this.map.size > this.max) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    return value;
  }
}

function symbolOf(name: string): string {
  const letters = name.replace(/[^A-Za-z]/g, '').toUpperCase();
  return (letters.slice(0, 4) || 'TOK').padEnd(3, 'X');
}

function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'chain';
}

// ---------------------------------------------------------------- tx hash codec

/** What a transaction hash points at: an address's history entry, or an ICM message's source/destination tx. */
interface HashTarget {
  kind: 0 | 1 | 2;
  chainIdx: number;
  address: string;
  index: number;
}

/**
 * `tag(5) ‖ (plain(27) XOR mask)`, plain = kind ‖ chain ‖ address ‖ index(2) ‖ 000000,
 * tag = sha256(seed, network, plain). Random-looking, decodable, and a random
 * 32-byte hash is rejected with probability 1 - 2^-64.
 */
function encodeTxHash(secret: string, t: HashTarget): string {
  const plain = Buffer.alloc(27);
  plain[0] = t.kind;
  plain[1] = t.chainIdx;
  Buffer.from(t.address.slice(2), 'hex').copy(plain, 2);
  plain.writeUInt16BE(t.index, 22);
  const tag = sha256(`${secret}:tx:${plain.toString('hex')}`).subarray(0, 5);
  const mask = sha256(`${secret}:mask:${tag.toString('hex')}`);
  const body = Buffer.alloc(27);
  for (let i = 0; i < 27; i++) body[i] = (plain[i] ?? 0) ^ (mask[i] ?? 0);
  return `0x${tag.toString('hex')}${body.toString('hex')}`;
}

function decodeTxHash(secret: string, txHash: string): HashTarget | undefined {
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) return undefined;
  const raw = Buffer.from(txHash.slice(2).toLowerCase(), 'hex');
  const tag = raw.subarray(0, 5);
  const mask = sha256(`${secret}:mask:${tag.toString('hex')}`);
  const plain = Buffer.alloc(27);
  for (let i = 0; i < 27; i++) plain[i] = (raw[5 + i] ?? 0) ^ (mask[i] ?? 0);
  if (!sha256(`${secret}:tx:${plain.toString('hex')}`).subarray(0, 5).equals(tag)) return undefined;
  const kind = plain[0];
  if (kind !== 0 && kind !== 1 && kind !== 2) return undefined;
  return {
    kind,
    chainIdx: plain[1] ?? 0,
    address: `0x${plain.subarray(2, 22).toString('hex')}`,
    index: plain.readUInt16BE(22),
  };
}

// ---------------------------------------------------------------- factory

export function createEvmData(input: CreateEvmDataInput): EvmData {
  const { network, seed, now } = input;
  const secret = `${seed}:${network}:evm`;
  // Histories end at the start of the day the dataset was built: stable across restarts on the same day.
  const anchor = Math.floor(now() / 1000 / DAY) * DAY;
  const fixtureAddress = new Rng(`${seed}:evm-fixture-address`).evmAddress();

  const ctxs: ChainCtx[] = [...input.chains]
    .sort((a, b) => Number(b.isCChain) - Number(a.isCChain))
    .slice(0, 255)
    .map((c, idx) => buildChain(c, idx));
  const byId = new Map<string, ChainCtx>();
  for (const c of ctxs) {
    byId.set(String(c.seed.evmChainId), c);
    byId.set(c.seed.blockchainId, c);
  }

  const histories = new Lru<string, History>(HISTORY_CACHE_SIZE);
  const icmCache = new Lru<string, IcmRecord[]>(ICM_CACHE_SIZE);
  const operations = new Map<string, OperationRecord>();
  let operationCounter = 0;

  // ------------------------------------------------------------ chains

  function buildChain(c: EvmChainSeed, idx: number): ChainCtx {
    const rng = new Rng(`${secret}:chain:${c.evmChainId}`);
    const blockTime = c.isCChain ? 2 : rng.pick([1, 2, 2, 3]);
    const latestGenesis = anchor - 500 * DAY;
    const genesisTs = c.isCChain
      ? Math.min(C_CHAIN_GENESIS_TS, latestGenesis)
      : Math.min(rng.int(1_650_000_000, 1_700_000_000), latestGenesis);
    const anchorBlock = Math.floor((anchor - genesisTs) / blockTime);
    const deployLo = anchorBlock - Math.floor((420 * DAY) / blockTime);
    const historyLo = anchorBlock - Math.floor((180 * DAY) / blockTime);
    const slug = slugOf(c.name);
    const token: NetworkToken = c.isCChain
      ? {
          name: 'Avalanche',
          symbol: 'AVAX',
          decimals: 18,
          logoUri: 'https://images.devnet.invalid/tokens/avax.svg',
          description: 'AVAX is the native utility token of Avalanche.',
        }
      : {
          name: `${c.name} Token`,
          symbol: symbolOf(c.name),
          decimals: 18,
          logoUri: `https://images.devnet.invalid/tokens/${slug}.svg`,
          description: `The native gas token of ${c.name}.`,
        };
    const usdPrice = c.isCChain ? 35.12 : Number((0.05 + rng.next() * 4).toFixed(4));

    // Feature sets cycle so every `feature` filter both matches and excludes chains.
    const featureSets: ChainFeature[][] = [
      ['nftIndexing', 'teleporter'],
      ['webhooks'],
      ['teleporter', 'webhooks'],
      [],
      ['nftIndexing'],
    ];
    const enabledFeatures: ChainFeature[] = c.isCChain
      ? ['nftIndexing', 'webhooks', 'teleporter']
      : (featureSets[(idx - 1) % featureSets.length] ?? []);
    const host = network === 'mainnet' ? 'api.avax.network' : 'api.avax-test.network';
    const rpcBase = c.isCChain ? `${host}/ext/bc/C` : `subnets.devnet.invalid/${slug}/${network}`;
    const chain: Chain = {
      chainId: String(c.evmChainId),
      status: 'OK',
      chainName: c.name,
      description: c.isCChain
        ? `The Contract Chain of the Avalanche ${network === 'mainnet' ? 'Mainnet' : 'Fuji Testnet'}.`
        : `${c.name}, an EVM chain of subnet ${c.subnetId} on ${network}.`,
      platformChainId: c.blockchainId,
      subnetId: c.subnetId,
      vmId: c.vmId,
      vmName: 'EVM',
      explorerUrl: `https://explorer.devnet.invalid/${network}/${c.isCChain ? 'c-chain' : slug}`,
      rpcUrl: `https://${rpcBase}/rpc`,
      wsUrl: `wss://${rpcBase}/ws`,
      isTestnet: network === 'fuji',
      utilityAddresses: { multicall: MULTICALL3_ADDRESS },
      networkToken: token,
      chainLogoUri: `https://images.devnet.invalid/chains/${c.evmChainId}.svg`,
      private: false,
      enabledFeatures,
    };

    const team = derivedAddress(`${secret}:team:${c.evmChainId}`);
    const contractLabel = (name: string): string => `${secret}:contract:${c.evmChainId}:${name}`;
    const defs: ContractDef[] = [];
    const add = (
      kind: ContractKind, name: string, symbol: string, decimals: number, deployer: string,
      extra: Partial<Pick<ContractDef, 'usdPrice' | 'supply'>> = {},
    ): ContractDef => {
      const address = derivedAddress(contractLabel(name));
      const def: ContractDef = {
        address, kind, name, symbol, decimals, deployer,
        logoUri: `https://images.devnet.invalid/tokens/${c.evmChainId}/${address}.png`,
        deployIndex: 0, deployBlock: 0, usdPrice: extra.usdPrice ?? 0, supply: extra.supply ?? 0,
        pair: derivedAddress(`${contractLabel(name)}:pair`),
      };
      defs.push(def);
      return def;
    };

    const sym = token.symbol;
    const erc20: ContractDef[] = [add('erc20', `Wrapped ${c.isCChain ? 'AVAX' : token.name}`, `W${sym}`, 18, team, { usdPrice })];
    if (c.isCChain) {
      erc20.push(add('erc20', 'USD Coin', 'USDC', 6, team, { usdPrice: 1 }));
      erc20.push(add('erc20', 'Tether USD', 'USDt', 6, team, { usdPrice: 1 }));
      erc20.push(add('erc20', network === 'mainnet' ? 'Joe Token' : 'Test Token', network === 'mainnet' ? 'JOE' : 'TEST', 18, team, { usdPrice: 0.42 }));
    } else {
      erc20.push(add('erc20', 'Bridged USD Coin', 'USDC.b', 6, team, { usdPrice: 1 }));
      erc20.push(add('erc20', `${c.name} Gold`, 'GOLD', 18, team, { usdPrice: Number((0.01 + rng.next()).toFixed(4)) }));
    }
    erc20.push(add('erc20', 'Devnet Fixture Token', 'DFT', 18, fixtureAddress, { usdPrice: 0.0123 }));

    const stems = [...COLLECTION_STEMS];
    const nftName = (): string => {
      const i = rng.int(0, stems.length - 1);
      const stem = stems.splice(i, 1)[0] ?? 'Things';
      return c.isCChain ? `Avalanche ${stem}` : `${c.name} ${stem}`;
    };
    const erc721: ContractDef[] = [
      add('erc721', c.isCChain ? 'Devnet Apes' : `${c.name} Apes`, 'DAPE', 0, fixtureAddress, { supply: 5000 }),
    ];
    for (let i = 0; i < 2; i++) {
      const name = nftName();
      erc721.push(add('erc721', name, symbolOf(name.split(' ').pop() ?? name), 0, team, { supply: rng.int(1000, 10_000) }));
    }
    const erc1155: ContractDef[] = [add('erc1155', c.isCChain ? 'Devnet Items' : `${c.name} Items`, 'DITEM', 0, fixtureAddress)];
    const itemStem = rng.pick(ITEM_STEMS.slice(1));
    erc1155.push(add('erc1155', `${c.isCChain ? 'Avalanche' : c.name} ${itemStem}`, symbolOf(itemStem), 0, team));
    for (const d of erc1155) d.supply = ERC1155_IDS_PER_COLLECTION;
    const router = add('router', 'DevSwap Router', '', 0, team);
    const staking = add('staking', 'Staking Rewards', '', 0, team);

    // Deployment order per deployer; deployments happen long before the histories start.
    const deploymentsBy = new Map<string, ContractDef[]>();
    let block = deployLo;
    for (const def of defs) {
      const list = deploymentsBy.get(def.deployer) ?? [];
      def.deployIndex = list.length;
      block += rng.int(1_000, 50_000);
      def.deployBlock = block;
      list.push(def);
      deploymentsBy.set(def.deployer, list);
    }
    const contracts = new Map(defs.map((d) => [d.address, d]));
    return {
      idx, seed: c, evmChainId: String(c.evmChainId), genesisTs, blockTime, anchorBlock, historyLo,
      baseFee: c.isCChain ? 25_000_000_000n : BigInt(rng.int(1, 10)) * 1_000_000_000n,
      token, usdPrice, chain, erc20, erc721, erc1155, router, staking, team, contracts, deploymentsBy,
    };
  }

  const blockTimestamp = (ctx: ChainCtx, block: number): number => ctx.genesisTs + block * ctx.blockTime;
  const blockAt = (ctx: ChainCtx, ts: number): number => Math.max(0, Math.floor((ts - ctx.genesisTs) / ctx.blockTime));
  const blockHash = (ctx: ChainCtx, block: number): string => `0x${hashHex(`${secret}:block:${ctx.evmChainId}:${block}`)}`;
  const latest = (ctx: ChainCtx): number => Math.max(ctx.anchorBlock, blockAt(ctx, Math.floor(now() / 1000)));

  // ------------------------------------------------------------ tokens and NFTs

  function info(ctx: ChainCtx, address: string): AddressInfo {
    const def = ctx.contracts.get(address);
    if (!def) return { address };
    // Plain contracts have a name and logo but no token symbol or decimals.
    if (def.kind === 'router' || def.kind === 'staking') return { name: def.name, logoUri: def.logoUri, address };
    return { name: def.name, symbol: def.symbol, decimals: def.decimals, logoUri: def.logoUri, address };
  }

  function erc20Token(def: ContractDef): Erc20Token {
    return {
      address: def.address, name: def.name, symbol: def.symbol, decimals: def.decimals,
      logoUri: def.logoUri, ercType: 'ERC-20', price: price(def.usdPrice, 'usd'),
    };
  }

  function nftOwner(ctx: ChainCtx, def: ContractDef, tokenId: number): string {
    if (tokenId <= RESERVED_NFT_IDS) return fixtureAddress;
    return derivedAddress(`${secret}:owner:${ctx.evmChainId}:${def.address}:${tokenId}`);
  }

  function nftMetadata(ctx: ChainCtx, def: ContractDef, tokenId: number): NftMetadata {
    const rng = new Rng(`${secret}:meta:${ctx.evmChainId}:${def.address}:${tokenId}`);
    const base = `https://nft.devnet.invalid/${ctx.evmChainId}/${def.address}/${tokenId}`;
    const common: NftMetadata = {
      indexStatus: 'indexed',
      metadataLastUpdatedTimestamp: anchor - rng.int(1, 90) * DAY + rng.int(0, DAY - 1),
      name: `${def.name} #${tokenId}`,
      symbol: def.symbol,
      imageUri: `${base}.png`,
      description: `${def.name} token ${tokenId} on ${ctx.seed.name}.`,
      animationUri: `${base}.mp4`,
      externalUrl: `https://collections.devnet.invalid/${def.address}/${tokenId}`,
      background: rng.hex(3),
    };
    if (def.kind === 'erc721') {
      const attributes = Object.entries(TRAITS).map(([trait, values]) => ({ trait_type: trait, value: rng.pick(values) }));
      return { ...common, attributes: JSON.stringify(attributes) };
    }
    const properties = { rarity: rng.pick(RARITIES), edition: rng.int(1, 500), stackable: rng.bool() };
    return { ...common, decimals: 0, properties: JSON.stringify(properties) };
  }

  function erc721Token(ctx: ChainCtx, def: ContractDef, tokenId: number): Erc721Token {
    return {
      address: def.address, name: def.name, symbol: def.symbol, ercType: 'ERC-721', tokenId: String(tokenId),
      tokenUri: `ipfs://devnet/${ctx.evmChainId}/${def.address}/${tokenId}.json`,
      metadata: nftMetadata(ctx, def, tokenId), ownerAddress: nftOwner(ctx, def, tokenId),
    };
  }

  function erc1155Token(ctx: ChainCtx, def: ContractDef, tokenId: number): Erc1155Token {
    return {
      address: def.address, ercType: 'ERC-1155', tokenId: String(tokenId),
      tokenUri: `ipfs://devnet/${ctx.evmChainId}/${def.address}/${tokenId}.json`,
      metadata: nftMetadata(ctx, def, tokenId),
    };
  }

  // ------------------------------------------------------------ histories

  interface TxParams {
    block: number;
    blockIndex: number;
    hash: string;
    from: string;
    to: string;
    value: bigint;
    nonce: number;
    callType: 'NATIVE_TRANSFER' | 'CONTRACT_CALL' | 'CONTRACT_CREATION';
    methodHash: string;
    methodName: string;
    input: string;
    gasLimit: number;
    gasUsed: number;
    failed: boolean;
    legacy: boolean;
    tip: bigint;
  }

  function nativeTx(ctx: ChainCtx, p: TxParams): FullNativeTransaction {
    const gasPrice = ctx.baseFee + p.tip;
    return {
      blockNumber: String(p.block),
      blockTimestamp: blockTimestamp(ctx, p.block),
      blockHash: blockHash(ctx, p.block),
      chainId: ctx.evmChainId,
      blockIndex: p.blockIndex,
      txHash: p.hash,
      txStatus: p.failed ? '0' : '1',
      txType: p.legacy ? 0 : 2,
      gasLimit: String(p.gasLimit),
      gasUsed: String(p.gasUsed),
      gasPrice: String(gasPrice),
      nonce: String(p.nonce),
      from: info(ctx, p.from),
      to: info(ctx, p.to),
      method: { callType: p.callType, methodHash: p.methodHash, methodName: p.methodName },
      value: String(p.value),
      input: p.input,
      baseFeePerGas: String(ctx.baseFee),
      maxFeePerGas: String(p.legacy ? gasPrice : ctx.baseFee * 2n + p.tip),
      maxPriorityFeePerGas: String(p.tip),
    };
  }

  function internalTx(ctx: ChainCtx, from: string, to: string, type: string, value: bigint, rng: Rng): InternalTransaction {
    const gasLimit = rng.int(2_300, 80_000);
    return {
      from: info(ctx, from), to: info(ctx, to), internalTxType: type, value: String(value),
      isReverted: false, gasUsed: String(Math.floor(gasLimit * (0.3 + rng.next() * 0.6))), gasLimit: String(gasLimit),
    };
  }

  function erc20Transfer(ctx: ChainCtx, def: ContractDef, from: string, to: string, value: bigint, logIndex: number): Erc20Transfer {
    return { from: info(ctx, from), to: info(ctx, to), logIndex, value: String(value), erc20Token: erc20Token(def) };
  }

  function tokenAmount(rng: Rng, def: ContractDef): bigint {
    return BigInt(rng.int(1, 500_000)) * pow10(def.decimals) / 100n;
  }

  function buildHistory(ctx: ChainCtx, address: string): History {
    const rng = new Rng(`${secret}:history:${ctx.evmChainId}:${address}`);
    const isFixture = address === fixtureAddress;
    const creations = ctx.deploymentsBy.get(address) ?? [];
    const total = isFixture ? 48 + rng.int(0, 16) : address === ctx.team ? 10 + rng.int(0, 8) : rng.int(0, 24);
    const blocks = Array.from({ length: total }, () => rng.int(ctx.historyLo, ctx.anchorBlock)).sort((a, b) => a - b);
    const friends = [rng.evmAddress(), rng.evmAddress(), rng.evmAddress()];
    const counterparty = (): string => (rng.bool(0.6) ? rng.pick(friends) : rng.evmAddress());
    const reservedNext = new Map<string, number>();
    const records: TxRecord[] = [];
    let nonce = 0;
    let prevBlock = -1;
    let prevIndex = 0;

    const slot = (block: number): number => {
      const blockIndex = block === prevBlock ? prevIndex + 1 + rng.int(0, 3) : rng.int(0, 30);
      prevBlock = block;
      prevIndex = blockIndex;
      return blockIndex;
    };
    const hashOf = (index: number): string => encodeTxHash(secret, { kind: 0, chainIdx: ctx.idx, address, index });
    const params = (block: number, index: number, overrides: Partial<TxParams> & Pick<TxParams, 'from' | 'to' | 'callType'>): TxParams => {
      const legacy = rng.bool(0.1);
      const gasLimit = overrides.gasLimit ?? (overrides.callType === 'NATIVE_TRANSFER' ? 21_000 : rng.int(60_000, 400_000));
      const gasUsed = overrides.callType === 'NATIVE_TRANSFER' ? 21_000 : Math.floor(gasLimit * (0.55 + rng.next() * 0.4));
      return {
        block, blockIndex: slot(block), hash: hashOf(index), value: 0n,
        nonce: overrides.from === address ? nonce++ : rng.int(0, 5_000),
        methodHash: '', methodName: overrides.callType === 'NATIVE_TRANSFER' ? 'Native Transfer' : 'Contract Created',
        input: '0x', gasLimit, gasUsed, failed: false, legacy,
        tip: BigInt(rng.int(0, 3_000)) * 1_000_000n,
        ...overrides,
      };
    };
    const nftId = (def: ContractDef): number => {
      if (!isFixture) return rng.int(RESERVED_NFT_IDS + 1, def.supply);
      const next = (reservedNext.get(def.address) ?? 0) + 1;
      reservedNext.set(def.address, next);
      return ((next - 1) % RESERVED_NFT_IDS) + 1;
    };

    for (const def of creations) {
      const index = records.length;
      const p = params(def.deployBlock, index, {
        from: address, to: def.address, callType: 'CONTRACT_CREATION',
        gasLimit: rng.int(1_200_000, 3_500_000), input: `0x60806040${rng.hex(180)}`,
      });
      const rec: TxRecord = {
        blockNumber: p.block, native: nativeTx(ctx, p), erc20: [], erc721: [], erc1155: [],
        internal: [internalTx(ctx, address, def.address, 'CREATE', 0n, rng)],
      };
      if (def.kind === 'erc20') rec.erc20.push(erc20Transfer(ctx, def, ZERO_ADDRESS, address, 1_000_000_000n * pow10(def.decimals), 0));
      records.push(rec);
    }

    const fixtureKinds = [...FIXTURE_KINDS];
    for (let j = 0; j < total; j++) {
      const block = blocks[j] ?? ctx.anchorBlock;
      const index = records.length;
      if (isFixture && j % FIXTURE_KINDS.length === 0) {
        // A fresh order per cycle, so every kind shows up several times but not in a fixed rhythm.
        for (let i = fixtureKinds.length - 1; i > 0; i--) {
          const k = rng.int(0, i);
          [fixtureKinds[i], fixtureKinds[k]] = [fixtureKinds[k] as Kind, fixtureKinds[i] as Kind];
        }
      }
      const kind: Kind = isFixture ? (fixtureKinds[j % fixtureKinds.length] as Kind) : rng.pick(WEIGHTED_KINDS);
      records.push(makeTx(kind, block, index));
    }

    function makeTx(kind: Kind, block: number, index: number): TxRecord {
      const other = counterparty();
      const rec = (p: TxParams): TxRecord => ({ blockNumber: p.block, native: nativeTx(ctx, p), erc20: [], erc721: [], erc1155: [], internal: [] });
      const call = (from: string, to: string, methodHash: string, methodName: string, args: string, value = 0n, failed = false): TxParams =>
        params(block, index, { from, to, callType: 'CONTRACT_CALL', methodHash, methodName, input: `${methodHash}${args}`, value, failed });
      const nativeValue = (): bigint => BigInt(rng.int(1, 250_000)) * 10n ** 14n;
      const token = (): ContractDef => rng.pick(ctx.erc20.slice(1));
      const wrapped = ctx.erc20[0] as ContractDef;

      switch (kind) {
        case 'native-out':
        case 'native-in': {
          const [from, to] = kind === 'native-out' ? [address, other] : [other, address];
          const failed = kind === 'native-out' && rng.bool(0.05);
          return rec(params(block, index, { from, to, callType: 'NATIVE_TRANSFER', value: nativeValue(), failed }));
        }
        case 'erc20-out':
        case 'erc20-in': {
          const def = token();
          const [from, to] = kind === 'erc20-out' ? [address, other] : [other, address];
          const amount = tokenAmount(rng, def);
          const failed = kind === 'erc20-out' && rng.bool(0.05);
          const r = rec(call(from, def.address, '0xa9059cbb', 'transfer(address,uint256)', pad32(to) + pad32(amount.toString(16)), 0n, failed));
          if (!failed) r.erc20.push(erc20Transfer(ctx, def, from, to, amount, rng.int(0, 5)));
          return r;
        }
        case 'swap-buy': {
          const def = token();
          const value = nativeValue();
          const out = tokenAmount(rng, def);
          const failed = rng.bool(0.04);
          const r = rec(call(address, ctx.router.address, '0x7ff36ab5', 'swapExactAVAXForTokens(uint256,address[],address,uint256)',
            pad32(out.toString(16)) + pad32('80') + pad32(address) + rng.hex(32), value, failed));
          if (failed) return r;
          const log = rng.int(0, 4);
          r.internal.push(internalTx(ctx, ctx.router.address, wrapped.address, 'CALL', value, rng));
          r.erc20.push(erc20Transfer(ctx, wrapped, ctx.router.address, def.pair, value, log));
          r.erc20.push(erc20Transfer(ctx, def, def.pair, address, out, log + 2));
          return r;
        }
        case 'swap-sell': {
          const def = token();
          const amount = tokenAmount(rng, def);
          const out = nativeValue();
          const r = rec(call(address, ctx.router.address, '0x18cbafe5', 'swapExactTokensForAVAX(uint256,uint256,address[],address,uint256)',
            pad32(amount.toString(16)) + pad32(out.toString(16)) + pad32('a0') + pad32(address) + rng.hex(32)));
          const log = rng.int(0, 4);
          r.erc20.push(erc20Transfer(ctx, def, address, def.pair, amount, log));
          r.erc20.push(erc20Transfer(ctx, wrapped, def.pair, ctx.router.address, out, log + 2));
          r.internal.push(internalTx(ctx, ctx.router.address, wrapped.address, 'CALL', 0n, rng));
          r.internal.push(internalTx(ctx, wrapped.address, ctx.router.address, 'CALL', out, rng));
          r.internal.push(internalTx(ctx, ctx.router.address, address, 'CALL', out, rng));
          return r;
        }
        case 'nft-mint': {
          const def = rng.pick(ctx.erc721);
          const id = nftId(def);
          const mintPrice = rng.bool(0.5) ? BigInt(rng.int(1, 20)) * 10n ** 17n : 0n;
          const r = rec(call(address, def.address, '0x1249c58b', 'mint()', '', mintPrice));
          r.erc721.push({ from: info(ctx, ZERO_ADDRESS), to: info(ctx, address), logIndex: rng.int(0, 3), erc721Token: erc721Token(ctx, def, id) });
          if (mintPrice > 0n) r.internal.push(internalTx(ctx, def.address, ctx.team, 'CALL', mintPrice, rng));
          return r;
        }
        case 'nft-in': {
          const def = rng.pick(ctx.erc721);
          const id = nftId(def);
          const r = rec(call(other, def.address, '0x42842e0e', 'safeTransferFrom(address,address,uint256)', pad32(other) + pad32(address) + pad32(id.toString(16))));
          r.erc721.push({ from: info(ctx, other), to: info(ctx, address), logIndex: rng.int(0, 3), erc721Token: erc721Token(ctx, def, id) });
          return r;
        }
        case 'erc1155-in': {
          const def = rng.pick(ctx.erc1155);
          const id = rng.int(1, def.supply);
          const amount = BigInt(rng.int(1, 50));
          const r = rec(call(other, def.address, '0xf242432a', 'safeTransferFrom(address,address,uint256,uint256,bytes)',
            pad32(other) + pad32(address) + pad32(id.toString(16)) + pad32(amount.toString(16)) + pad32('a0')));
          r.erc1155.push({ from: info(ctx, other), to: info(ctx, address), logIndex: rng.int(0, 3), value: String(amount), erc1155Token: erc1155Token(ctx, def, id) });
          return r;
        }
        case 'erc1155-batch-out': {
          const def = rng.pick(ctx.erc1155);
          const ids = [rng.int(1, def.supply), rng.int(1, def.supply)];
          const r = rec(call(address, def.address, '0x2eb2c2d6', 'safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)',
            pad32(address) + pad32(other) + rng.hex(96)));
          const log = rng.int(0, 3);
          ids.forEach((id, i) => {
            r.erc1155.push({ from: info(ctx, address), to: info(ctx, other), logIndex: log + i, value: String(rng.int(1, 10)), erc1155Token: erc1155Token(ctx, def, id) });
          });
          return r;
        }
        case 'claim': {
          const reward = ctx.erc20[ctx.erc20.length - 2] ?? wrapped;
          const amount = tokenAmount(rng, reward);
          const fee = amount / 20n;
          const nativeReward = nativeValue() / 10n;
          const r = rec(call(address, ctx.staking.address, '0x4e71d92d', 'claim()', ''));
          const log = rng.int(0, 3);
          r.erc20.push(erc20Transfer(ctx, reward, ctx.staking.address, address, amount, log));
          r.erc20.push(erc20Transfer(ctx, reward, ctx.staking.address, ctx.team, fee, log + 1));
          r.internal.push(internalTx(ctx, ctx.staking.address, address, 'CALL', nativeReward, rng));
          r.internal.push(internalTx(ctx, ctx.staking.address, ctx.team, 'UNKNOWN', nativeReward / 10n, rng));
          return r;
        }
      }
    }

    const firstBlock = records[0]?.blockNumber ?? ctx.anchorBlock;
    const finalBalance = records.length === 0 ? 0n : isFixture
      ? BigInt(rng.int(500, 50_000)) * 10n ** 17n + BigInt(rng.int(0, 1_000_000))
      : BigInt(rng.int(0, 200_000)) * 10n ** 15n;
    const holdings = isFixture ? 10 + rng.int(0, 4) : rng.int(0, 3);
    const erc1155: History['erc1155'] = [];
    const seen = new Set<string>();
    for (let i = 0; i < holdings && records.length > 0; i++) {
      const contract = rng.pick(ctx.erc1155);
      const tokenId = rng.int(1, contract.supply);
      const key = `${contract.address}:${tokenId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      erc1155.push({ contract, tokenId, balance: BigInt(rng.int(1, 250)), sinceBlock: rng.int(firstBlock, ctx.anchorBlock) });
    }
    erc1155.sort((a, b) => a.contract.address.localeCompare(b.contract.address) || a.tokenId - b.tokenId);
    return { records, firstBlock, finalBalance, erc1155 };
  }

  const history = (ctx: ChainCtx, address: string): History =>
    histories.getOrCreate(`${ctx.idx}:${address}`, () => buildHistory(ctx, address));

  function inRange(block: number, range: BlockRange): boolean {
    return (range.startBlock === undefined || block >= range.startBlock) && (range.endBlock === undefined || block < range.endBlock);
  }

  function stripFull(tx: FullNativeTransaction): NativeTransaction {
    const { input: _input, baseFeePerGas: _base, maxFeePerGas: _max, maxPriorityFeePerGas: _tip, ...rest } = tx;
    return rest;
  }

  function fullView(ctx: ChainCtx, rec: TxRecord, currency: CurrencyCode): FullTransaction {
    const out: FullTransaction = {
      erc20Transfers: rec.erc20,
      erc721Transfers: rec.erc721,
      erc1155Transfers: rec.erc1155,
      internalTransactions: rec.internal,
      networkTokenDetails: {
        networkToken: ctx.token,
        currentPrice: price(ctx.usdPrice, currency),
        historicalPrice: price(historicalUsd(ctx.usdPrice, rec.native.blockTimestamp), currency),
      },
      nativeTransaction: rec.native,
    };
    if (rec.teleporter) out.teleporterMessageInfo = rec.teleporter;
    return out;
  }

  // ------------------------------------------------------------ ICM

  function icmChains(): ChainCtx[] {
    const enabled = ctxs.filter((c) => c.chain.enabledFeatures?.includes('teleporter'));
    return enabled.length >= 2 ? enabled : ctxs;
  }

  function buildIcm(address: string): IcmRecord[] {
    const chains = icmChains();
    if (chains.length < 2) return [];
    const rng = new Rng(`${secret}:icm:${address}`);
    const count = address === fixtureAddress ? (network === 'mainnet' ? 42 : 24) : rng.int(0, 6);
    const out: IcmRecord[] = [];
    for (let index = 0; index < count; index++) {
      const src = rng.pick(chains);
      const dst = rng.pick(chains.filter((c) => c !== src));
      const counterpartyAddr = rng.evmAddress();
      const outgoing = rng.bool();
      const sourceTs = anchor - rng.int(60, 60 * DAY);
      const sourceBlock = blockAt(src, sourceTs);
      const delivered = sourceTs < anchor - DAY ? rng.bool(0.85) : rng.bool(0.3);
      const fee = rng.pick(src.erc20);
      const feeValue = rng.bool(0.3) ? 0n : tokenAmount(rng, fee) / 100n;
      const nonce = String(rng.int(1, 90_000));
      const message: IcmMessage = {
        messageId: hashHex(`${secret}:icm-id:${address}:${index}`),
        icmContractAddress: TELEPORTER_ADDRESS,
        sourceBlockchainId: src.seed.blockchainId,
        destinationBlockchainId: dst.seed.blockchainId,
        sourceEvmChainId: src.evmChainId,
        destinationEvmChainId: dst.evmChainId,
        messageNonce: nonce,
        from: outgoing ? address : counterpartyAddr,
        to: outgoing ? counterpartyAddr : address,
        data: `0x${rng.hex(rng.int(2, 6) * 32)}`,
        messageExecuted: delivered,
        receipts: [],
        receiptDelivered: delivered && rng.bool(0.5),
        rewardDetails: {
          address: fee.address, name: fee.name, symbol: fee.symbol, decimals: fee.decimals,
          logoUri: fee.logoUri, ercType: 'ERC-20', price: price(fee.usdPrice, 'usd'), value: String(feeValue),
        },
        sourceTransaction: {
          txHash: encodeTxHash(secret, { kind: 1, chainIdx: src.idx, address, index }),
          timestamp: blockTimestamp(src, sourceBlock),
          gasSpent: String(rng.int(150_000, 600_000)),
        },
        status: delivered ? 'delivered' : 'pending',
      };
      const record: IcmRecord = { message, index, src, dst, sourceBlock };
      if (delivered) {
        const destinationBlock = blockAt(dst, sourceTs + rng.int(2, 40));
        record.destinationBlock = destinationBlock;
        const relayer = derivedAddress(`${secret}:relayer:${dst.evmChainId}`);
        message.receipts = message.receiptDelivered
          ? [{ receivedMessageNonce: nonce, relayerRewardAddress: relayer }]
          : [];
        message.destinationTransaction = {
          txHash: encodeTxHash(secret, { kind: 2, chainIdx: dst.idx, address, index }),
          timestamp: blockTimestamp(dst, destinationBlock),
          gasSpent: String(rng.int(200_000, 900_000)),
          rewardRedeemer: relayer,
          delivererAddress: relayer,
        };
      }
      out.push(record);
    }
    return out;
  }

  const icm = (address: string): IcmRecord[] => icmCache.getOrCreate(address, () => buildIcm(address));

  /** The source or destination transaction of an ICM message, as a complete transaction. */
  function icmTransaction(ctx: ChainCtx, rec: IcmRecord, side: 1 | 2): TxRecord | undefined {
    const m = rec.message;
    const rng = new Rng(`${secret}:icm-tx:${m.messageId}:${side}`);
    const source = side === 1;
    const block = source ? rec.sourceBlock : rec.destinationBlock;
    const txInfo = source ? m.sourceTransaction : m.destinationTransaction;
    if (block === undefined || !txInfo || ctx !== (source ? rec.src : rec.dst)) return undefined;
    const sender = source ? m.from : (m.destinationTransaction?.delivererAddress ?? m.to);
    const methodHash = source ? '0x62448850' : '0xccb5f809';
    const gasUsed = Number(txInfo.gasSpent);
    const tip = BigInt(rng.int(0, 2_000)) * 1_000_000n;
    const native = nativeTx(ctx, {
      block, blockIndex: rng.int(0, 20), hash: txInfo.txHash, from: sender, to: TELEPORTER_ADDRESS, value: 0n,
      nonce: rng.int(0, 20_000), callType: 'CONTRACT_CALL', methodHash,
      methodName: source
        ? 'sendCrossChainMessage((bytes32,address,(address,uint256),uint256,address[],bytes))'
        : 'receiveCrossChainMessage(uint32,address)',
      input: `${methodHash}${rng.hex(160)}`,
      gasLimit: Math.floor(gasUsed * 1.3), gasUsed, failed: false, legacy: false, tip,
    });
    const out: TxRecord = { blockNumber: block, native, erc20: [], erc721: [], erc1155: [], internal: [] };
    const fee = ctx.contracts.get(m.rewardDetails.address);
    if (source && fee && m.rewardDetails.value !== '0') {
      out.erc20.push(erc20Transfer(ctx, fee, sender, TELEPORTER_ADDRESS, BigInt(m.rewardDetails.value), 0));
    }
    if (!source) out.internal.push(internalTx(ctx, TELEPORTER_ADDRESS, m.to, 'CALL', 0n, rng));
    out.teleporter = source
      ? { teleporterMessageId: m.messageId, direction: 'SOURCE_TRANSACTION', destinationChainId: m.destinationBlockchainId }
      : { teleporterMessageId: m.messageId, direction: 'DESTINATION_TRANSACTION', sourceChainId: m.sourceBlockchainId };
    return out;
  }

  // ------------------------------------------------------------ operations

  function newOperationId(): string {
    operationCounter += 1;
    return uuidFrom(sha256(`${secret}:operation:${operationCounter}`));
  }

  function remember(op: OperationRecord): void {
    operations.set(op.id, op);
    if (operations.size > MAX_OPERATIONS) {
      const oldest = operations.keys().next();
      if (!oldest.done) operations.delete(oldest.value);
    }
  }

  function operationView(op: OperationRecord): ExportOperation {
    const created = Math.floor(op.createdMs / 1000);
    const done = now() - op.createdMs >= EXPORT_RUN_MS;
    const base = { operationId: op.id, operationType: op.type, createdAtTimestamp: created };
    if (!done) {
      return { ...base, operationStatus: 'RUNNING', message: 'The export is running.', metadata: {}, updatedAtTimestamp: created };
    }
    const updatedAtTimestamp = Math.floor((op.createdMs + EXPORT_RUN_MS) / 1000);
    if (op.failure) {
      return { ...base, operationStatus: 'FAILED', message: op.failure, metadata: { code: 'ErrInvalidRequest' }, updatedAtTimestamp };
    }
    const downloadUrl = `https://exports.devnet.invalid/${network}/${op.id}.csv`;
    if (op.nextDate) {
      return {
        ...base, operationStatus: 'COMPLETED_WITH_WARNING',
        message: `The export was truncated; continue from ${op.nextDate}.`,
        metadata: { code: 'WarnTruncatedExport', downloadUrl, nextDate: op.nextDate }, updatedAtTimestamp,
      };
    }
    return { ...base, operationStatus: 'COMPLETED', message: 'The export is ready.', metadata: { downloadUrl }, updatedAtTimestamp };
  }

  function createExport(request: ExportRequest): ExportOperation {
    const op: OperationRecord = { id: newOperationId(), type: request.type, createdMs: now() };
    if (request.unknownChains && request.unknownChains.length > 0) {
      // Kept for up to MAX_OPERATIONS operations: name a few chains, not a caller's whole list.
      const named = request.unknownChains.slice(0, 5).map((id) => id.slice(0, 100));
      const more = request.unknownChains.length - named.length;
      op.failure = `Unknown chain(s) in includeChains: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    } else if (request.firstDate && request.lastDate) {
      const first = Date.parse(`${request.firstDate}T00:00:00Z`) / 1000;
      const last = Date.parse(`${request.lastDate}T00:00:00Z`) / 1000;
      if ((last - first) / DAY >= EXPORT_MAX_DAYS) op.nextDate = isoDate(first + EXPORT_MAX_DAYS * DAY);
    }
    remember(op);
    return operationView(op);
  }

  // A finished export that exists from the start, for examples and tests.
  const fixtureOperation: OperationRecord = {
    id: uuidFrom(sha256(`${secret}:operation:fixture`)),
    type: 'TRANSACTION_EXPORT_EVM',
    createdMs: (anchor - 3_600) * 1000,
  };
  remember(fixtureOperation);

  // ------------------------------------------------------------ fixtures

  let fixtureCache: EvmFixtures | undefined;
  function fixtures(): EvmFixtures {
    if (fixtureCache) return fixtureCache;
    const c = ctxs[0];
    if (!c) throw new Error(`no EVM chains on ${network}`);
    const records = history(c, fixtureAddress).records;
    const showcase = [...records].reverse().find((r) =>
      r.native.txStatus === '1' && (r.native.method?.methodName ?? '').startsWith('swapExactTokensForAVAX'))
      ?? [...records].reverse().find((r) => r.internal.length > 0) ?? records[0];
    const nft = records.find((r) => r.erc721.length > 0 && r.erc721[0]?.to.address === fixtureAddress)?.erc721[0]?.erc721Token;
    const erc1155 = history(c, fixtureAddress).erc1155[0];
    const deployed = c.erc20[c.erc20.length - 1] as ContractDef;
    const icmSource = icm(fixtureAddress)[0]?.message.sourceTransaction;
    const subnet = ctxs[1];
    fixtureCache = {
      evmChainId: c.evmChainId,
      address: fixtureAddress,
      contractAddress: deployed.address,
      nftContract: nft?.address ?? (c.erc721[0] as ContractDef).address,
      nftTokenId: nft?.tokenId ?? '1',
      txHash: showcase?.native.txHash ?? '',
      icmAddress: fixtureAddress,
      operationId: fixtureOperation.id,
      blockchainId: c.seed.blockchainId,
      erc1155Contract: erc1155?.contract.address ?? (c.erc1155[0] as ContractDef).address,
      erc1155TokenId: String(erc1155?.tokenId ?? 1),
      deploymentTxHash: records[deployed.deployIndex]?.native.txHash ?? '',
      ...(icmSource ? { icmSourceTxHash: icmSource.txHash, icmSourceEvmChainId: icm(fixtureAddress)[0]?.message.sourceEvmChainId ?? '' } : {}),
      ...(subnet ? { subnetEvmChainId: subnet.evmChainId } : {}),
    };
    return fixtureCache;
  }

  // ------------------------------------------------------------ the interface

  const find = (chainId: string): ChainCtx | undefined => byId.get(chainId);
  const norm = (address: string): string => address.toLowerCase();

  return {
    network,
    chains: () => ctxs.map((c) => c.chain),
    hasChain: (chainId) => byId.has(chainId),
    latestBlock: (chainId) => {
      const ctx = find(chainId);
      return ctx ? latest(ctx) : undefined;
    },

    addressTransactions(chainId, address, range) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      const a = norm(address);
      const involved = (t: { from: AddressInfo; to: AddressInfo }): boolean => t.from.address === a || t.to.address === a;
      return history(ctx, a).records
        .filter((r) => inRange(r.blockNumber, range))
        .map((r) => ({
          nativeTransaction: stripFull(r.native),
          erc20Transfers: r.erc20.filter(involved),
          erc721Transfers: r.erc721.filter(involved),
          erc1155Transfers: r.erc1155.filter(involved),
          internalTransactions: r.internal.filter(involved),
        }));
    },

    nativeTransactions(chainId, address, range) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      const a = norm(address);
      return history(ctx, a).records
        .filter((r) => inRange(r.blockNumber, range) && (r.native.from.address === a || r.native.to.address === a))
        .map((r) => stripFull(r.native));
    },

    nativeBalance(chainId, address, blockNumber, currency) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      const h = history(ctx, norm(address));
      const block = blockNumber ?? latest(ctx);
      // Grows linearly from the first activity to the final balance: monotone and deterministic per block.
      let balance = h.finalBalance;
      if (block < h.firstBlock) balance = 0n;
      else if (block < ctx.anchorBlock) {
        balance = (h.finalBalance * BigInt(block - h.firstBlock + 1)) / BigInt(ctx.anchorBlock - h.firstBlock + 1);
      }
      const usd = toUnits(balance, ctx.token.decimals) * ctx.usdPrice;
      return {
        name: ctx.token.name, symbol: ctx.token.symbol, decimals: ctx.token.decimals, logoUri: ctx.token.logoUri ?? '',
        chainId: ctx.evmChainId, price: price(ctx.usdPrice, currency), balance: String(balance), balanceValue: price(usd, currency),
      };
    },

    erc1155Balances(chainId, address, blockNumber, contractAddress) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      const block = blockNumber ?? latest(ctx);
      const contract = contractAddress ? norm(contractAddress) : undefined;
      return history(ctx, norm(address)).erc1155
        .filter((b) => b.sinceBlock <= block && (!contract || b.contract.address === contract))
        .map((b) => {
          const token = erc1155Token(ctx, b.contract, b.tokenId);
          return { ...token, chainId: ctx.evmChainId, balance: String(b.balance) };
        });
    },

    deployment(chainId, contractAddress, currency) {
      const ctx = find(chainId);
      const def = ctx?.contracts.get(norm(contractAddress));
      if (!ctx || !def) return undefined;
      const rec = history(ctx, def.deployer).records[def.deployIndex];
      return rec ? fullView(ctx, rec, currency) : undefined;
    },

    transaction(chainId, txHash, currency) {
      const ctx = find(chainId);
      if (!ctx) return undefined;
      const target = decodeTxHash(secret, txHash);
      if (!target || target.chainIdx !== ctx.idx) return undefined;
      if (target.kind === 0) {
        const rec = history(ctx, target.address).records[target.index];
        return rec ? fullView(ctx, rec, currency) : undefined;
      }
      const msg = icm(target.address)[target.index];
      const rec = msg ? icmTransaction(ctx, msg, target.kind) : undefined;
      return rec ? fullView(ctx, rec, currency) : undefined;
    },

    nftToken(chainId, contractAddress, tokenId) {
      const ctx = find(chainId);
      const def = ctx?.contracts.get(norm(contractAddress));
      if (!ctx || !def || !/^[0-9]{1,15}$/.test(tokenId)) return undefined;
      const id = Number(tokenId);
      if (id < 1 || id > def.supply) return undefined;
      if (def.kind === 'erc721') return erc721Token(ctx, def, id);
      if (def.kind === 'erc1155') return erc1155Token(ctx, def, id);
      return undefined;
    },

    icmMessages(address) {
      return icm(norm(address))
        .map((r) => r.message)
        .sort((a, b) => (b.sourceTransaction?.timestamp ?? 0) - (a.sourceTransaction?.timestamp ?? 0) || a.messageId.localeCompare(b.messageId));
    },

    createExport,
    operation(operationId) {
      const op = operations.get(operationId.toLowerCase());
      return op ? operationView(op) : undefined;
    },
    fixtures,
  };
}
