// The internal model of the devnet's EVM data: constants, the per-network
// environment, and the records generators build (chains, contracts, histories,
// ICM messages, export operations).
import type {
  Chain,
  CurrencyCode,
  Erc1155Transfer,
  Erc20Transfer,
  Erc721Transfer,
  FullNativeTransaction,
  IcmMessage,
  InternalTransaction,
  NetworkToken,
  TeleporterMessageInfo,
} from '../../../shapes/index.ts';
import type { EvmChainSeed, EvmNetwork } from './types.ts';

/** What every generator of one network reads: fixed when the network's data is created. */
export interface EvmEnv {
  network: EvmNetwork;
  /** Seed and network: the root of every derived value. */
  secret: string;
  /** Start (s) of the day the dataset was built: histories end there, stable across restarts that day. */
  anchor: number;
  /** The address with a full history on every chain (the fixtures' `address`). */
  fixtureAddress: string;
  /**
   * The two example addresses of live activity (the fixtures' `activityAddress`, `activityPeerAddress`): the
   * first transaction of every block after `anchor`, on every chain, is between them (see blocks.ts).
   */
  activityAddresses: readonly [string, string];
  now: () => number;
}

// ---------------------------------------------------------------- constants

export const DAY = 86_400;
/** Token ids 1..RESERVED_NFT_IDS of every ERC-721 collection belong to the fixture address. */
export const RESERVED_NFT_IDS = 16;
export const ERC1155_IDS_PER_COLLECTION = 40;
export const HISTORY_CACHE_SIZE = 512;
export const ICM_CACHE_SIZE = 512;
export const MAX_OPERATIONS = 10_000;
/** How long an export stays RUNNING. */
export const EXPORT_RUN_MS = 3_000;
/** Exports spanning more days than this complete with a truncation warning. */
export const EXPORT_MAX_DAYS = 366;
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** The TeleporterMessenger address, the same on every chain. */
export const TELEPORTER_ADDRESS = '0x253b2784c75e510dd0ff1da844684a1ac0aa5fcf';
export const MULTICALL3_ADDRESS = '0xca11bde05977b3631167028862be2a173976ca11';
export const C_CHAIN_GENESIS_TS = 1_600_858_926;

/** Units of each currency per US dollar. */
export const USD_RATES: Record<CurrencyCode, number> = {
  usd: 1, eur: 0.92, aud: 1.52, cad: 1.36, chf: 0.88, clp: 945, cny: 7.2,
  czk: 23.1, dkk: 6.87, gbp: 0.79, hkd: 7.8, huf: 365, jpy: 150, nzd: 1.66,
};

export const COLLECTION_STEMS = ['Punks', 'Kittens', 'Knights', 'Lands', 'Relics', 'Voyagers', 'Sprites'];
export const ITEM_STEMS = ['Items', 'Badges', 'Potions', 'Tickets', 'Cards'];
export const TRAITS: Record<string, string[]> = {
  Background: ['Red', 'Blue', 'Snow', 'Night', 'Gold'],
  Eyes: ['Laser', 'Sleepy', 'Wide', 'Wink'],
  Hat: ['None', 'Crown', 'Cap', 'Helmet'],
};
export const RARITIES = ['common', 'uncommon', 'rare', 'epic', 'legendary'];

// ---------------------------------------------------------------- internal model

export type ContractKind = 'erc20' | 'erc721' | 'erc1155' | 'router' | 'staking';

export interface ContractDef {
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

export interface ChainCtx {
  /** The network-wide settings every generator reads. */
  env: EvmEnv;
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

export type Kind =
  | 'native-out' | 'native-in' | 'erc20-out' | 'erc20-in' | 'swap-buy' | 'swap-sell'
  | 'nft-mint' | 'nft-in' | 'erc1155-in' | 'erc1155-batch-out' | 'claim';

export const FIXTURE_KINDS: Kind[] = [
  'native-out', 'erc20-in', 'swap-buy', 'nft-mint', 'erc1155-in', 'claim',
  'native-in', 'erc20-out', 'swap-sell', 'nft-in', 'erc1155-batch-out',
];
export const WEIGHTED_KINDS: Kind[] = [
  'native-out', 'native-out', 'native-in', 'native-in', 'native-in', 'erc20-out', 'erc20-in', 'erc20-in',
  'swap-buy', 'swap-sell', 'nft-mint', 'nft-in', 'erc1155-in', 'erc1155-batch-out', 'claim',
];

/** One transaction, complete (every transfer, not only the owner's). */
export interface TxRecord {
  blockNumber: number;
  native: FullNativeTransaction;
  erc20: Erc20Transfer[];
  erc721: Erc721Transfer[];
  erc1155: Erc1155Transfer[];
  internal: InternalTransaction[];
  teleporter?: TeleporterMessageInfo;
}

export interface History {
  records: TxRecord[];
  firstBlock: number;
  finalBalance: bigint;
}

export interface IcmRecord {
  message: IcmMessage;
  index: number;
  src: ChainCtx;
  dst: ChainCtx;
  sourceBlock: number;
  destinationBlock?: number;
}

export interface OperationRecord {
  id: string;
  type: string;
  createdMs: number;
  failure?: string;
  nextDate?: string;
}
