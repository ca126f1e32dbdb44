import { builder } from '../builder.ts';
import { badInput } from '../errors.ts';
import { costs } from '../lib/cost.ts';
import type { NetworkId } from '../loaders/types.ts';
import type { AggregateSignaturesBody, SignedMessage } from '../shapes/index.ts';
import { nullOnNotFound } from '../loaders/not-found.ts';
import { checkCb58Id, checkHex, checkNonNegativeInt, INPUT_LIMITS } from './input-checks.ts';
import { NetworkNameEnum, NetworkRef, networkId } from './network.ts';

const SignedMessageRef = builder.objectRef<SignedMessage>('SignedMessage').implement({
  description: 'A Warp message with the aggregated BLS signature of the signing subnet\'s validators.',
  fields: (t) => ({
    signedMessage: t.exposeString('signedMessage', { description: 'The signed message, hex.' }),
  }),
});

/** A subnet id given as hex: 32 bytes, optionally 0x-prefixed. */
const SUBNET_HEX = /^(0x)?[0-9a-fA-F]{64}$/;

builder.objectFields(NetworkRef, (t) => ({
  aggregatedSignatures: t.field({
    type: SignedMessageRef,
    nullable: true,
    description:
      'The aggregated signatures of the Warp message of an L1-related P-chain or X-chain transaction (E2); null when the transaction is unknown.',
    args: { txHash: t.arg.string({ required: true, description: 'A P-chain or X-chain transaction id (cb58).' }) },
    extensions: { validateArgs: (args) => checkCb58Id('txHash', args['txHash'], 'a P-chain or X-chain transaction id (cb58 of 32 bytes)'), cost: costs.perParent() },
    resolve: (n, args, ctx) => nullOnNotFound(ctx.dataApi.getAggregatedSignatures(n.network, args.txHash, ctx.call)),
  }),
}));

const AggregateSignaturesInput = builder.inputType('AggregateSignaturesInput', {
  description: 'What to sign (E1): exactly one of `message` or `justification`, plus quorum settings.',
  fields: (t) => ({
    network: t.field({ type: NetworkNameEnum, required: true, description: 'Network whose validators sign.' }),
    message: t.string({ description: `Unsigned Warp message, hex (optional 0x), at most ${INPUT_LIMITS.hexBytes} bytes. Give this or \`justification\`.` }),
    justification: t.string({ description: `Justification for an L1 validator message, hex (optional 0x), at most ${INPUT_LIMITS.hexBytes} bytes. Give this or \`message\`.` }),
    signingSubnetId: t.string({ description: 'Subnet whose validators sign: its id in cb58, or its 32 bytes in hex (default: the subnet of the source blockchain).' }),
    quorumPercentage: t.int({ description: 'Share of the signing subnet\'s weight that must sign, 0-100 (default 67).' }),
    quorumPercentageBuffer: t.int({ description: 'Extra weight to collect beyond the quorum, 0-100 (default 0); quorumPercentage + quorumPercentageBuffer <= 100.' }),
    pChainHeight: t.int({ description: 'Use the validator set at this P-chain height; 0 (default) means the proposed height.' }),
  }),
});

interface AggregateInput extends AggregateSignaturesBody {
  network: string;
}

type NullableFields<T> = { [K in keyof T]?: T[K] | null };

const DEFAULT_QUORUM = 67;

/** E1's body rules, before any upstream call. */
export function checkAggregateInput(input: NullableFields<AggregateInput>): void {
  const hasMessage = input.message != null;
  const hasJustification = input.justification != null;
  if (hasMessage === hasJustification) throw badInput('input.message', 'give exactly one of message or justification');
  const field = hasMessage ? 'message' : 'justification';
  checkHex(`input.${field}`, input[field]);
  for (const name of ['quorumPercentage', 'quorumPercentageBuffer'] as const) {
    const v = input[name];
    if (v != null && (!Number.isInteger(v) || v < 0 || v > 100)) throw badInput(`input.${name}`, 'must be an integer between 0 and 100');
  }
  if ((input.quorumPercentage ?? DEFAULT_QUORUM) + (input.quorumPercentageBuffer ?? 0) > 100) {
    throw badInput('input.quorumPercentageBuffer', `quorumPercentage (default ${DEFAULT_QUORUM}) + quorumPercentageBuffer must be at most 100`);
  }
  checkNonNegativeInt('input.pChainHeight', input.pChainHeight, 'a P-chain height');
  const subnet = input.signingSubnetId;
  if (subnet != null && !SUBNET_HEX.test(subnet)) checkCb58Id('input.signingSubnetId', subnet, 'a subnet id: cb58, or 32 bytes in hex');
}

function toBody(input: NullableFields<AggregateInput>): AggregateSignaturesBody {
  const body: AggregateSignaturesBody = {};
  for (const key of ['message', 'justification', 'signingSubnetId'] as const) {
    const v = input[key];
    if (v != null) body[key] = v;
  }
  for (const key of ['quorumPercentage', 'quorumPercentageBuffer', 'pChainHeight'] as const) {
    const v = input[key];
    if (v != null) body[key] = v;
  }
  return body;
}

const AggregateSignaturesPayload = builder.objectRef<SignedMessage & { network: NetworkId }>('AggregateSignaturesPayload').implement({
  description: 'The signed message.',
  fields: (t) => ({
    signedMessage: t.exposeString('signedMessage', { description: 'The Warp message with the aggregated signature, hex.' }),
    network: t.field({ type: NetworkRef, description: 'The network whose validators signed.', resolve: (p) => ({ network: p.network }) }),
  }),
});

builder.mutationField('aggregateSignatures', (t) =>
  t.field({
    type: AggregateSignaturesPayload,
    description: "Collects BLS signatures of a subnet's validators for a Warp message until the quorum is met (E1).",
    args: { input: t.arg({ type: AggregateSignaturesInput, required: true, description: 'The message and the quorum settings.' }) },
    extensions: { validateArgs: (args) => checkAggregateInput(args['input'] as NullableFields<AggregateInput>), cost: costs.perParent() },
    resolve: async (_root, args, ctx) => {
      const network = networkId(args.input.network);
      const signed = await ctx.dataApi.aggregateSignatures(network, toBody(args.input), ctx.call);
      return { signedMessage: signed.signedMessage, network };
    },
  }),
);
