// ICM (Teleporter) messages of the EVM data: the messages an address sent or
// received across the network's chains, and their source and destination
// transactions as complete transactions.
import type { IcmMessage } from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { blockAt, blockTimestamp } from './chains.ts';
import { derivedAddress, encodeTxHash, price } from './helpers.ts';
import { encodeIcmMessageId } from './icm-ids.ts';
import { DAY, TELEPORTER_ADDRESS, type ChainCtx, type EvmEnv, type IcmRecord, type TxRecord } from './model.ts';
import { erc20Transfer, internalTx, nativeTx, tokenAmount } from './tokens.ts';

function icmChains(ctxs: readonly ChainCtx[]): readonly ChainCtx[] {
  const enabled = ctxs.filter((c) => c.chain.enabledFeatures?.includes('teleporter'));
  return enabled.length >= 2 ? enabled : ctxs;
}

export function buildIcm(env: EvmEnv, ctxs: readonly ChainCtx[], address: string): IcmRecord[] {
  const { network, secret, anchor, fixtureAddress } = env;
  const chains = icmChains(ctxs);
  if (chains.length < 2) return [];
  const rng = new Rng(`${secret}:icm:${address}`);
  const count = address === fixtureAddress ? (network === 'mainnet' ? 42 : 24) : rng.int(0, 6);
  const out: IcmRecord[] = [];
  for (let index = 0; index < count; index++) {
    const src = rng.pick(chains);
    const dst = rng.pick(chains.filter((c) => c !== src));
    const counterpartyAddr = rng.evmAddress();
    const outgoing = rng.bool();
    const sourceTs = anchor - rng.int(60, 60 * DAY);
    const sourceBlock = blockAt(src, sourceTs);
    const delivered = sourceTs < anchor - DAY ? rng.bool(0.85) : rng.bool(0.3);
    const fee = rng.pick(src.erc20);
    const feeValue = rng.bool(0.3) ? 0n : tokenAmount(rng, fee) / 100n;
    const nonce = String(rng.int(1, 90_000));
    const message: IcmMessage = {
      // Self-describing (address and index), so getIcmMessage finds it by id alone.
      messageId: encodeIcmMessageId(secret, address, index),
      icmContractAddress: TELEPORTER_ADDRESS,
      sourceBlockchainId: src.seed.blockchainId,
      destinationBlockchainId: dst.seed.blockchainId,
      sourceEvmChainId: src.evmChainId,
      destinationEvmChainId: dst.evmChainId,
      messageNonce: nonce,
      from: outgoing ? address : counterpartyAddr,
      to: outgoing ? counterpartyAddr : address,
      data: `0x${rng.hex(rng.int(2, 6) * 32)}`,
      messageExecuted: delivered,
      receipts: [],
      receiptDelivered: delivered && rng.bool(0.5),
      rewardDetails: {
        address: fee.address, name: fee.name, symbol: fee.symbol, decimals: fee.decimals,
        logoUri: fee.logoUri, ercType: 'ERC-20', price: price(fee.usdPrice, 'usd'), value: String(feeValue),
      },
      sourceTransaction: {
        txHash: encodeTxHash(secret, { kind: 1, chainIdx: src.idx, address, index }),
        timestamp: blockTimestamp(src, sourceBlock),
        gasSpent: String(rng.int(150_000, 600_000)),
      },
      status: delivered ? 'delivered' : 'pending',
    };
    const record: IcmRecord = { message, index, src, dst, sourceBlock };
    if (delivered) {
      const destinationBlock = blockAt(dst, sourceTs + rng.int(2, 40));
      record.destinationBlock = destinationBlock;
      const relayer = derivedAddress(`${secret}:relayer:${dst.evmChainId}`);
      message.receipts = message.receiptDelivered
        ? [{ receivedMessageNonce: nonce, relayerRewardAddress: relayer }]
        : [];
      message.destinationTransaction = {
        txHash: encodeTxHash(secret, { kind: 2, chainIdx: dst.idx, address, index }),
        timestamp: blockTimestamp(dst, destinationBlock),
        gasSpent: String(rng.int(200_000, 900_000)),
        rewardRedeemer: relayer,
        delivererAddress: relayer,
      };
    }
    out.push(record);
  }
  return out;
}

/** The source or destination transaction of an ICM message, as a complete transaction. */
export function icmTransaction(ctx: ChainCtx, rec: IcmRecord, side: 1 | 2): TxRecord | undefined {
  const m = rec.message;
  const rng = new Rng(`${ctx.env.secret}:icm-tx:${m.messageId}:${side}`);
  const source = side === 1;
  const block = source ? rec.sourceBlock : rec.destinationBlock;
  const txInfo = source ? m.sourceTransaction : m.destinationTransaction;
  if (block === undefined || !txInfo || ctx !== (source ? rec.src : rec.dst)) return undefined;
  const sender = source ? m.from : (m.destinationTransaction?.delivererAddress ?? m.to);
  const methodHash = source ? '0x62448850' : '0xccb5f809';
  const gasUsed = Number(txInfo.gasSpent);
  const tip = BigInt(rng.int(0, 2_000)) * 1_000_000n;
  const native = nativeTx(ctx, {
    block, blockIndex: rng.int(0, 20), hash: txInfo.txHash, from: sender, to: TELEPORTER_ADDRESS, value: 0n,
    nonce: rng.int(0, 20_000), callType: 'CONTRACT_CALL', methodHash,
    methodName: source
      ? 'sendCrossChainMessage((bytes32,address,(address,uint256),uint256,address[],bytes))'
      : 'receiveCrossChainMessage(uint32,address)',
    input: `${methodHash}${rng.hex(160)}`,
    gasLimit: Math.floor(gasUsed * 1.3), gasUsed, failed: false, legacy: false, tip,
  });
  const out: TxRecord = { blockNumber: block, native, erc20: [], erc721: [], erc1155: [], internal: [] };
  const fee = ctx.contracts.get(m.rewardDetails.address);
  if (source && fee && m.rewardDetails.value !== '0') {
    out.erc20.push(erc20Transfer(ctx, fee, sender, TELEPORTER_ADDRESS, BigInt(m.rewardDetails.value), 0));
  }
  if (!source) out.internal.push(internalTx(ctx, TELEPORTER_ADDRESS, m.to, 'CALL', 0n, rng));
  out.teleporter = source
    ? { teleporterMessageId: m.messageId, direction: 'SOURCE_TRANSACTION', destinationChainId: m.destinationBlockchainId }
    : { teleporterMessageId: m.messageId, direction: 'DESTINATION_TRANSACTION', sourceChainId: m.sourceBlockchainId };
  return out;
}
