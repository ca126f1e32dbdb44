import type { Dataset } from './dataset/index.ts';
import type { DevnetHandler } from './http-types.ts';
import { compileRoutes } from './router.ts';
import { evmRoutes } from './routes/evm.ts';
// EVM blocks, latest transactions, contracts and transfers
import { evmBlockRoutes } from './routes/evm-blocks.ts';
import { primaryRoutes } from './routes/primary.ts';
// EVM address tokens: balances and transfer listings
import { evmAddressRoutes } from './routes/evm-address.ts';
// Primary-network transactions, balances and assets
import { primaryTxRoutes } from './routes/primary-tx.ts';
// Primary-network lookups, network details and supply, ICM messages by id
import { lookupRoutes } from './routes/lookups.ts';

/** The devnet's Data API (`/v1/...`): the primary-network and EVM routes over one dataset. */
export function createDataApiHandler(dataset: Dataset): DevnetHandler {
  return compileRoutes([...primaryRoutes(dataset), ...primaryTxRoutes(dataset), ...evmRoutes(dataset), ...evmBlockRoutes(dataset.evm), ...lookupRoutes(dataset), ...evmAddressRoutes(dataset.evm)]);
}
