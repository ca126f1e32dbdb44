/**
 * One canonical JSON, for everything that hashes or keys on a value: cursor filter
 * hashes (src/schema/pagination.ts) and response-cache keys (src/upstream/cached-clients.ts).
 *
 * The rules:
 * - object keys are sorted (by UTF-16 code units), so the order a caller built an
 *   object in does not matter;
 * - object members whose value is `null` or `undefined` are dropped: an argument set
 *   to null and one left out mean the same thing (GraphQL `first: null` and no
 *   `first` must hash alike), and no upstream call sends a null parameter (the
 *   clients' parameter types have no null, and the Data API client omits absent
 *   query parameters), so null and absent never reach the wire differently;
 * - array order is kept (it can matter to the upstream), and `null`/`undefined`
 *   inside an array, or as the whole value, become `null` as in JSON.stringify;
 * - everything else is `JSON.stringify`'s text (a value it cannot encode, such as a
 *   function, becomes `null`; a bigint throws, as there).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
