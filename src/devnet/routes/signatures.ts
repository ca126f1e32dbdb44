// E1 and E2 of the Data API: signature aggregation. The answers are Warp-shaped
// and derived from the request alone, so the same request always gets the same
// signature, and E2 signs only the L1-related P-chain transactions the dataset has.
import { createHash } from 'node:crypto';
import { encodeCb58, isBase58 } from '../../lib/base58.ts';
import { isCb58Id } from '../../lib/ids.ts';
import { PRIMARY_NETWORK_ID } from '../../shapes/index.ts';
import type { EvmData, EvmNetwork } from '../dataset/evm/index.ts';
import type { Route } from '../router.ts';
import { HEX, isInt, networkOf, parseJsonBody } from './evm-params.ts';
import { created, fail, get, post } from './http-error.ts';

/** What E2 needs of the primary-network data (structural, so any dataset with these members fits). */
export interface L1TxSource {
  allValidators(): readonly { txHash: string }[];
  readonly subnets: readonly { l1ConversionTransactionHash?: string }[];
}

/** What the EVM routes serve from. */
export interface EvmRoutesDataset {
  evm: Record<EvmNetwork, EvmData>;
  /**
   * Optional primary-network data. When given, E2 only signs the network's
   * L1-related P-chain transactions (validator registrations and L1
   * conversions) and answers 404 for other well-formed ids; without it every
   * well-formed cb58 id gets a deterministic signature.
   */
  primary?: Record<EvmNetwork, L1TxSource>;
}

