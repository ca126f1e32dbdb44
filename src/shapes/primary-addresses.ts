/**
 * The public spec's primary-network reads beyond the seed that key on addresses or on
 * L1 validations: the L1 validators of a network (listL1Validators), the chains a set
 * of P/X addresses is active on (getChainIdsForAddresses) and their last activity on a
 * chain (getLastActivityTimestampByAddresses, GET and POST).
 *
 * The spec types L1 amounts (`weight`, `remainingBalance`) and times as numbers: read as
 * wide integers, so a value beyond 2^53 is served exactly or fails its field.
 */
import * as v from 'valibot';
import { NETWORKS, pageOf, PRIMARY_CHAIN_IDS, type PageParams } from './common.ts';
import { perKit, type Kit } from './kit.ts';

/** The spec's BlockchainIds enum: the primary chains of mainnet and fuji (P is the same id on both). */
export const PRIMARY_BLOCKCHAIN_IDS = [...new Set(Object.values(PRIMARY_CHAIN_IDS).flatMap((ids) => [ids.p, ids.x, ids.c]))];

/** The spec's PrimaryNetworkChainName. */
export const PRIMARY_CHAIN_NAMES = ['p-chain', 'x-chain', 'c-chain'] as const;

export const describePrimaryAddresses = perKit((k: Kit) => {
  /** The spec's BalanceOwner: who may spend a balance, a threshold of these addresses. */
  const BalanceOwner = v.object({ addresses: v.array(k.string), threshold: k.wideInteger });

  /** The spec's L1ValidatorDetailsFull. `blsCredentials` is an untyped object in the spec. */
  const L1Validator = v.object({
    validationId: k.string,
    validationIdHex: k.string,
    nodeId: k.string,
    subnetId: k.string,
    weight: k.wideInteger,
    remainingBalance: k.wideInteger,
    creationTimestamp: k.wideInteger,
    blsCredentials: v.record(v.string(), k.unknown),
    remainingBalanceOwner: BalanceOwner,
    deactivationOwner: BalanceOwner,
  });

  /** The spec's ChainAddressChainIdMap: an address and the primary chains it has activity on. */
  const AddressChainIds = v.object({ address: k.string, blockchainIds: v.array(k.openEnum(PRIMARY_BLOCKCHAIN_IDS)) });

  /** The spec's LastActivityTimestamp: the latest UTXO created or consumed for a set of addresses. */
  const LastActivityTimestamp = v.object({
    timestamp: k.wideInteger,
    blockNumber: k.decimal,
    txHash: k.string,
    utxoId: k.string,
    isConsumed: k.boolean,
    chainName: k.openEnum(PRIMARY_CHAIN_NAMES),
    network: k.openEnum(NETWORKS),
  });

  return {
    BalanceOwner,
    L1Validator,
    ListL1ValidatorsResponse: pageOf(k, { validators: v.array(L1Validator), blockHeight: k.decimal }),
    ChainAddressChainIdMapListResponse: v.object({ addresses: v.array(AddressChainIds) }),
    LastActivityTimestamp,
  };
});

type PrimaryAddressShapes = ReturnType<typeof describePrimaryAddresses>;

export type L1Validator = v.InferOutput<PrimaryAddressShapes['L1Validator']>;
export type ListL1ValidatorsResponse = v.InferOutput<PrimaryAddressShapes['ListL1ValidatorsResponse']>;
export type ChainAddressChainIdMapListResponse = v.InferOutput<PrimaryAddressShapes['ChainAddressChainIdMapListResponse']>;
export type LastActivityTimestamp = v.InferOutput<PrimaryAddressShapes['LastActivityTimestamp']>;

/** listL1Validators' query parameters. */
export interface ListL1ValidatorsParams extends PageParams {
  l1ValidationId?: string;
  includeInactiveL1Validators?: boolean;
  nodeId?: string;
  subnetId?: string;
}

/** listAssetTransactions' query parameters. */
export interface ListAssetTransactionsParams extends PageParams {
  /** Sent as a repeated parameter (the spec declares an array, form style). */
  txTypes?: string[];
  startTimestamp?: number;
  endTimestamp?: number;
}

/** Addresses sent as one comma-separated value (a query parameter or the JSON body's `addresses`). */
export interface PrimaryAddressesParams {
  addresses: string[];
}
