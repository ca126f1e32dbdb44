/** The media types yoga answers a single (not incremental) result with. */
export const JSON_MEDIA_TYPES = ['application/graphql-response+json', 'application/json'] as const;

export type JsonMediaType = (typeof JSON_MEDIA_TYPES)[number];

/**
 * The JSON media type yoga would answer a single result with for this Accept header, found as yoga's
 * result processors find it (graphql-yoga's `accept.js` and `use-result-processor.js`: utf-8 types only,
 * the JSON processor last, so it wins whenever one of its types matches, with the first listed that
 * matches), or undefined when the caller accepts neither (yoga then answers in its own way). Plugins that
 * answer with a body they made (a held response, a result serialized in pieces) use it to answer exactly
 * as yoga would.
 */
export function jsonMediaType(accept: string | null): JsonMediaType | undefined {
  // Clients send a handful of Accept headers, each on every request: each is parsed once.
  const key = accept ?? '';
  const known = chosenFor.get(key);
  if (known !== undefined || chosenFor.has(key)) return known;
  const chosen = parseJsonMediaType(accept);
  if (key.length <= MAX_CACHED_ACCEPT_CHARS) {
    if (chosenFor.size >= MAX_CACHED_ACCEPTS) chosenFor.delete(chosenFor.keys().next().value as string);
    chosenFor.set(key, chosen);
  }
  return chosen;
}

/** The Accept headers seen last (oldest first) and their answers: at most this many, each at most this long. */
const MAX_CACHED_ACCEPTS = 32;
const MAX_CACHED_ACCEPT_CHARS = 256;
const chosenFor = new Map<string, JsonMediaType | undefined>();

function parseJsonMediaType(accept: string | null): JsonMediaType | undefined {
  let chosen: JsonMediaType | undefined;
  const asked = (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',').reverse();
  for (const part of asked) {
    const [type = '', ...params] = part.split(';');
    if ((params.find((param) => param.includes('charset=')) ?? 'charset=utf-8') !== 'charset=utf-8') continue;
    const [pre, suf] = type.split('/');
    for (const candidate of JSON_MEDIA_TYPES) {
      const [cPre, cSuf] = candidate.split('/');
      if ((pre === '*' || pre === cPre) && (suf === '*' || suf === cSuf)) chosen = candidate;
    }
  }
  return chosen;
}
