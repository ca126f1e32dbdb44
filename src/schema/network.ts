import { builder } from './builder.ts';
import type { NetworkId } from '../loaders/types.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';

/** The backing shape of `Network`: primary-network resources of one network. */
export interface NetworkShape {
  network: NetworkId;
}

export const NetworkNameEnum = builder.enumType('NetworkName', {
  description: 'A network. TESTNET is an alias of FUJI.',
  values: {
    MAINNET: { value: 'mainnet', description: 'Avalanche mainnet (network id 1).' },
    FUJI: { value: 'fuji', description: 'The Fuji test network (network id 5).' },
    TESTNET: { value: 'testnet', description: 'Alias of FUJI.' },
  } as const,
});

/** `testnet` and `fuji` are one network: normalise once so caches and ids agree. */
export function networkId(name: 'mainnet' | 'fuji' | 'testnet' | string): NetworkId {
  return name === 'mainnet' ? 'mainnet' : 'fuji';
}

export const NetworkRef = builder.objectRef<NetworkShape>('Network');

NetworkRef.implement({
  description:
    'Primary-network resources of one network: validators, delegators, subnets, rewards, the P/X/C blockchains and signature aggregation. Other modules add their fields here.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'network' in value && Object.keys(value).length === 1,
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (n) => encodeGlobalId('Network', [n.network]) }),
    name: t.field({
      type: NetworkNameEnum,
      nullable: false,
      description: 'The network (FUJI for TESTNET).',
      resolve: (n) => n.network,
    }),
  }),
});

registerNodeFamily('Network', {
  // Refetched from the id alone: no call.
  refetchComputeUnits: 0,
  parts: [ID_PARTS.network],
  load: async (_ctx, [name]) => (name === 'mainnet' || name === 'fuji' ? { network: name } : null),
  typeOf: () => 'Network',
  refetchCalls: () => 0,
});

builder.queryFields((t) => ({
  network: t.field({
    type: NetworkRef,
    nullable: false,
    description: 'Primary-network resources of one network.',
    args: { name: t.arg({ type: NetworkNameEnum, required: true, description: 'MAINNET, FUJI or TESTNET.' }) },
    resolve: (_root, args) => ({ network: networkId(args.name) }),
  }),
}));