function u32(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

interface SignRequest {
  network: EvmNetwork;
  unsignedHex: string;
  subnet: string;
  quorum: number;
  buffer: number;
  height: number;
}

/**
 * A Warp-shaped signed message: unsigned bytes ‖ signature type 0 ‖ length-
 * prefixed signer bit set ‖ 96-byte BLS-looking aggregate signature, all
 * derived from the inputs so the same request always gets the same answer.
 */
function signedMessage(r: SignRequest): string {
  const key = `${r.network}|${r.unsignedHex}|${r.subnet}|${r.quorum}|${r.buffer}|${r.height}`;
  const digest = (label: string): Buffer => createHash('sha256').update(`${key}|${label}`).digest();
  const validators = 8 + ((createHash('sha256').update(`${r.network}|${r.subnet}|${r.height}`).digest()[0] ?? 0) % 24);
  const signers = Math.min(validators, Math.ceil((validators * (r.quorum + r.buffer)) / 100));
  const order = Array.from({ length: validators }, (_, i) => i)
    .sort((a, b) => digest(`v${a}`).compare(digest(`v${b}`)))
    .slice(0, signers);
  const bitset = Buffer.alloc(Math.ceil(validators / 8));
  for (const i of order) {
    const byte = bitset.length - 1 - Math.floor(i / 8);
    bitset[byte] = (bitset[byte] ?? 0) | (1 << (i % 8));
  }
  const signature = Buffer.concat([digest('s0'), digest('s1'), digest('s2')]);
  return `${r.unsignedHex}${u32(0)}${u32(bitset.length)}${bitset.toString('hex')}${signature.toString('hex')}`;
}

/** An unsigned Warp message wrapping `payload`: codec ‖ network id ‖ source chain ‖ payload. */
function unsignedWarp(network: EvmNetwork, sourceChain: Buffer, payload: Buffer): string {
  return `0000${u32(network === 'mainnet' ? 1 : 5)}${sourceChain.toString('hex')}${u32(payload.length)}${payload.toString('hex')}`;
}

export function signatureRoutes(dataset: EvmRoutesDataset): Route[] {
  const evm = dataset.evm;

  // Built on the first E2 request of each network: a scan of every validation, once.
  const l1Txs = new Map<EvmNetwork, Set<string>>();
  function l1TxHashes(network: EvmNetwork): Set<string> | undefined {
    const source = dataset.primary?.[network];
    if (!source) return undefined;
    let set = l1Txs.get(network);
    if (!set) {
      set = new Set(source.allValidators().map((v) => v.txHash));
      for (const s of source.subnets) if (s.l1ConversionTransactionHash) set.add(s.l1ConversionTransactionHash);
      l1Txs.set(network, set);
    }
    return set;
  }

  return [
    // E1
    post('/v1/signatureAggregator/{network}/aggregateSignatures', (p, req) => {
      const network = networkOf(p.network ?? '');
      const body = parseJsonBody(req.body);
      const hasMessage = body.message !== undefined && body.message !== null;
      const hasJustification = body.justification !== undefined && body.justification !== null;
      if (!hasMessage && !hasJustification) fail(400, 'One of message or justification must be provided');
      for (const [field, present] of [['message', hasMessage], ['justification', hasJustification]] as const) {
        const value = body[field];
        if (present && (typeof value !== 'string' || !HEX.test(value))) fail(400, `${field} must be a non-empty hex string of even length, optionally prefixed with 0x`);
      }
      // With both, the message is what is signed; the justification only backs it.
      const hex = (body[hasMessage ? 'message' : 'justification'] as string).replace(/^0x/, '').toLowerCase();

      const quorum = body.quorumPercentage ?? 67;
      const buffer = body.quorumPercentageBuffer ?? 0;
      const height = body.pChainHeight ?? 0;
      if (!isInt(quorum, 0, 100)) fail(400, 'quorumPercentage must be an integer between 0 and 100');
      if (!isInt(buffer, 0, 100)) fail(400, 'quorumPercentageBuffer must be an integer between 0 and 100');
      if ((quorum as number) + (buffer as number) > 100) fail(400, 'quorumPercentage + quorumPercentageBuffer must be at most 100');
      if (!isInt(height, 0, Number.MAX_SAFE_INTEGER)) fail(400, 'pChainHeight must be a non-negative integer');
      const subnetRaw = body.signingSubnetId;
      if (subnetRaw !== undefined && subnetRaw !== null
        && (typeof subnetRaw !== 'string' || !(HEX.test(subnetRaw) || isBase58(subnetRaw)))) {
        fail(400, 'signingSubnetId must be hex or cb58');
      }

      let unsignedHex = hex;
      let sourceChain: string | undefined;
      if (hasMessage) {
        // A Warp unsigned message starts codec(2) ‖ networkID(4) ‖ sourceChainID(32).
        if (hex.length >= 76) sourceChain = encodeCb58(Buffer.from(hex.slice(12, 76), 'hex'));
      } else {
        const payload = createHash('sha256').update(`justification|${hex}`).digest();
        unsignedHex = unsignedWarp(network, Buffer.alloc(32), payload);
      }
      const sourceSubnet = sourceChain ? evm[network].chains().find((c) => c.platformChainId === sourceChain)?.subnetId : undefined;
      const subnet = typeof subnetRaw === 'string' ? subnetRaw : (sourceSubnet ?? PRIMARY_NETWORK_ID);
      return created({
        signedMessage: signedMessage({
          network, unsignedHex, subnet, quorum: quorum as number, buffer: buffer as number, height: height as number,
        }),
      });
    }),

    // E2
    get('/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}', (p) => {
      const network = networkOf(p.network ?? '');
      const txHash = p.txHash ?? '';
      if (!isCb58Id(txHash)) fail(400, 'txHash must be a P-chain or X-chain transaction id (cb58)');
      const known = l1TxHashes(network);
      if (known && !known.has(txHash)) fail(404, `No L1-related P-chain transaction ${txHash} on ${network}`);
      const payload = createHash('sha256').update(`l1-tx|${txHash}`).digest();
      const unsignedHex = unsignedWarp(network, Buffer.alloc(32), payload);
      return created({ signedMessage: signedMessage({ network, unsignedHex, subnet: PRIMARY_NETWORK_ID, quorum: 67, buffer: 0, height: 0 }) });
    }),
  ];
}
