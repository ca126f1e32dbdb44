import { describe, expect, it } from 'vitest';
import { inSpecForm } from '../../src/devnet/spec-form.ts';

/** An operation the spec has no schema for: only the Money form applies (sparse records are sparse-answers.test.ts'). */
const NOT_IN_SPEC = { route: 'GET /v1/not-in-the-spec', seed: 1 };

describe('the devnet writes Data API answers in the spec form', () => {
  it('writes every Money value as a JSON number, wherever it is', () => {
    const body = {
      nativeTokenBalance: { price: { currencyCode: 'usd', value: '35.12' }, balanceValue: { currencyCode: 'usd', value: '0' } },
      transactions: [{ erc20Transfers: [{ erc20Token: { price: { currencyCode: 'eur', value: '0.0123' } } }] }],
    };
    expect(inSpecForm({ status: 200, body }, NOT_IN_SPEC).body).toEqual({
      nativeTokenBalance: { price: { currencyCode: 'usd', value: 35.12 }, balanceValue: { currencyCode: 'usd', value: 0 } },
      transactions: [{ erc20Transfers: [{ erc20Token: { price: { currencyCode: 'eur', value: 0.0123 } } }] }],
    });
  });

  it('leaves what is no Money as it is: other objects with a value, bytes, empty answers', () => {
    const amount = { currencyCode: 'usd', value: '12', utxoCount: 1 };
    expect(inSpecForm({ status: 200, body: { amount, value: '7' } }, NOT_IN_SPEC).body).toEqual({ amount, value: '7' });
    const bytes = { status: 200, body: Buffer.from('{"price":{"currencyCode":"usd","value":"1"}}'), contentType: 'application/json' };
    expect(inSpecForm(bytes, NOT_IN_SPEC)).toBe(bytes);
    const empty = { status: 201 };
    expect(inSpecForm(empty, NOT_IN_SPEC)).toBe(empty);
  });
});
