// The Data API's webhook operations (tag Webhooks): webhooks and shared secrets per caller key
// (`x-service-api-key`; 401 without one), over the store of src/devnet/webhooks/store.ts. Listings
// page with the devnet's offset tokens (evm-params.ts `paginate`), 1..100 items, 10 by default.
import type { DevnetRequest } from '../http-types.ts';
import type { Route, RouteAnswer } from '../router.ts';
import type { WebhookStore } from '../webhooks/store.ts';
import { WEBHOOK_STATUSES } from '../webhooks/types.ts';
import { enumParam, LIST_LIMITS, paginate, parseJsonBody } from './evm-params.ts';
import { fail, get, guarded, ok, post } from './http-error.ts';

const API_KEY_HEADER = 'x-service-api-key';
const MAX_KEY_LENGTH = 256;

const created = (body: unknown): RouteAnswer => ({ status: 201, body });
const patch = (pattern: string, handle: Route['handle']): Route => ({ method: 'PATCH', pattern, handle: guarded(handle) });
const del = (pattern: string, handle: Route['handle']): Route => ({ method: 'DELETE', pattern, handle: guarded(handle) });

/** The caller's key; webhooks and secrets belong to it. */
function keyOf(req: DevnetRequest): string {
  const key = req.headers[API_KEY_HEADER];
  if (typeof key !== 'string' || key === '') return fail(401, `Webhooks need an API key (${API_KEY_HEADER})`);
  if (key.length > MAX_KEY_LENGTH) return fail(401, 'Invalid API key');
  return key;
}

const idOf = (params: Record<string, string>): string => params['id'] ?? '';

export function webhookRoutes(store: WebhookStore): Route[] {
  return [
    post('/v1/webhooks', (_p, req) => {
      const key = keyOf(req);
      return created(store.create(key, parseJsonBody(req.body)));
    }),
    get('/v1/webhooks', (_p, req) => {
      const key = keyOf(req);
      const status = enumParam(req.query, 'status', WEBHOOK_STATUSES);
      const { page, nextPageToken } = paginate(store.list(key, status), req.query, LIST_LIMITS, `webhooks:${status ?? ''}`);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), webhooks: page });
    }),
    get('/v1/webhooks/{id}', (p, req) => ok(store.get(keyOf(req), idOf(p)))),
    patch('/v1/webhooks/{id}', (p, req) => {
      const key = keyOf(req);
      store.get(key, idOf(p));
      return ok(store.update(key, idOf(p), parseJsonBody(req.body)));
    }),
    del('/v1/webhooks/{id}', (p, req) => ok(store.deactivate(keyOf(req), idOf(p)))),
    get('/v1/webhooks/{id}/addresses', (p, req) => {
      const all = store.addresses(keyOf(req), idOf(p));
      const { page, nextPageToken } = paginate(all, req.query, LIST_LIMITS, `webhook-addresses:${idOf(p)}`);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), addresses: page, totalAddresses: all.length });
    }),
    patch('/v1/webhooks/{id}/addresses', (p, req) => {
      const key = keyOf(req);
      store.get(key, idOf(p));
      return ok(store.addAddresses(key, idOf(p), parseJsonBody(req.body)));
    }),
    del('/v1/webhooks/{id}/addresses', (p, req) => {
      const key = keyOf(req);
      store.get(key, idOf(p));
      return ok(store.removeAddresses(key, idOf(p), parseJsonBody(req.body)));
    }),
    get('/v1/webhooks:getSharedSecret', (_p, req) => ok({ secret: store.secret(keyOf(req)) })),
    post('/v1/webhooks:generateOrRotateSharedSecret', (_p, req) => created({ secret: store.rotateSecret(keyOf(req)) })),
  ];
}
