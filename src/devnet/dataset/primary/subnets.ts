/**
 * Subnets and their blockchains: the primary network (P, X, C) first, then
 * generated subnets and L1s with EVM or custom-VM chains and their genesis.
 * Also hands back the subnet chains the EVM dataset and the node build on.
 */

import { approximately, C_CHAIN_EVM_IDS, primaryNetworkSubnet } from '../../../shapes/index.ts';
import type { AllowListConfig, Blockchain, GenesisData, Subnet } from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { pickAddress, type AddressBook } from './addresses.ts';
import { heightAt } from './chain-activity.ts';
import { CHAIN_WORDS, DAY, EIP150_HASH, VM_IDS, ZERO_HASH } from './constants.ts';
import type { NetworkContext } from './context.ts';
import { hexOf, id32 } from './ids.ts';
import { uniform } from './math.ts';
import type { SubnetChain } from './types.ts';

/** Oldest first, the primary network itself first of all; `usedEvmChainIds` gets the new chains' ids. */
export function generateSubnets(
  ctx: NetworkContext,
  addresses: AddressBook,
  rng: Rng,
  total: number,
  usedEvmChainIds: Set<number>,
): { subnets: Subnet[]; chains: SubnetChain[] } {
  const p = ctx.profile;
  const count = Math.min(p.maxSubnets, Math.max(p.minSubnets, Math.round(total * p.subnetsPerValidator)));
  const primary = primaryNetworkSubnet(ctx.network, p.genesis);
  // The C-Chain's genesis, like every EVM chain's here.
  const cChain = primary.blockchains.find((b) => b.evmChainId === C_CHAIN_EVM_IDS[ctx.network]);
  if (cChain) cChain.genesisData = evmGenesis(new Rng(`${ctx.tag}:cgenesis`), C_CHAIN_EVM_IDS[ctx.network], p.genesis);
  const subnets: Subnet[] = [];
  const chains: SubnetChain[] = [];
  for (let s = 0; s < count; s++) {
    const createTs = uniform(rng, p.genesis + 30 * DAY, ctx.generatedAt - 30 * DAY);
    // The first subnet is an L1 and the second a plain subnet with chains, so both kinds always exist.
    const isL1 = s === 0 || (s !== 1 && rng.bool(0.35));
    const chainCount = isL1 ? rng.int(1, 2) : s === 1 ? rng.int(1, 3) : rng.int(0, 3);
    const subnetId = id32(`${ctx.tag}:subnet:${s}`);
    const owner = addresses.list[pickAddress(addresses, rng, 0.1)] as string;
    const threshold = 1;
    const blockchains: Blockchain[] = [];
    for (let c = 0; c < chainCount; c++) {
      const evm = c === 0 || rng.bool(0.85);
      const blockchainId = id32(`${ctx.tag}:chain:${s}:${c}`);
      const name = `${rng.pick(CHAIN_WORDS)}${chainCount > 1 ? ` ${c + 1}` : ''} ${evm ? 'EVM' : 'VM'}`;
      const ts = Math.min(ctx.generatedAt - DAY, createTs + rng.int(60, 30 * DAY));
      const chain: Blockchain = {
        createBlockTimestamp: ts,
        createBlockNumber: String(heightAt(ctx, 'p', ts)),
        blockchainId,
        vmId: evm ? VM_IDS.subnetevm : VM_IDS.xsvm,
        subnetId,
        blockchainName: name,
      };
      if (evm) {
        let evmChainId = rng.int(10_000, 999_999);
        while (usedEvmChainIds.has(evmChainId)) evmChainId = rng.int(10_000, 999_999);
        usedEvmChainIds.add(evmChainId);
        chain.evmChainId = evmChainId;
        chain.genesisData = evmGenesis(rng, evmChainId, ts);
        chains.push({ blockchainId, subnetId, vmId: chain.vmId, name, evmChainId });
      } else {
        // The seed describes genesisData as the EVM genesis object only; a non-EVM chain's
        // genesis is opaque VM bytes (a string in the public spec), so the devnet leaves it out.
        chains.push({ blockchainId, subnetId, vmId: chain.vmId, name });
      }
      blockchains.push(chain);
    }
    const subnet: Subnet = {
      createBlockTimestamp: createTs,
      createBlockIndex: String(heightAt(ctx, 'p', createTs)),
      subnetId,
      ownerAddresses: [owner],
      threshold,
      locktime: 0,
      subnetOwnershipInfo: { locktime: 0, threshold, addresses: [owner] },
      isL1,
      blockchains,
    };
    if (isL1) {
      const manager = blockchains[0] as Blockchain;
      subnet.l1ConversionTransactionHash = id32(`${ctx.tag}:l1conversion:${s}`);
      subnet.l1ValidatorManagerDetails = {
        blockchainId: manager.blockchainId,
        contractAddress: `0x${hexOf(`${ctx.tag}:l1manager:${s}`, 20)}`,
      };
    }
    subnets.push(subnet);
  }
  subnets.sort((a, b) => approximately(a.createBlockTimestamp) - approximately(b.createBlockTimestamp));
  return { subnets: [primary, ...subnets], chains };
}

