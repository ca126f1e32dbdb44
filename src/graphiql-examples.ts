/**
 * The queries GraphiQL opens with. Each runs on the built-in devnet; ids come
 * from the devnet's fixtures at start-up (see `server.ts`), so they always have data.
 */
export const EXAMPLE_QUERIES = `# Welcome to chaingraph. Pick an operation with the ▶ button.

query ValidatorWalk {
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
}

query AddressActivity {
  chain(chainId: "43114") {
    chainName
    address(address: "0x0000000000000000000000000000000000000000") {
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
    peers(first: 5) { edges { node { nodeID version observedUptime validator(network: MAINNET) { amountStaked } } } }
  }
}
`;
