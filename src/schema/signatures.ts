import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import { HEX_32_BYTES } from '../lib/ids.ts';
import {
  AGGREGATE_SIGNATURES_COST, AGGREGATED_SIGNATURES_COST, aggregatedSignaturesOf, aggregateSignatures,
} from '../loaders/signatures.ts';
import type { NetworkId } from '../loaders/types.ts';
import type { AggregateSignaturesBody, SignedMessage } from '../shapes/index.ts';
import { between, fromCheck } from './bounds.ts';
import { checkCb58Id, checkHex, exactUInt64, INPUT_LIMITS } from './input-checks.ts';
import { NetworkNameEnum, NetworkRef, networkId } from './network.ts';

const SignedMessageRef = builder.objectRef<SignedMessage>('SignedMessage').implement({
  description: 'A Warp message with the aggregated BLS signature of the signing subnet\'s validators.',
  fields: (t) => ({
    signedMessage: t.expose('signedMessage', { type: 'Hex', description: 'The signed message, hex.' }),
  }),
});

builder.objectFields(NetworkRef, (t) => ({
  aggregatedSignatures: t.field({
    type: SignedMessageRef,
    nullable: true,
    description:
      'The aggregated signatures of the Warp message of an L1-related P-chain or X-chain transaction; null when the transaction is unknown.',
    args: {
      txHash: t.arg.string({
        required: true,
        description: 'A P-chain or X-chain transaction id.',
        bound: fromCheck('Cb58 of 32 bytes, with its checksum.', (argument, value) =>
          checkCb58Id(argument, value, 'a P-chain or X-chain transaction id (cb58 of 32 bytes)')),
      }),
    },
    upstreamCost: AGGREGATED_SIGNATURES_COST,
    resolve: (n, args, ctx) => aggregatedSignaturesOf(ctx, n.network, args.txHash),
  }),
}));

/** The bounds of E1's body fields. */
const WARP_HEX = fromCheck(`Hex of even length, optionally 0x-prefixed, at most ${INPUT_LIMITS.hexBytes} bytes.`, (argument, value) => checkHex(argument, value));
const SIGNING_SUBNET = fromCheck('Its id in cb58, or its 32 bytes in hex (optionally 0x-prefixed).', (argument, value) => {
  if (typeof value !== 'string' || !HEX_32_BYTES.test(value)) checkCb58Id(argument, value, 'a subnet id: cb58, or 32 bytes in hex');
});
const PERCENT = between(0, 100);
const P_CHAIN_HEIGHT = exactUInt64('A P-chain height', 'a P-chain height');

const AggregateSignaturesInput = builder.inputType('AggregateSignaturesInput', {
  description: 'What to sign: `message`, `justification` or both (at least one), plus quorum settings.',
  fields: (t) => ({
    network: t.field({ type: NetworkNameEnum, required: true, description: 'Network whose validators sign.' }),
    message: t.string({ description: 'Unsigned Warp message. Give this, `justification`, or both.', bound: WARP_HEX }),
    justification: t.string({ description: 'Justification for an L1 validator message. Give this, `message`, or both.', bound: WARP_HEX }),
    signingSubnetId: t.string({ description: 'Subnet whose validators sign (default: the subnet of the source blockchain).', bound: SIGNING_SUBNET }),
    quorumPercentage: t.int({ description: 'Share of the signing subnet\'s weight that must sign, percent (default 67).', bound: PERCENT }),
    quorumPercentageBuffer: t.int({
      description: 'Extra weight to collect beyond the quorum, percent (default 0); quorumPercentage + quorumPercentageBuffer <= 100.',
      bound: PERCENT,
    }),
    pChainHeight: t.field({ type: 'UInt64', description: 'Use the validator set at this P-chain height; 0 (default) means the proposed height.', bound: P_CHAIN_HEIGHT }),
  }),
});

/** What `aggregateSignatures(input:)` takes, as Pothos types it. */
type AggregateInput = typeof AggregateSignaturesInput.$inferInput;

const DEFAULT_QUORUM = 67;

/** E1's body rules between fields, before any upstream call (each field's own grammar is its bound). */
function checkAggregateInput(input: AggregateInput): void {
  // The seed needs one of them; both together are allowed (the justification backs the message).
  if (input.message == null && input.justification == null) throw badInput('input.message', 'give message or justification (or both)');
  if ((input.quorumPercentage ?? DEFAULT_QUORUM) + (input.quorumPercentageBuffer ?? 0) > 100) {
    throw badInput('input.quorumPercentageBuffer', `quorumPercentage (default ${DEFAULT_QUORUM}) + quorumPercentageBuffer must be at most 100`);
  }
}

function toBody(input: AggregateInput): AggregateSignaturesBody {
  const body: AggregateSignaturesBody = {};
  for (const key of ['message', 'justification', 'signingSubnetId'] as const) {
    const v = input[key];
    if (v != null) body[key] = v;
  }
  for (const key of ['quorumPercentage', 'quorumPercentageBuffer'] as const) {
    const v = input[key];
    if (v != null) body[key] = v;
  }
  // Sent as a JSON number, as the seed has it: within 2^53 - 1 (its bound), so exact.
  if (input.pChainHeight != null) body.pChainHeight = Number(input.pChainHeight);
  return body;
}

const AggregateSignaturesPayload = builder.objectRef<SignedMessage & { network: NetworkId }>('AggregateSignaturesPayload').implement({
  description: 'The signed message.',
  fields: (t) => ({
    signedMessage: t.expose('signedMessage', { type: 'Hex', description: 'The Warp message with the aggregated signature, hex.' }),
    network: t.field({ type: NetworkRef, nullable: false, description: 'The network whose validators signed.', resolve: (p) => ({ network: p.network }) }),
  }),
});

builder.mutationField('aggregateSignatures', (t) =>
  t.field({
    type: AggregateSignaturesPayload,
    nullable: false,
    description: "Collects BLS signatures of a subnet's validators for a Warp message until the quorum is met.",
    args: { input: t.arg({ type: AggregateSignaturesInput, required: true, description: 'The message and the quorum settings.' }) },
    checkArgs: (args) => checkAggregateInput(args.input),
    upstreamCost: AGGREGATE_SIGNATURES_COST,
    resolve: async (_root, args, ctx) => {
      const network = networkId(args.input.network);
      const signed = await aggregateSignatures(ctx, network, toBody(args.input));
      return { signedMessage: signed.signedMessage, network };
    },
  }),
);
