// What an `address_activity` delivery says about one transaction: the devnet's complete view of it
// (FullTransaction, as `GET /v1/chains/{chainId}/transactions/{txHash}` serves it) mapped once into
// the spec's webhook `Transaction`, and the event logs its token transfers emitted.
import { approximately, type AddressInfo, type ContractMetadata, type FullTransaction } from '../../shapes/index.ts';
import { hashHex, pad32 } from '../dataset/evm/helpers.ts';
import type { ErcToken, ErcTransfer, WebhookInternalTransaction, WebhookLog, WebhookTransaction } from './types.ts';

/** `Transfer(address,address,uint256)`: ERC-20 and ERC-721. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** `TransferSingle(address,address,address,uint256,uint256)`: ERC-1155. */
export const TRANSFER_SINGLE_TOPIC = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';

/** What the mapping needs besides the transaction. */
export interface TransactionContext {
  /** Gas used by the block's transactions up to and including this one. */
  cumulativeGasUsed: bigint;
  /** The chain's contract metadata (names and symbols of ERC-1155 collections). */
  contract(address: string): ContractMetadata | undefined;
  /** Internal transactions are traces: sent only to webhooks that asked for them. */
  includeInternalTxs: boolean;
}

/** `value` (an integer in base units) with `decimals` decimals, without trailing zeros: `1500000` with 6 is `1.5`. */
export function withDecimals(value: string, decimals: number): string {
  if (decimals <= 0) return value;
  const digits = value.replace(/^-/, '').padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${value.startsWith('-') ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

const lower = (info: AddressInfo): string => info.address.toLowerCase();

/** The watched addresses a transaction touches: sender, recipient, token transfers' sides and contracts, internal calls' sides. */
export function touchedAddresses(full: FullTransaction): Set<string> {
  const out = new Set<string>([lower(full.nativeTransaction.from), lower(full.nativeTransaction.to)]);
  for (const t of full.erc20Transfers) out.add(lower(t.from)).add(lower(t.to)).add(t.erc20Token.address.toLowerCase());
  for (const t of full.erc721Transfers) out.add(lower(t.from)).add(lower(t.to)).add(t.erc721Token.address.toLowerCase());
  for (const t of full.erc1155Transfers) out.add(lower(t.from)).add(lower(t.to)).add(t.erc1155Token.address.toLowerCase());
  for (const t of full.internalTransactions) out.add(lower(t.from)).add(lower(t.to));
  return out;
}

export function webhookTransaction(full: FullTransaction, ctx: TransactionContext): WebhookTransaction {
  const tx = full.nativeTransaction;
  const blockTimestamp = approximately(tx.blockTimestamp);
  const where = { transactionHash: tx.txHash, blockTimestamp };
  const erc20Transfers: ErcTransfer[] = full.erc20Transfers.map((t) => ({
    ...where, type: 'ERC20', from: t.from.address, to: t.to.address, value: t.value, logIndex: t.logIndex,
    erc20Token: { address: t.erc20Token.address, name: t.erc20Token.name, symbol: t.erc20Token.symbol, decimals: t.erc20Token.decimals, valueWithDecimals: withDecimals(t.value, t.erc20Token.decimals) },
  }));
  const erc721Transfers: ErcTransfer[] = full.erc721Transfers.map((t) => ({
    ...where, type: 'ERC721', from: t.from.address, to: t.to.address, value: '1', tokenId: t.erc721Token.tokenId, logIndex: t.logIndex,
    erc721Token: { address: t.erc721Token.address, name: t.erc721Token.name, symbol: t.erc721Token.symbol, decimals: 0, valueWithDecimals: '1' },
  }));
  const erc1155Transfers: ErcTransfer[] = full.erc1155Transfers.map((t) => {
    const contract = ctx.contract(t.erc1155Token.address);
    const decimals = t.erc1155Token.metadata.decimals ?? 0;
    const token: ErcToken = {
      address: t.erc1155Token.address, name: contract?.name ?? t.erc1155Token.metadata.name ?? '', symbol: contract?.symbol ?? t.erc1155Token.metadata.symbol ?? '',
      decimals, valueWithDecimals: withDecimals(t.value, decimals),
    };
    return { ...where, type: 'ERC1155', from: t.from.address, to: t.to.address, value: t.value, tokenId: t.erc1155Token.tokenId, logIndex: t.logIndex, erc1155Token: token };
  });
  const token = full.networkTokenDetails.networkToken;
  const out: WebhookTransaction = {
    blockHash: tx.blockHash,
    blockNumber: tx.blockNumber,
    from: tx.from.address,
    gas: tx.gasLimit,
    gasPrice: tx.gasPrice,
    maxFeePerGas: tx.maxFeePerGas ?? tx.gasPrice,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? '0',
    txHash: tx.txHash,
    txStatus: tx.txStatus,
    input: tx.input,
    nonce: tx.nonce,
    to: tx.to.address,
    transactionIndex: tx.blockIndex,
    value: tx.value,
    type: tx.txType,
    chainId: tx.chainId,
    receiptCumulativeGasUsed: String(ctx.cumulativeGasUsed),
    receiptGasUsed: tx.gasUsed,
    receiptEffectiveGasPrice: tx.gasPrice,
    // The devnet keeps no receipt trie: a stable hash stands for its root.
    receiptRoot: `0x${hashHex(`receipt-root:${tx.chainId}:${tx.txHash}`)}`,
    blockTimestamp,
    erc20Transfers,
    erc721Transfers,
    erc1155Transfers,
    networkToken: { tokenName: token.name, tokenSymbol: token.symbol, tokenDecimals: token.decimals, valueWithDecimals: withDecimals(tx.value, token.decimals) },
  };
  if (ctx.includeInternalTxs) {
    out.internalTransactions = full.internalTransactions.map((t): WebhookInternalTransaction => ({
      from: t.from.address, to: t.to.address, internalTxType: t.internalTxType ?? 'CALL', value: t.value, gasUsed: t.gasUsed, gasLimit: t.gasLimit,
      transactionHash: tx.txHash,
    }));
  }
  return out;
}

const topic = (hex: string): string => `0x${pad32(hex.toLowerCase())}`;
const uint = (decimal: string): string => pad32(BigInt(decimal).toString(16));

/** The Transfer / TransferSingle logs of the transaction's token transfers, by log index. */
export function transferLogs(full: FullTransaction): WebhookLog[] {
  const tx = full.nativeTransaction;
  const at = { transactionIndex: tx.blockIndex, removed: false };
  const logs: WebhookLog[] = [
    ...full.erc20Transfers.map((t) => ({
      ...at, address: t.erc20Token.address, topic0: TRANSFER_TOPIC, topic1: topic(t.from.address), topic2: topic(t.to.address), data: `0x${uint(t.value)}`, logIndex: t.logIndex,
    })),
    ...full.erc721Transfers.map((t) => ({
      ...at, address: t.erc721Token.address, topic0: TRANSFER_TOPIC, topic1: topic(t.from.address), topic2: topic(t.to.address), topic3: `0x${uint(t.erc721Token.tokenId)}`, data: '0x', logIndex: t.logIndex,
    })),
    ...full.erc1155Transfers.map((t) => ({
      ...at, address: t.erc1155Token.address, topic0: TRANSFER_SINGLE_TOPIC, topic1: topic(tx.from.address), topic2: topic(t.from.address), topic3: topic(t.to.address),
      data: `0x${uint(t.erc1155Token.tokenId)}${uint(t.value)}`, logIndex: t.logIndex,
    })),
  ];
  return logs.sort((a, b) => a.logIndex - b.logIndex);
}
