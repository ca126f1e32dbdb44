import { freezeJson } from '../../src/lib/frozen-json.ts';
import { violationsOf } from '../../src/shapes/index.ts';
import type { DataApi, NodeClient } from '../../src/upstream/client-types.ts';

/**
 * Answers frozen as the production cache hands them out (src/upstream/cached-clients.ts:
 * parsed once, deep-frozen, shared), without caching anything: so tests that count
 * upstream calls still see every call, and code that would change an answer it was
 * given fails here as it would behind the cache. Answers with a broken field are
 * never stored by the cache, so they are not frozen here either.
 */
function frozen<T>(answer: T): T {
  if (typeof answer === 'object' && answer !== null && !violationsOf(answer)) freezeJson(answer);
  return answer;
}

export function frozenDataApi(api: DataApi): DataApi {
  return new Proxy(api, {
    get(target, name, receiver) {
      const member: unknown = Reflect.get(target, name, receiver);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => (member as (...a: unknown[]) => Promise<unknown>).apply(target, args).then(frozen);
    },
  });
}

export function frozenNode<N extends NodeClient>(node: N): NodeClient {
  return {
    name: node.name,
    url: node.url,
    call: (method, params, opts) => node.call(method, params, opts).then(frozen),
    healthGet: (path, tags, opts) => node.healthGet(path, tags, opts).then(frozen),
  };
}
