/**
 * The network's address book: the primary-network addresses every validation,
 * delegation, reward and UTXO belongs to. Generated first; the rest of the data
 * refers to an address by its index here.
 */

import type { Rng } from '../../rng.ts';

export interface AddressBook {
  /** Address bodies (`avax1...`), without chain prefix, in generation order. */
  readonly list: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** The first `hot` addresses are "hot": they receive a large share, like exchanges and staking services. */
  readonly hot: number;
}

const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

export function generateAddresses(rng: Rng, hrp: 'avax' | 'fuji', count: number): AddressBook {
  const list: string[] = [];
  const indexOf = new Map<string, number>();
  while (list.length < count) {
    // 38 bech32 characters, five bits each, drawn six per 32-bit number.
    let a = `${hrp}1`;
    for (let k = 0; k < 38; k += 6) {
      let bits = Math.floor(rng.next() * 4294967296);
      for (let c = 0; c < 6 && k + c < 38; c++, bits >>>= 5) a += BECH32_ALPHABET[bits & 31];
    }
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
