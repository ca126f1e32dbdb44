/**
 * The network's address book: the primary-network addresses every validation,
 * delegation, reward and UTXO belongs to. Generated first; the rest of the data
 * refers to an address by its index here.
 */

import { bech32 } from 'bech32';
import type { Rng } from '../../rng.ts';

export interface AddressBook {
  /** Address bodies (`avax1...`), without chain prefix, in generation order. */
  readonly list: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** The first `hot` addresses are "hot": they receive a large share, like exchanges and staking services. */
  readonly hot: number;
}

export function generateAddresses(rng: Rng, hrp: 'avax' | 'fuji', count: number): AddressBook {
  const list: string[] = [];
  const indexOf = new Map<string, number>();
  while (list.length < count) {
    // 38 five-bit words drawn six per 32-bit number (as many draws as ever, so the rest of the
    // dataset does not move); the first 32 are the 20 bytes of the address, and the bech32
    // checksum replaces the last 6, so addresses pass the gateway's checksum check.
    const words: number[] = [];
    for (let k = 0; k < 38; k += 6) {
      let bits = Math.floor(rng.next() * 4294967296);
      for (let c = 0; c < 6 && k + c < 38; c++, bits >>>= 5) words.push(bits & 31);
    }
    const a = bech32.encode(hrp, words.slice(0, 32));
    if (indexOf.has(a)) continue;
    indexOf.set(a, list.length);
    list.push(a);
  }
  return { list, indexOf, hot: Math.max(20, Math.floor(list.length / 50)) };
}

/** A reward or owner address: a few "hot" addresses receive `hotShare` of the picks. */
export function pickAddress(book: AddressBook, rng: Rng, hotShare: number): number {
  return rng.bool(hotShare) ? rng.int(0, book.hot - 1) : rng.int(0, book.list.length - 1);
}
