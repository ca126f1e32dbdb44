// ICM message ids of the devnet: self-describing, so getIcmMessage finds a message
// from its id alone (no index of every message generated), and the set of senders
// and recipients whose messages make up the all-messages listing (listIcmMessages).
import { derivedAddress, sha256 } from './helpers.ts';

/** What a message id points at: the address whose messages hold it, and its index there. */
export interface IcmIdTarget {
  address: string;
  index: number;
}

const PLAIN = 26;
const TAG = 32 - PLAIN;

/**
 * `tag(6) ‖ (plain(26) XOR mask)` in 64 hex digits (no `0x`, as the Data API writes
 * message ids), plain = address(20) ‖ index(2) ‖ 0000, tag = sha256(secret, plain).
 * Random-looking, decodable with the network's secret, and a random id is refused
 * with probability 1 - 2^-48.
 */
export function encodeIcmMessageId(secret: string, address: string, index: number): string {
  const plain = Buffer.alloc(PLAIN);
  Buffer.from(address.slice(2).toLowerCase(), 'hex').copy(plain, 0);
  plain.writeUInt16BE(index, 20);
  const tag = sha256(`${secret}:icm-id:${plain.toString('hex')}`).subarray(0, TAG);
  const mask = sha256(`${secret}:icm-mask:${tag.toString('hex')}`);
  const body = Buffer.alloc(PLAIN);
  for (let i = 0; i < PLAIN; i++) body[i] = (plain[i] ?? 0) ^ (mask[i] ?? 0);
  return `${tag.toString('hex')}${body.toString('hex')}`;
}

/** The address and index of a message id made by {@link encodeIcmMessageId} with `secret`; undefined otherwise. */
export function decodeIcmMessageId(secret: string, messageId: string): IcmIdTarget | undefined {
  const hex = messageId.replace(/^0x/i, '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) return undefined;
  const raw = Buffer.from(hex, 'hex');
  const tag = raw.subarray(0, TAG);
  const mask = sha256(`${secret}:icm-mask:${tag.toString('hex')}`);
  const plain = Buffer.alloc(PLAIN);
  for (let i = 0; i < PLAIN; i++) plain[i] = (raw[TAG + i] ?? 0) ^ (mask[i] ?? 0);
  if (!sha256(`${secret}:icm-id:${plain.toString('hex')}`).subarray(0, TAG).equals(tag)) return undefined;
  return { address: `0x${plain.subarray(0, 20).toString('hex')}`, index: plain.readUInt16BE(20) };
}

/** The EVM data's secret of a network (as `createEvmData` derives it), which message ids are made with. */
export const evmSecret = (seed: number, network: string): string => `${seed}:${network}:evm`;

/** Senders and recipients besides the fixture address whose messages the all-messages listing holds. */
export const ICM_PARTICIPANTS = 24;

/**
 * The addresses whose messages make up a network's all-messages listing: the
 * fixture address (the one with the most messages) and {@link ICM_PARTICIPANTS}
 * derived ones. Any address's own listing still holds its messages; a listing
 * filtered by `from` or `to` adds that address to these.
 */
export function icmParticipants(secret: string, fixtureAddress: string): string[] {
  const out = [fixtureAddress.toLowerCase()];
  for (let i = 0; i < ICM_PARTICIPANTS; i++) out.push(derivedAddress(`${secret}:icm-participant:${i}`));
  return out;
}
