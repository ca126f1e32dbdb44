import { builder } from './builder.ts';
import type { BlockchainWithNetwork, SubnetWithNetwork } from '../loaders/subnets.ts';

/**
 * The `Subnet` and `Blockchain` refs, implemented in `subnets.ts`. Modules that link
 * to them (chains, blocks) import them from here, so they need not import
 * `subnets.ts`, which links back to theirs (`Blockchain.evmChain`): no import cycle.
 */
export type SubnetShape = SubnetWithNetwork;
export type BlockchainShape = BlockchainWithNetwork;

export const SubnetRef = builder.objectRef<SubnetShape>('Subnet');
export const BlockchainRef = builder.objectRef<BlockchainShape>('Blockchain');
