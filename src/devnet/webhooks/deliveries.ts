// The devnet's webhook deliveries: what the Data API's webhook service does for `address_activity`
// webhooks. Every tick scans the blocks each active webhook's chain produced since its last scan
// (at most MAX_BLOCKS_PER_TICK, so a long pause catches up over ticks), and queues one delivery per
// transaction that touches a watched address, signed with its key's shared secret.
//
// Primary-network and validator webhooks are scanned the same way over the P- or X-chain's new blocks,
// for the devnet's live activity (src/devnet/dataset/primary/live.ts): a transfer paying a watched
// address is a `balance_change` of `primary_network_address_activity`; for a watched node (or any
// validator of a watched primary network) a delegation is a `delegator_stake` of `validator_activity`,
// a new validation's staking tx a `validator_stake`, and a validation's end (the block its end time
// reaches, its RewardValidatorTx) a `reward_distribution`. Each is sent only when the webhook asked for
// that sub-event.
//
// A delivery is POSTed to the webhook's url; a connection error, a timeout (DELIVERY_TIMEOUT_MS) or a
// non-2xx answer is retried after 1, 2, 4 and 8 s with the same messageId and body (5 attempts in all).
// Deliveries of one webhook start in the order they were queued, at most MAX_IN_FLIGHT at once; a
// delivery keeps its slot while it waits to be retried. The queue of deliveries not yet started is
// bounded (MAX_PENDING over every webhook): past it the oldest is dropped and counted on its webhook.
// Deliveries are not Data API requests: they are not in the request stats, log or usage ledger.
import { randomUUID } from 'node:crypto';
import { signWebhookPayload, WEBHOOK_SIGNATURE_HEADER } from '../../lib/webhook-signature.ts';
import type { FullTransaction } from '../../shapes/index.ts';
import { PRIMARY_NETWORK_ID } from '../../shapes/index.ts';
import type { Dataset } from '../dataset/index.ts';
import { touchedAddresses, transferLogs, webhookTransaction } from './payload.ts';
import type { StoredWebhook, WatchedChain, WebhookStore } from './store.ts';
import type { TransactionEvent, WebhookPayload } from './types.ts';
import type { LiveEvent } from '../dataset/primary/live.ts';
import type { ValidatorChainEvent } from '../dataset/primary/index.ts';

export const MAX_BLOCKS_PER_TICK = 64;
export const DELIVERY_TIMEOUT_MS = 5_000;
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000];
export const MAX_IN_FLIGHT = 4;
export const MAX_PENDING = 10_000;

/** A webhook's delivery counters, as `GET /__devnet/webhooks` lists them (no key, no secret). */
export interface WebhookCounters {
  id: string;
  eventType: string;
  status: string;
  chainId: string;
  /** Deliveries answered 2xx. */
  delivered: number;
  /** Attempts that failed (each retry counts). */
  failedAttempts: number;
  /** Deliveries given up after their last attempt. */
  abandoned: number;
  /** Deliveries queued or under way (waiting for a retry included). */
  pending: number;
  /** Deliveries dropped from a full queue before their first attempt. */
  dropped: number;
}

export interface WebhookDeliveries {
  /** One scan and delivery round; resolves when the first attempt of each of its deliveries has settled. */
  tick(): Promise<void>;
  counters(): { webhooks: WebhookCounters[]; pending: number; dropped: number };
  /** Stops the loop and aborts deliveries under way. */
  close(): void;
}

export interface WebhookDeliveriesOptions {
  store: WebhookStore;
  dataset: Dataset;
  /** Scan period, ms; 0 runs no loop (a test calls `tick()`). */
  intervalMs: number;
}

interface Job {
  stored: StoredWebhook;
  payload: WebhookPayload;
  seq: number;
  /** Called once its first attempt settled (or it was dropped, or the devnet closed). */
  settle: () => void;
}

interface DeliveryState {
  queue: Job[];
  inFlight: number;
  delivered: number;
  failedAttempts: number;
  abandoned: number;
  dropped: number;
}

/** A transaction of a scanned block, with what the mapping needs. */
interface ScannedTx {
  full: FullTransaction;
  touched: Set<string>;
  cumulativeGasUsed: bigint;
}

