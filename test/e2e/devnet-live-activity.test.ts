import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import pino from 'pino';
import WebSocket from 'ws';
import { configFromEnv } from '../../src/server/config.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { freePort } from '../helpers/redis.ts';

// The three live-activity subscriptions on the devnet, end to end: a real gateway (startServer) takes the
// devnet's signed deliveries over HTTP and pushes them to a client over SSE (addressActivity,
// primaryNetworkActivity) and graphql-ws (validatorActivity). The devnet's clock is pinned: blocks, and so
// deliveries, appear only when the test moves it and calls `devnet.webhooks.tick()`. Each event is then
// compared with what the devnet itself serves about the transaction it names.

const KEY = 'devnet-live-activity-key';
let clock = Date.now();

interface Answer<D> { data?: D; errors?: { message: string }[] }

/** One SSE subscription; `first()` resolves with its first event. */
async function sse<D>(url: string, query: string): Promise<{ first: Promise<Answer<D>>; close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query }), signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const first = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const cut = buffer.indexOf('\n\n');
      if (cut >= 0) {
        const data = buffer.slice(0, cut).split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
        buffer = buffer.slice(cut + 2);
        if (data) return JSON.parse(data) as Answer<D>;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  })();
  return { first, close: () => controller.abort() };
}

interface AddressEvent { addressActivity: { messageId: string; chainId: string; transaction: { hash: string; blockNumber: string; from: string; to: string } } }
interface PrimaryEvent { primaryNetworkActivity: { subEvent: string; addresses: string[]; transactionHash: string; txType: string; transaction: { txHash: string; txTypeRaw: string } | null } }
interface ValidatorEvent { validatorActivity: { subEvent: string; nodeId: string; transactionHash: string; validator: { nodeId: string } | null } }

