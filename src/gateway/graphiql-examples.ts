/** The validator walk: 50 active validators with their delegators, pending rewards, subnet and peer. */
export const VALIDATOR_WALK = `query ValidatorWalk {
  network(name: MAINNET) {
    validators(first: 50, filter: { validationStatus: ACTIVE }) {
      pageInfo { hasNextPage endCursor }
      edges { node {
        id nodeId amountStaked
        delegators(first: 5) { edges { node { txHash amountDelegated } } }
        pendingRewards(first: 5) { edges { node { estimatedReward { amount } } } }
        subnet { subnetId }
        peer { ip version observedUptime }
      } }
    }
  }
}`;

/** Sample ids for the address example; the devnet's fixtures provide ones with data behind them. */
export interface ExampleIds {
  evmChainId: string;
  address: string;
}

/**
 * The queries GraphiQL opens with. On the built-in devnet `server.ts` passes the
 * devnet's fixtures, so every example returns data.
 */
export const exampleQueries = (ids: ExampleIds = { evmChainId: '43114', address: '0x0000000000000000000000000000000000000000' }): string => `# Welcome to chaingraph. Pick an operation with the ▶ button.

${VALIDATOR_WALK}

query AddressActivity {
  chain(chainId: "${ids.evmChainId}") {
    chainName
    address(address: "${ids.address}") {
      nativeBalance { balance symbol }
      transactions(first: 5) {
        edges { node {
          nativeTransaction { txHash blockTimestamp value }
          erc20Transfers { value erc20Token { symbol } }
          erc721Transfers { erc721Token { tokenId } }
        } }
      }
    }
  }
}

query WalletScreen {
  chain(chainId: "${ids.evmChainId}") {
    chainName
    address(address: "${ids.address}") {
      nativeBalance { name symbol decimals balance balanceValue { value currencyCode } }
      erc20Balances(first: 10) {
        edges { node { name symbol decimals balance balanceValue { value currencyCode } token { address } } }
      }
      collectibleBalances(first: 10) {
        edges { node {
          __typename
          ... on Erc721TokenBalance { address name symbol tokenId metadata { name imageUri } }
          ... on Erc1155TokenBalance { address tokenId balance metadata { name imageUri } }
        } }
      }
    }
  }
}

query EvmBlockExplorer {
  chain(chainId: "${ids.evmChainId}") {
    chainName
    blocks(first: 3) {
      edges { node {
        blockNumber blockHash blockTime txCount gasUsed
        transactions(first: 5) {
          edges { node {
            txHash from { address } to { address } value
            transaction { erc20Transfers { value erc20Token { symbol decimals contract { name } } } }
          } }
        }
      } }
    }
  }
}

query SubnetWithChains {
  network(name: MAINNET) {
    subnets(first: 3) {
      edges { node {
        subnetId isL1
        blockchains { blockchainId blockchainName evmChain { chainId chainName rpcUrl } }
      } }
    }
  }
}

query NodeOverview {
  avalancheNode {
    name
    version { version databaseVersion }
    health { healthy }
    peers(first: 5) { edges { node { nodeId version observedUptime validator { nodeId amountStaked } } } }
  }
}
`;
