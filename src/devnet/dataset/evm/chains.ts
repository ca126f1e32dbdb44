// The EVM chains of one network: the E17 object, the native token, and the
// contracts (tokens, NFT collections, a router, a staking contract) with their
// deployments; and the block clock of each chain.
import type { Chain, ChainFeature, NetworkToken } from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { encodeBlockHash } from './block-hash.ts';
import { derivedAddress, slugOf, symbolOf } from './helpers.ts';
import {
  C_CHAIN_GENESIS_TS, COLLECTION_STEMS, DAY, ERC1155_IDS_PER_COLLECTION, ITEM_STEMS, MULTICALL3_ADDRESS,
  type ChainCtx, type ContractDef, type ContractKind, type EvmEnv,
} from './model.ts';
import type { EvmChainSeed } from './types.ts';

export function buildChain(env: EvmEnv, c: EvmChainSeed, idx: number): ChainCtx {
  const { network, secret, anchor, fixtureAddress } = env;
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
    env, idx, seed: c, evmChainId: String(c.evmChainId), genesisTs, blockTime, anchorBlock, historyLo,
    baseFee: c.isCChain ? 25_000_000_000n : BigInt(rng.int(1, 10)) * 1_000_000_000n,
    token, usdPrice, chain, erc20, erc721, erc1155, router, staking, team, contracts, deploymentsBy,
  };
}

export const blockTimestamp = (ctx: ChainCtx, block: number): number => ctx.genesisTs + block * ctx.blockTime;
export const blockAt = (ctx: ChainCtx, ts: number): number => Math.max(0, Math.floor((ts - ctx.genesisTs) / ctx.blockTime));
// Decodable (getBlock takes a number or a hash): see block-hash.ts.
export const blockHash = (ctx: ChainCtx, block: number): string => encodeBlockHash(ctx.env.secret, ctx.evmChainId, block);
export const latest = (ctx: ChainCtx): number => Math.max(ctx.anchorBlock, blockAt(ctx, Math.floor(ctx.env.now() / 1000)));
