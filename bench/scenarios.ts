import { VALIDATOR_WALK } from '../src/gateway/graphiql-examples.ts';

/** The benchmark scenarios; ids come from the devnet's fixtures. */
export interface Scenario {
  id: string;
  description: string;
  query: string;
  /** Also measured with the cache on. */
  cached: boolean;
  /** Sends this many identical queries at once (S5). */
  concurrent?: number;
}

export interface Fixtures {
  evmChainId: string;
  address: string;
}

export const S2_QUERY = VALIDATOR_WALK;

export function buildScenarios(f: Fixtures): Scenario[] {
  return [
    {
      id: 'S1',
      description: 'validators(first: 10) with plain fields',
      cached: true,
      query: `{ network(name: MAINNET) { validators(first: 10) { edges { node { nodeId txHash amountStaked startTimestamp endTimestamp validationStatus } } } } }`,
    },
    { id: 'S2', description: 'the validator walk', cached: true, query: S2_QUERY },
    {
      id: 'S3',
      description: 'an address page with transfers and balances',
      cached: true,
      query: `{ chain(chainId: "${f.evmChainId}") { address(address: "${f.address}") {
        nativeBalance { balance symbol }
        erc1155Balances(first: 10) { edges { node { tokenId balance } } }
        transactions(first: 25) { edges { node {
          nativeTransaction { txHash blockNumber value from { address } to { address } }
          erc20Transfers { value erc20Token { symbol decimals } }
          erc721Transfers { erc721Token { tokenId } }
          erc1155Transfers { value erc1155Token { tokenId } }
        } } }
      } } }`,
    },
    {
      id: 'S4',
      description: 'a node overview: version, health, peers with their validators',
      cached: true,
      query: `{ avalancheNode { name nodeId version { version databaseVersion } health { healthy }
        peers(first: 50) { edges { node { nodeID version observedUptime validator { nodeId amountStaked } } } } } }`,
    },
    { id: 'S5', description: '50 concurrent identical S2', cached: false, concurrent: 50, query: S2_QUERY },
  ];
}
