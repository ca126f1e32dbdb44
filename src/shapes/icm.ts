/**
 * Interchain messaging: ICM messages by address (E16) and Warp signature
 * aggregation (E1, E2).
 */
import * as v from 'valibot';
import { describeCommon, pageOf, type Network, type PageParams } from './common.ts';
import { perKit, type Kit } from './kit.ts';

export const ICM_MESSAGE_STATUSES = ['pending', 'delivered', 'delivered_source_not_indexed'] as const;

export const describeIcm = perKit((k: Kit) => {
  const { Price } = describeCommon(k);

  /**
   * The seed saw only `pending`; the public spec adds `delivered` (with the
   * destination transaction) and `delivered_source_not_indexed` (no source transaction).
   */
  const IcmMessage = k.requires(v.object({
    messageId: k.string,
    icmContractAddress: k.string,
    sourceBlockchainId: k.string,
    destinationBlockchainId: k.string,
    sourceEvmChainId: k.string,
    destinationEvmChainId: k.string,
    messageNonce: k.decimal,
    from: k.string,
    to: k.string,
    data: v.optional(k.string),
    messageExecuted: k.boolean,
    receipts: v.array(v.object({ receivedMessageNonce: k.decimal, relayerRewardAddress: k.string })),
    receiptDelivered: k.boolean,
    rewardDetails: v.object({
      address: k.string,
      name: k.string,
      symbol: k.string,
      decimals: k.int32,
      logoUri: v.optional(k.string),
      ercType: k.mayBeAbsent(k.string),
      price: v.optional(Price),
      value: k.decimal,
    }),
    sourceTransaction: v.optional(v.object({ txHash: k.string, timestamp: k.wideInteger, gasSpent: k.decimal })),
    destinationTransaction: v.optional(v.object({
      txHash: k.string,
      timestamp: k.wideInteger,
      gasSpent: k.decimal,
      rewardRedeemer: k.string,
      delivererAddress: k.string,
    })),
    status: k.mayBeAbsent(k.openEnum(ICM_MESSAGE_STATUSES)),
  }), { tag: 'status', byValue: { pending: ['sourceTransaction'], delivered: ['sourceTransaction'] } });

  /** E1 and E2. The seed says "(hex)" without fixing a `0x` prefix. */
  const SignedMessage = v.object({ signedMessage: k.pattern(/^(0x)?([0-9a-fA-F]{2})+$/, 'a hex string') });

  return {
    IcmMessage,
    SignedMessage,
    ListIcmMessagesResponse: pageOf(k, { messages: v.array(IcmMessage) }),
  };
});

type Icm = ReturnType<typeof describeIcm>;

export type IcmMessage = v.InferOutput<Icm['IcmMessage']>;
export type SignedMessage = v.InferOutput<Icm['SignedMessage']>;
export type ListIcmMessagesResponse = v.InferOutput<Icm['ListIcmMessagesResponse']>;

export interface ListIcmMessagesParams extends PageParams {
  network?: Network;
}

/** E1's body. */
export interface AggregateSignaturesBody {
  message?: string;
  justification?: string;
  signingSubnetId?: string;
  quorumPercentage?: number;
  quorumPercentageBuffer?: number;
  pChainHeight?: number;
}
