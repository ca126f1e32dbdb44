/** Options of {@link createAdmissionGate}. */
export interface AdmissionOptions {
  /**
   * Most queries and mutations in progress at once (`MAX_CONCURRENT_OPERATIONS`), from execution to the
   * last byte of their response written (see `useEdgePolicy`): what bounds the memory held by results
   * (each at most `MAX_RESPONSE_BYTES`), whether or not their clients read them. Operations mostly wait on
   * the upstream, so this is above the core count.
   * Default 32 (the benchmark's 16 connections and the validator walk at 16 concurrent fit in it).
   */
  maxConcurrent?: number;
  /** Most operations waiting for a slot (`MAX_QUEUED_OPERATIONS`); each holds its parsed request. Default 64. */
  maxQueued?: number;
  /** Longest wait for a slot in ms (`MAX_QUEUE_WAIT_MS`); then 503 SERVER_BUSY. Default 2000. */
  maxWaitMs?: number;
  /** Most live subscriptions (`MAX_SUBSCRIPTIONS`); each polls the upstream every 2 s. Default 100. */
  maxSubscriptions?: number;
  /** `Retry-After` sent with 503 SERVER_BUSY, in seconds. Default 1. */
  retryAfterSeconds?: number;
  /**
   * Most slots one client may hold (`MAX_OPERATIONS_PER_CLIENT`): its further operations wait in the same
   * queue, and a freed slot goes to the first waiter whose client is under its share, so one client
   * never holds every slot. Default: no share (the edge policy sets half of `maxConcurrent`).
   */
  maxPerClient?: number;
}

export const ADMISSION_DEFAULTS = { maxConcurrent: 32, maxQueued: 64, maxWaitMs: 2000, maxSubscriptions: 100, retryAfterSeconds: 1, maxPerClient: Infinity } as const;

export interface AdmissionStats {
  running: number;
  queued: number;
  subscriptions: number;
  /** Requests and subscriptions refused with SERVER_BUSY since start. */
  rejected: number;
}

/** Counts the slots; one per gateway, shared by its requests. */
export interface AdmissionGate {
  /**
   * A release function once a slot is free (and `client` under its share), or undefined when the queue is
   * full, the wait too long or the caller gone.
   */
  acquire(signal?: AbortSignal, client?: string): Promise<(() => void) | undefined>;
  /** A subscription slot's release function, or undefined when `maxSubscriptions` are live. */
  acquireSubscription(): (() => void) | undefined;
  stats(): AdmissionStats;
  readonly options: Required<AdmissionOptions>;
}

interface Waiter {
  client: string;
  grant: (release: (() => void) | undefined) => void;
}

/**
 * A counting semaphore with per-client shares, one bounded FIFO queue and a bounded wait. Every release
 * function is idempotent, so a request released twice (response and abort) frees one slot. Per-client
 * counts exist only while a client holds a slot, so they are bounded by `maxConcurrent`.
 */
export function createAdmissionGate(options: AdmissionOptions = {}): AdmissionGate {
  const limits: Required<AdmissionOptions> = { ...ADMISSION_DEFAULTS, ...options };
  let running = 0;
  let subscriptions = 0;
  let rejected = 0;
  const held = new Map<string, number>();
  const queue: Waiter[] = [];

  const fits = (client: string): boolean => running < limits.maxConcurrent && (held.get(client) ?? 0) < limits.maxPerClient;
  const take = (client: string): (() => void) => {
    running++;
    held.set(client, (held.get(client) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      running--;
      const left = (held.get(client) ?? 1) - 1;
      if (left > 0) held.set(client, left);
      else held.delete(client);
      pump();
    };
  };
  /** Grants freed slots to the first waiters that fit, in order (a waiter over its share lets others pass). */
  const pump = (): void => {
    for (let i = 0; i < queue.length && running < limits.maxConcurrent; ) {
      const waiter = queue[i] as Waiter;
      if (!fits(waiter.client)) {
        i++;
        continue;
      }
      queue.splice(i, 1);
      waiter.grant(take(waiter.client));
    }
  };

  return {
    options: limits,
    acquire(signal, client = '') {
      if (fits(client) && queue.length === 0) return Promise.resolve(take(client));
      if (queue.length >= limits.maxQueued || signal?.aborted) {
        rejected++;
        return Promise.resolve(undefined);
      }
      return new Promise((resolve) => {
        const leave = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
        };
        const onAbort = () => {
          leave();
          clearTimeout(timer);
          resolve(undefined);
        };
        const timer = setTimeout(() => {
          leave();
          signal?.removeEventListener('abort', onAbort);
          rejected++;
          resolve(undefined);
        }, limits.maxWaitMs);
        const waiter: Waiter = {
          client,
          grant: (release) => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            resolve(release);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(waiter);
        // A client under its share may pass waiters that are over theirs.
        pump();
      });
    },
    acquireSubscription() {
      if (subscriptions >= limits.maxSubscriptions) {
        rejected++;
        return undefined;
      }
      subscriptions++;
      let done = false;
      return () => {
        if (!done) {
          done = true;
          subscriptions--;
        }
      };
    },
    stats: () => ({ running, queued: queue.length, subscriptions, rejected }),
  };
}
