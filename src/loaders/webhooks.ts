import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { FetchPage } from '../lib/pages.ts';
import {
  PAGES, type CreateWebhookRequest, type UpdateWebhookRequest, type Webhook, type WebhookSharedSecret, type WebhookStatus,
} from '../shapes/index.ts';
import { nullOnNotFound } from './not-found.ts';
import { requireOwnKey, type KeyOwner } from './own-key.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';

/**
 * The Data API's webhooks belong to the key that created them: every call here is made with
 * the caller's own key (or the gateway's, for an admin) and refused before any call otherwise
 * (`requireOwnKey`). The rows are never cached (`cache: null`), so no answer made with one key
 * is ever served to another, and every call reports an expiry of 0, which keeps the response
 * out of the whole-response cache too.
 */
type Ctx = LoaderContext & KeyOwner;

const WHAT = 'Managing webhooks';

/** listWebhooks as pages: the caller's webhooks, optionally only active or inactive ones. */
export function webhookPages(ctx: Ctx, status: WebhookStatus | undefined): FetchPage<Webhook> {
  requireOwnKey(ctx, WHAT);
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listWebhooks({ pageSize, ...(pageToken ? { pageToken } : {}), ...(status ? { status } : {}) }, ctx.call);
    return { items: page.webhooks, nextPageToken: page.nextPageToken };
  };
}

/** `Query.webhooks`: a page, or two with `after`. */
export const WEBHOOKS_COST: FieldCost = weighing(costs.listing(PAGES.webhooks), ENDPOINTS.listWebhooks);

/**
 * getWebhook, once per id per request (the operation takes one id: nothing to batch). Null when
 * the key has no such webhook (the Data API answers 404 for another key's id as for a missing one).
 */
export function webhookById(ctx: Ctx, id: string): Promise<Webhook | null> {
  requireOwnKey(ctx, WHAT);
  const loader = memoLoader(ctx, 'webhookById', () => new DataLoader<string, Webhook | null>(
    (ids) => Promise.all(ids.map((one) => nullOnNotFound(upstreamOf(ctx).dataApi.getWebhook(one, ctx.call)).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))))),
  ));
  return loader.load(id);
}

/** `Query.webhook`: one call per distinct id. */
export const WEBHOOK_LOOKUP_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getWebhook);

/** What a page of a webhook's addresses says besides its items: how many it watches in all. */
export interface AddressTotal {
  total: number | undefined;
}

/**
 * getAddressesFromWebhook as pages: the addresses one webhook watches. Each webhook is its own
 * listing (the operation takes one id), so a page of webhooks costs one call per webhook. The
 * total the Data API gives with each page is kept in `total`.
 */
export function webhookAddressPages(ctx: Ctx, id: string, total: AddressTotal): FetchPage<string> {
  requireOwnKey(ctx, WHAT);
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listWebhookAddresses(id, { pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
    total.total = Number(page.totalAddresses);
    return { items: page.addresses, nextPageToken: page.nextPageToken };
  };
}

/** `Webhook.addresses`: a page (two with `after`) per webhook: it cannot batch. */
export const WEBHOOK_ADDRESSES_COST: FieldCost = weighing(costs.listing(PAGES.webhookAddresses), ENDPOINTS.listWebhookAddresses);

/** getSharedSecret: the secret the Data API signs the key's deliveries with. */
export function webhookSharedSecret(ctx: Ctx): Promise<WebhookSharedSecret> {
  requireOwnKey(ctx, WHAT);
  return upstreamOf(ctx).dataApi.getWebhookSharedSecret(ctx.call);
}

/** generateOrRotateSharedSecret: a new secret; deliveries are signed with it from now on. */
export function rotateWebhookSharedSecret(ctx: Ctx): Promise<WebhookSharedSecret> {
  requireOwnKey(ctx, WHAT);
  return upstreamOf(ctx).dataApi.rotateWebhookSharedSecret(ctx.call);
}

/** createWebhook. */
export function createWebhook(ctx: Ctx, body: CreateWebhookRequest): Promise<Webhook> {
  requireOwnKey(ctx, WHAT);
  return upstreamOf(ctx).dataApi.createWebhook(body, ctx.call);
}

/** updateWebhook: null when the key has no such webhook. */
export function updateWebhook(ctx: Ctx, id: string, body: UpdateWebhookRequest): Promise<Webhook | null> {
  requireOwnKey(ctx, WHAT);
  return nullOnNotFound(upstreamOf(ctx).dataApi.updateWebhook(id, body, ctx.call));
}

/** deactivateWebhook: the webhook, now inactive; null when the key has no such webhook. */
export function deactivateWebhook(ctx: Ctx, id: string): Promise<Webhook | null> {
  requireOwnKey(ctx, WHAT);
  return nullOnNotFound(upstreamOf(ctx).dataApi.deactivateWebhook(id, ctx.call));
}

/** addAddressesToWebhook or removeAddressesFromWebhook: null when the key has no such webhook. */
export function changeWebhookAddresses(ctx: Ctx, id: string, change: 'add' | 'remove', addresses: string[]): Promise<Webhook | null> {
  requireOwnKey(ctx, WHAT);
  const { dataApi } = upstreamOf(ctx);
  const call = change === 'add' ? dataApi.addWebhookAddresses(id, { addresses }, ctx.call) : dataApi.removeWebhookAddresses(id, { addresses }, ctx.call);
  return nullOnNotFound(call);
}

/** Each webhook mutation and the shared secret: one call. */
export const WEBHOOK_CALL_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.createWebhook, ENDPOINTS.updateWebhook, ENDPOINTS.deactivateWebhook, ENDPOINTS.addWebhookAddresses, ENDPOINTS.removeWebhookAddresses, ENDPOINTS.rotateWebhookSharedSecret, ENDPOINTS.getWebhookSharedSecret);
