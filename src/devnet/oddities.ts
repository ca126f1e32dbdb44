import { JSON_CONTENT_TYPE, type DevnetResponse } from './http-types.ts';
import { hashToUint32, Rng } from './rng.ts';
import { answerSchema, conforms, oddJson, RawNumber, SPEC_FACTS, SpecRewriter, type Json, type SchemaObject, type SpecFacts } from './spec-walk.ts';

/**
 * The oddities mode (`DEVNET_ODDITIES=1`): every Data API answer the devnet builds is rewritten into
 * one that is still valid under the real Data API's OpenAPI spec but takes the unusual values the spec
 * allows and real data sometimes has: non-numeric strings where the spec says `string` (`"string"`,
 * `""`, hashes that are not hex, text with URL separators), numbers at the top of their types as
 * digit strings (2^64-1, 2^256-1), negative, fractional and huge numbers where it says `number`
 * (2^64-1 as an exact literal, `5.0` for `5`, `1E+21`), optional properties left out, arrays empty.
 *
 * The spec's schemas drive it, through the walk of `spec-walk.ts`: a value is only changed into one
 * that every schema applying to it accepts, a required property is never left out, an enum value is
 * never changed (every enum of this spec is closed: only the value the devnet chose is known to mean
 * what it says), a `oneOf` keeps matching exactly the branch it matched, and page tokens and
 * discriminators stay as the devnet made them.
 *
 * Deterministic: the choices are drawn from a generator seeded by the oddities seed and the request
 * (method, path and query), so the same request gets the same answer and a test can run a query twice.
 */

/** Options of {@link createOddities}. */
export interface OdditiesOptions {
  /** Seed of the choices (the devnet passes its dataset seed). Default 1. */
  seed?: number;
  /** Share of leaf values (strings, numbers, booleans) changed. Default 0.3. */
  valueRate?: number;
  /** Share of optional properties left out. Default 0.12. */
  dropRate?: number;
  /** Share of arrays answered empty. Default 0.08. */
  emptyRate?: number;
}

export const ODDITIES_DEFAULTS = { seed: 1, valueRate: 0.3, dropRate: 0.12, emptyRate: 0.08 } as const;

const TOP_UINT64 = '18446744073709551615';
const TOP_UINT256 = '115792089237316195423570985084023665640564039457584007913129639935';

/** Strings the spec allows wherever it says `string` with no enum or format. */
const ODD_STRINGS: readonly string[] = [
  'string',
  '',
  '-1',
  '1.5',
  '1e3',
  TOP_UINT64,
  TOP_UINT256,
  `${TOP_UINT256}0`,
  '0xZZ',
  'not hex ∆ ✓',
  'a/b?c=d#e f%',
  'x'.repeat(600),
];

/** Date-times other than usual that `format: date-time` still accepts. */
const ODD_DATE_TIMES: readonly string[] = ['1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999Z', '2024-02-29T12:00:00+14:00'];

/** Numbers the spec allows wherever it says `number`: negative, fractional, huge, and exact literals of wide integers. */
const ODD_NUMBERS: readonly (number | RawNumber)[] = [
  -1,
  0,
  0.5,
  -2.75,
  2 ** 53 + 2,
  1.7976931348623157e308,
  5e-324,
  new RawNumber(TOP_UINT64),
  new RawNumber(TOP_UINT256),
  new RawNumber('-9223372036854775809'),
  new RawNumber('1E+21'),
];

/**
 * The transformation of the devnet's Data API answers: a success answer whose operation the spec
 * declares is rewritten (and sent as JSON text, its wide number literals exact); any other answer
 * is passed through as it is.
 */
export function createOddities(options: OdditiesOptions = {}, spec: SpecFacts = SPEC_FACTS): (method: string, target: string, answer: DevnetResponse) => DevnetResponse {
  const settings = { ...ODDITIES_DEFAULTS, ...options };
  return (method, target, answer) => {
    if (answer.status < 200 || answer.status > 299 || answer.body === undefined) return answer;
    const schema = answerSchema(spec, answer.route, answer.status);
    if (schema === undefined) return answer;
    let body: unknown = answer.body;
    if (Buffer.isBuffer(body) || typeof body === 'string') {
      try {
        body = JSON.parse(String(body)) as unknown;
      } catch {
        return answer;
      }
    }
    const rng = new Rng(hashToUint32(`${settings.seed}\0${method} ${target}`));
    const odd = new OddRewriter(spec, rng, settings).visit([schema], body as Json, undefined);
    return { ...answer, body: Buffer.from(oddJson(odd)), contentType: JSON_CONTENT_TYPE };
  };
}


/** The oddities' choices: each drawn from the request's stream, wherever the value is (no scope). */
class OddRewriter extends SpecRewriter<undefined> {
  constructor(
    spec: SpecFacts,
    private readonly rng: Rng,
    private readonly settings: Required<OdditiesOptions>,
  ) {
    super(spec);
  }

  protected emptied(): boolean {
    return this.rng.bool(this.settings.emptyRate);
  }

  protected leftOut(): boolean {
    return this.rng.bool(this.settings.dropRate);
  }

  protected scopeOf(): undefined {
    return undefined;
  }

  protected leaf(schemas: SchemaObject[], value: Json): Json {
    if (!this.rng.bool(this.settings.valueRate)) return value;
    // Closed enums and constants: only the value the devnet chose is known to mean what it says.
    if (schemas.some((s) => s.enum !== undefined || s.const !== undefined)) return value;
    const candidates: Json[] = [];
    if (typeof value === 'string') candidates.push(...(schemas.some((s) => s.format === 'date-time') ? ODD_DATE_TIMES : ODD_STRINGS));
    else if (typeof value === 'number' || value instanceof RawNumber) {
      candidates.push(...ODD_NUMBERS);
      // The same integer written as a fraction: only an exact reader tells `5.0` from `5`.
      if (typeof value === 'number' && Number.isInteger(value)) candidates.push(new RawNumber(`${value}.0`));
    } else if (typeof value === 'boolean') candidates.push(!value);
    candidates.push(null);
    const allowed = candidates.filter((candidate) => schemas.every((s) => conforms(this.spec, s, candidate)));
    return allowed.length === 0 ? value : this.rng.pick(allowed);
  }
}