/** A subnet-EVM genesis (the C-chain's too): precompile allow lists, fee config, allocations. */
function evmGenesis(rng: Rng, chainId: number, timestamp: number): GenesisData {
  const admin = rng.evmAddress();
  const allowList = (enabled: boolean): AllowListConfig => ({
    blockTimestamp: enabled ? timestamp : 0,
    adminAddresses: enabled ? [admin] : [],
    managerAddresses: enabled && rng.bool(0.3) ? [rng.evmAddress()] : [],
    enabledAddresses: enabled && rng.bool(0.5) ? [rng.evmAddress()] : [],
  });
  const alloc: GenesisData['alloc'] = {};
  const allocCount = rng.int(1, 3);
  for (let k = 0; k < allocCount; k++) {
    const storage: Record<string, string> = {};
    if (k === 0 && rng.bool(0.5)) storage[`0x${'0'.repeat(63)}0`] = `0x${rng.hex(32)}`;
    alloc[k === 0 ? admin.slice(2) : rng.hex(20)] = {
      balance: `0x${rng.bigint(10n ** 18n, 10n ** 27n).toString(16)}`,
      code: k === 0 && rng.bool(0.3) ? `0x${rng.hex(24)}` : '0x',
      storage,
    };
  }
  const gasLimit = rng.pick([8_000_000, 12_000_000, 15_000_000, 20_000_000]);
  const withAirdrop = rng.bool(0.2);
  const cancun = rng.bool(0.4);
  return {
    airdropAmount: withAirdrop ? rng.int(1, 1000) * 1_000_000 : null,
    airdropHash: withAirdrop ? rng.evmHash() : ZERO_HASH,
    alloc,
    baseFeePerGas: rng.bool(0.3) ? 25_000_000_000 : null,
    blobGasUsed: cancun ? '0x0' : null,
    coinbase: `0x${'0'.repeat(40)}`,
    config: {
      berlinBlock: 0,
      byzantiumBlock: 0,
      chainId,
      constantinopleBlock: 0,
      eip150Block: 0,
      eip150Hash: EIP150_HASH,
      eip155Block: 0,
      eip158Block: 0,
      homesteadBlock: 0,
      istanbulBlock: 0,
      londonBlock: 0,
      muirGlacierBlock: 0,
      petersburgBlock: 0,
      subnetEVMTimestamp: 0,
      allowFeeRecipients: rng.bool(0.3),
      feeConfig: {
        baseFeeChangeDenominator: 36,
        blockGasCostStep: 200_000,
        gasLimit,
        maxBlockGasCost: 1_000_000,
        minBaseFee: rng.pick([1_000_000_000, 25_000_000_000]),
        minBlockGasCost: 0,
        targetBlockRate: 2,
        targetGas: gasLimit * 2,
      },
      warpConfig: { blockTimestamp: timestamp, quorumNumerator: 67, requirePrimaryNetworkSigners: rng.bool(0.2) },
      txAllowListConfig: allowList(rng.bool(0.3)),
      contractDeployerAllowListConfig: allowList(rng.bool(0.4)),
      contractNativeMinterConfig: allowList(rng.bool(0.3)),
      feeManagerConfig: allowList(rng.bool(0.3)),
      rewardManagerConfig: allowList(rng.bool(0.2)),
    },
    difficulty: '0x0',
    excessBlobGas: cancun ? '0x0' : null,
    extraData: '0x',
    gasLimit: `0x${gasLimit.toString(16)}`,
    gasUsed: '0x0',
    mixHash: ZERO_HASH,
    nonce: '0x0',
    number: '0x0',
    parentHash: ZERO_HASH,
    timestamp: `0x${timestamp.toString(16)}`,
  };
}