export function createWebhookDeliveries(options: WebhookDeliveriesOptions): WebhookDeliveries {
  const { store, dataset } = options;
  const states = new Map<string, DeliveryState>();
  const closing = new AbortController();
  let queued = 0;
  let droppedTotal = 0;
  let seq = 0;

  const stateOf = (id: string): DeliveryState => {
    let state = states.get(id);
    if (!state) {
      state = { queue: [], inFlight: 0, delivered: 0, failedAttempts: 0, abandoned: 0, dropped: 0 };
      states.set(id, state);
    }
    return state;
  };

  /** The transactions of block `n`, with their complete views; memoised for one scan (webhooks of a chain share it). */
  function blockTransactions(memo: Map<string, ScannedTx[]>, chain: WatchedChain, n: number): ScannedTx[] {
    const key = `${chain.evmChainId}:${n}`;
    const known = memo.get(key);
    if (known) return known;
    const evm = dataset.evm[chain.network];
    const out: ScannedTx[] = [];
    let cumulativeGasUsed = 0n;
    for (const tx of evm.blocks.content(chain.evmChainId, n)?.transactions ?? []) {
      cumulativeGasUsed += BigInt(tx.gasUsed);
      const full = evm.transaction(chain.evmChainId, tx.txHash, 'usd');
      if (full) out.push({ full, touched: touchedAddresses(full), cumulativeGasUsed });
    }
    memo.set(key, out);
    return out;
  }

  function eventOf(stored: StoredWebhook, tx: ScannedTx): TransactionEvent | undefined {
    const { hook, chain } = stored;
    if (hook.eventType !== 'address_activity' || !chain) return undefined;
    const evm = dataset.evm[chain.network];
    const transaction = webhookTransaction(tx.full, {
      cumulativeGasUsed: tx.cumulativeGasUsed,
      contract: (address) => evm.blocks.contract(chain.evmChainId, address),
      includeInternalTxs: hook.includeInternalTxs,
    });
    if (!hook.includeLogs) return { transaction };
    const signatures = hook.metadata.eventSignatures?.map((s) => s.toLowerCase());
    const logs = transferLogs(tx.full).filter((l) => !signatures?.length || signatures.includes(l.topic0));
    return { transaction, logs };
  }

  /** Scans every active webhook's new blocks and queues their deliveries; answers the jobs queued. */
  function scan(): Promise<void>[] {
    const memo = new Map<string, ScannedTx[]>();
    const settled: Promise<void>[] = [];
    for (const stored of store.activeEvmWebhooks()) {
      const { chain, watched } = stored;
      if (!chain || !watched) continue;
      const latest = dataset.evm[chain.network].latestBlock(chain.evmChainId) ?? stored.cursor;
      const end = Math.min(latest, stored.cursor + MAX_BLOCKS_PER_TICK);
      for (let n = stored.cursor + 1; n <= end; n++) {
        for (const tx of blockTransactions(memo, chain, n)) {
          if (![...tx.touched].some((a) => watched.has(a))) continue;
          const event = eventOf(stored, tx);
          if (event) settled.push(enqueue(stored, { webhookId: stored.hook.id, eventType: 'address_activity', messageId: randomUUID(), event }));
        }
      }
      stored.cursor = Math.max(stored.cursor, end);
    }
    for (const stored of store.activePrimaryWebhooks()) {
      const { primary: watching } = stored;
      if (!watching || watching.chain === 'c') continue;
      const data = dataset.primary[watching.network];
      const end = Math.min(data.latestHeight(watching.chain), stored.cursor + MAX_BLOCKS_PER_TICK);
      for (let h = stored.cursor + 1; h <= end; h++) {
        const live = data.liveEvent(watching.chain, h);
        const payload = live && primaryPayload(stored, live);
        if (payload) settled.push(enqueue(stored, payload));
        if (stored.hook.eventType === 'validator_activity') {
          for (const event of data.validatorEvents(h)) {
            const validation = validationPayload(stored, event);
            if (validation) settled.push(enqueue(stored, validation));
          }
        }
      }
      stored.cursor = Math.max(stored.cursor, end);
    }
    return settled;
  }

  /** What a primary-network or validator webhook is sent about a live transaction, if it watches what it touches. */
  function primaryPayload(stored: StoredWebhook, live: LiveEvent): WebhookPayload | undefined {
    const { hook, primary: watching } = stored;
    if (!watching) return undefined;
    const data = dataset.primary[watching.network];
    const envelope = { webhookId: hook.id, messageId: randomUUID() };
    if (hook.eventType === 'primary_network_address_activity') {
      const watched = hook.metadata.keys.some((k) => k.replace(/^[PXC]-/, '') === live.address);
      if (!watched || !hook.metadata.subEvents.addressActivitySubEvents.includes('balance_change')) return undefined;
      return {
        ...envelope, eventType: hook.eventType,
        event: {
          subEvent: 'balance_change', network: watching.network, blockchainId: data.chainIds[live.chain],
          addresses: [`${live.chain.toUpperCase()}-${live.address}`], txHash: live.txHash, txType: live.txType, blockTimestamp: live.timestamp,
        },
      };
    }
    if (live.txType !== 'AddPermissionlessDelegatorTx' || live.nodeId === undefined) return undefined;
    return validationPayload(stored, { subEvent: 'delegator_stake', nodeId: live.nodeId, txHash: live.txHash, timestamp: live.timestamp });
  }

  /** What a validator webhook is sent about a validator event of a primary-network validation, if it watches the node and the sub-event. */
  function validationPayload(stored: StoredWebhook, event: ValidatorChainEvent | (Omit<ValidatorChainEvent, 'subEvent'> & { subEvent: 'delegator_stake' })): WebhookPayload | undefined {
    const { hook, primary: watching } = stored;
    if (!watching || hook.eventType !== 'validator_activity') return undefined;
    const key = hook.metadata.keys[0];
    const watched = hook.metadata.keyType === 'nodeId' ? key === event.nodeId : key === PRIMARY_NETWORK_ID;
    if (!watched || !hook.metadata.subEvents.validatorActivitySubEvents.includes(event.subEvent)) return undefined;
    return {
      webhookId: hook.id, messageId: randomUUID(), eventType: hook.eventType,
      event: { subEvent: event.subEvent, network: watching.network, nodeId: event.nodeId, subnetId: PRIMARY_NETWORK_ID, txHash: event.txHash, blockTimestamp: event.timestamp },
    };
  }

  function enqueue(stored: StoredWebhook, payload: WebhookPayload): Promise<void> {
    if (closing.signal.aborted) return Promise.resolve();
    const state = stateOf(stored.hook.id);
    const done = new Promise<void>((resolve) => {
      state.queue.push({ stored, payload, seq: ++seq, settle: resolve });
    });
    queued += 1;
    if (queued > MAX_PENDING) dropOldest();
    pump(state);
    return done;
  }

  /** Drops the delivery queued first over every webhook. */
  function dropOldest(): void {
    let oldest: DeliveryState | undefined;
    for (const state of states.values()) {
      const head = state.queue[0];
      if (head && (!oldest || head.seq < (oldest.queue[0] as Job).seq)) oldest = state;
    }
    const job = oldest?.queue.shift();
    if (!oldest || !job) return;
    queued -= 1;
    oldest.dropped += 1;
    droppedTotal += 1;
    job.settle();
  }

  function pump(state: DeliveryState): void {
    while (state.inFlight < MAX_IN_FLIGHT && !closing.signal.aborted) {
      const job = state.queue.shift();
      if (!job) return;
      queued -= 1;
      state.inFlight += 1;
      void deliver(state, job).finally(() => {
        state.inFlight -= 1;
        pump(state);
      });
    }
  }

  async function deliver(state: DeliveryState, job: Job): Promise<void> {
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      if (closing.signal.aborted) break;
      const ok = await attemptOnce(job);
      if (ok) {
        state.delivered += 1;
        job.settle();
        return;
      }
      state.failedAttempts += 1;
      job.settle();
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) {
        state.abandoned += 1;
        return;
      }
      await sleep(delay, closing.signal);
    }
    job.settle();
  }

  async function attemptOnce(job: Job): Promise<boolean> {
    // Signed when sent: a rotated secret signs the retries of deliveries queued before.
    const signature = signWebhookPayload(store.secret(job.stored.key), job.payload);
    try {
      const res = await fetch(job.stored.hook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
        body: JSON.stringify(job.payload),
        redirect: 'manual',
        signal: AbortSignal.any([closing.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      await res.body?.cancel();
      return res.status >= 200 && res.status < 300;
    } catch {
      return false;
    }
  }

  const timer = options.intervalMs > 0 ? setInterval(() => void scan(), options.intervalMs) : undefined;
  timer?.unref();

  return {
    async tick() {
      await Promise.all(scan());
    },
    counters() {
      const webhooks = store.all().map(({ hook }): WebhookCounters => {
        const s = states.get(hook.id);
        return {
          id: hook.id, eventType: hook.eventType, status: hook.status, chainId: hook.chainId,
          delivered: s?.delivered ?? 0, failedAttempts: s?.failedAttempts ?? 0, abandoned: s?.abandoned ?? 0,
          pending: (s?.queue.length ?? 0) + (s?.inFlight ?? 0), dropped: s?.dropped ?? 0,
        };
      });
      return { webhooks, pending: webhooks.reduce((sum, w) => sum + w.pending, 0), dropped: droppedTotal };
    },
    close() {
      if (timer) clearInterval(timer);
      closing.abort();
      for (const state of states.values()) {
        for (const job of state.queue.splice(0)) job.settle();
      }
      queued = 0;
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