describe('live activity on the devnet', () => {
  let devnet: Devnet;
  let gateway: RunningServer;
  let ws: Client;

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 50, now: () => clock, webhookIntervalMs: 0 });
    const port = await freePort();
    gateway = await startServer(configFromEnv({
      PORT: String(port),
      DATA_API_URL: devnet.url,
      DATA_API_KEY: KEY,
      NODE_URLS: Object.entries(devnet.nodeUrls).map(([name, url]) => `${name}=${url}`).join(','),
      CACHE: 'off',
      WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${port}/webhooks/data-api`,
    }), pino({ level: 'silent' }));
    // Blocks from here on: an event from before the gateway started is one it cannot tell from a replay.
    clock = Math.max(clock, Date.now());
    ws = createClient({ url: gateway.url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0 });
  }, 60_000);

  afterAll(async () => {
    await ws?.dispose();
    await gateway?.close({ graceMs: 500 });
    await devnet?.close();
  });

  it('delivers addressActivity, primaryNetworkActivity and validatorActivity, each naming what the devnet then serves', async () => {
    const fx = devnet.dataset.fixtures().mainnet;
    const address = await sse<AddressEvent>(gateway.url,
      `subscription { addressActivity(chainId: "${fx.evmChainId}", addresses: ["${fx.activityAddress}"]) { messageId chainId transaction { hash blockNumber from to } } }`);
    const primary = await sse<PrimaryEvent>(gateway.url,
      `subscription { primaryNetworkActivity(network: MAINNET, blockchainId: "p-chain", addresses: ["${fx.activityPChainAddress}"]) { subEvent addresses transactionHash txType transaction { txHash txTypeRaw } } }`);
    const validator = ws.iterate<ValidatorEvent>({ query: `subscription { validatorActivity(network: MAINNET, nodeId: "${fx.nodeId}") { subEvent nodeId transactionHash validator { nodeId } } }` });
    const validatorFirst = validator.next();

    // Registered: one webhook of each type, active.
    const types = ['address_activity', 'primary_network_address_activity', 'validator_activity'];
    for (let i = 0; i < 500; i++) {
      const active = new Set(devnet.webhooks.counters().webhooks.filter((w) => w.status === 'active').map((w) => w.eventType));
      if (types.every((t) => active.has(t))) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(new Set(devnet.webhooks.counters().webhooks.map((w) => w.eventType))).toEqual(new Set(types));

    // Move the devnet's clock on, 10 s (five blocks of each chain) a tick, until all three got an event (bounded by ticks).
    let settled = 0;
    for (const p of [address.first, primary.first, validatorFirst]) void p.then(() => (settled += 1), () => (settled += 1));
    let ticks = 0;
    for (; ticks < 20 && settled < 3; ticks++) {
      clock += 10_000;
      await devnet.webhooks.tick();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (let i = 0; i < 200 && settled < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    // A P-chain delegation every 6 blocks: three ticks of the clock are enough for all three.
    expect(ticks).toBeLessThanOrEqual(3);

    const evm = await address.first;
    expect(evm.errors).toBeUndefined();
    const tx = evm.data?.addressActivity.transaction as AddressEvent['addressActivity']['transaction'];
    const full = (await (await fetch(`${devnet.url}/v1/chains/${fx.evmChainId}/transactions/${tx.hash}`)).json()) as { nativeTransaction: { blockNumber: string; from: { address: string }; to: { address: string } } };
    expect(full.nativeTransaction.blockNumber).toBe(tx.blockNumber);
    expect([full.nativeTransaction.from.address, full.nativeTransaction.to.address]).toEqual([tx.from, tx.to]);
    expect(JSON.stringify(full).toLowerCase()).toContain(fx.activityAddress.toLowerCase());

    const p = await primary.first;
    expect(p.errors).toBeUndefined();
    const pe = p.data?.primaryNetworkActivity as PrimaryEvent['primaryNetworkActivity'];
    expect(pe.subEvent).toBe('BALANCE_CHANGE');
    expect(pe.addresses).toEqual([fx.activityPChainAddress]);
    expect(pe.transaction).toEqual({ txHash: pe.transactionHash, txTypeRaw: pe.txType });
    const ptx = (await (await fetch(`${devnet.url}/v1/networks/mainnet/blockchains/p-chain/transactions/${pe.transactionHash}`)).json()) as { blockNumber: string; emittedUtxos: { addresses: string[] }[] };
    expect(ptx.emittedUtxos.flatMap((u) => u.addresses)).toContain(fx.activityPChainAddress.slice(2));
    const pblock = (await (await fetch(`${devnet.url}/v1/networks/mainnet/blockchains/p-chain/blocks/${ptx.blockNumber}`)).json()) as { transactions: string[] };
    expect(pblock.transactions).toContain(pe.transactionHash);

    const v = await validatorFirst;
    expect(v.done).toBe(false);
    const ve = (v.value as { data?: ValidatorEvent; errors?: unknown }).data?.validatorActivity as ValidatorEvent['validatorActivity'];
    expect(ve).toMatchObject({ subEvent: 'DELEGATOR_STAKE', nodeId: fx.nodeId, validator: { nodeId: fx.nodeId } });
    const vtx = (await (await fetch(`${devnet.url}/v1/networks/mainnet/blockchains/p-chain/transactions/${ve.transactionHash}`)).json()) as { txType: string; nodeId: string; rewardAddresses: string[] };
    expect(vtx).toMatchObject({ txType: 'AddPermissionlessDelegatorTx', nodeId: fx.nodeId, rewardAddresses: [fx.activityPChainAddress] });
    const listed = (await (await fetch(`${devnet.url}/v1/networks/mainnet/validators/${fx.nodeId}?validationStatus=active`)).json()) as { validators: { nodeId: string }[] };
    expect(listed.validators.map((x) => x.nodeId)).toContain(fx.nodeId);

    address.close();
    primary.close();
    await validator.return?.();
  }, 60_000);

  it('delivers validatorActivity when a new validation is staked and when it ends, naming what the devnet then serves', async () => {
    const data = devnet.dataset.primary.mainnet;
    // The next live validation (one P-chain block in 300), known ahead: it is a function of the seed.
    const from = data.latestHeight('p') + 1;
    const height = from + ((((2 - from) % 300) + 300) % 300);
    const live = data.live.validationAt(height);
    if (!live) throw new Error(`no live validation at ${height}`);
    const events = ws.iterate<ValidatorEvent>({ query: `subscription { validatorActivity(network: MAINNET, nodeId: "${live.nodeId}") { subEvent nodeId transactionHash validator { nodeId } } }` });
    for (let i = 0; i < 500; i++) {
      const res = await fetch(`${devnet.url}/v1/webhooks?status=active`, { headers: { 'x-service-api-key': KEY } });
      const { webhooks } = (await res.json()) as { webhooks: { metadata: { keys?: string[] } }[] };
      if (webhooks.some((w) => w.metadata.keys?.includes(live.nodeId))) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    /** Moves the clock to `sec` and ticks until the devnet's deliveries have scanned up to it (64 blocks a tick). */
    const reach = async (sec: number): Promise<void> => {
      const before = data.latestHeight('p');
      clock = sec * 1000;
      for (let k = 0; k <= Math.ceil((data.latestHeight('p') - before) / 64); k++) await devnet.webhooks.tick();
    };
    const next = async (): Promise<ValidatorEvent['validatorActivity']> => {
      const { value, done } = await events.next();
      expect(done).toBe(false);
      return (value as { data: ValidatorEvent }).data.validatorActivity;
    };

    await reach(Number(data.block('p', height).blockTimestamp) + 2);
    const staked = await next();
    expect(staked).toMatchObject({ subEvent: 'VALIDATOR_STAKE', nodeId: live.nodeId, transactionHash: live.txHash, validator: { nodeId: live.nodeId } });
    const stakeTx = (await (await fetch(`${devnet.url}/v1/networks/mainnet/blockchains/p-chain/transactions/${live.txHash}`)).json()) as Record<string, unknown>;
    expect(stakeTx).toMatchObject({ txType: 'AddPermissionlessValidatorTx', nodeId: live.nodeId, startTimestamp: live.start, endTimestamp: live.end });

    await reach(live.end + 2);
    const ended = await next();
    const records = (await (await fetch(`${devnet.url}/v1/networks/mainnet/validators/${live.nodeId}`)).json()) as { validators: { txHash: string; validationStatus: string; rewards: { rewardTxHash?: string } }[] };
    const record = records.validators.find((x) => x.txHash === live.txHash);
    expect(record?.validationStatus).toBe('completed');
    expect(ended).toMatchObject({ subEvent: 'REWARD_DISTRIBUTION', nodeId: live.nodeId, transactionHash: record?.rewards.rewardTxHash });
    await events.return?.();
  }, 120_000);
});
