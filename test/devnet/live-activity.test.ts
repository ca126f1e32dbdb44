import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { touchedAddresses } from '../../src/devnet/webhooks/payload.ts';

// The live-activity examples of docs/api.md, read from the file (so the doc cannot drift), are ids the
// devnet's new blocks touch, often: on the devnet `npm start` runs (default seed and size), with its clock
// pinned and moved block by block.

const DOC = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
const example = (pattern: RegExp): string[] => {
  const match = pattern.exec(DOC);
  expect(match, String(pattern)).not.toBeNull();
  return (match as RegExpExecArray).slice(1);
};

describe('the documented live-activity examples on the devnet', () => {
  let devnet: Devnet;
  let clock = Date.now();

  beforeAll(async () => {
    devnet = await startDevnet({ now: () => clock, webhookIntervalMs: 0 });
  }, 60_000);
  afterAll(() => devnet?.close());

  it('addressActivity: the example address is in every new block of its chain', () => {
    const [chainId, address] = example(/addressActivity\(chainId: "(\d+)", addresses: \["(0x[0-9a-fA-F]{40})"\]/) as [string, string];
    const evm = devnet.dataset.evm.mainnet;
    const start = evm.latestBlock(chainId) as number;
    clock += 60_000;
    const end = evm.latestBlock(chainId) as number;
    // A C-chain block every 2 s.
    expect(end - start).toBe(30);
    for (let n = start + 1; n <= end; n++) {
      const touched = (evm.blocks.content(chainId, n)?.transactions ?? []).some((tx) => {
        const full = evm.transaction(chainId, tx.txHash, 'usd');
        return full !== undefined && touchedAddresses(full).has(address.toLowerCase());
      });
      expect(touched, `block ${n}`).toBe(true);
    }
  });

  it('primaryNetworkActivity and validatorActivity: the example address and node show in new P-chain blocks, listed and resolvable', () => {
    const [pAddress] = example(/primaryNetworkActivity\(network: MAINNET, blockchainId: "p-chain", addresses: \["(P-[a-z0-9]+)"\]/) as [string];
    const [nodeId] = example(/validatorActivity\(network: MAINNET, nodeId: "(NodeID-[1-9A-HJ-NP-Za-km-z]+)"/) as [string];
    const primary = devnet.dataset.primary.mainnet;
    const start = primary.latestHeight('p');
    clock += 60_000;
    const end = primary.latestHeight('p');
    const transfers: string[] = [];
    const delegations: string[] = [];
    for (let h = start + 1; h <= end; h++) {
      const live = primary.liveEvent('p', h);
      // New validations (one block in 300) have tests of their own (live-validations.test.ts).
      if (!live || live.txType === 'AddPermissionlessValidatorTx') continue;
      expect(`P-${live.address}`).toBe(pAddress);
      // Listed in its block, served by hash.
      expect(primary.block('p', h).transactions).toContain(live.txHash);
      const tx = primary.transactions.transaction('p', live.txHash);
      expect(tx?.txType).toBe(live.txType);
      if (live.nodeId === undefined) transfers.push(live.txHash);
      else {
        expect(live.nodeId).toBe(nodeId);
        expect(tx).toMatchObject({ nodeId, rewardAddresses: [pAddress] });
        delegations.push(live.txHash);
      }
    }
    // 30 blocks: one in 3 carries a live transaction, transfers and delegations in turn.
    expect(transfers.length + delegations.length).toBe(10);
    expect(Math.abs(transfers.length - delegations.length)).toBeLessThanOrEqual(1);
    // The node is an active validator the listings serve.
    expect(primary.validationsOf(nodeId).some((v) => v.validationStatus === 'active')).toBe(true);
    // A block not produced yet has no live transaction, and its id resolves to nothing until it is.
    expect(primary.liveEvent('p', end + 3)).toBeUndefined();
  });

  it('keeps the past: no live transaction at or before the devnet started', () => {
    const primary = devnet.dataset.primary.mainnet;
    const first = primary.live.firstHeight('p');
    expect(primary.heightAt('p', primary.generatedAt)).toBe(first - 1);
    for (let h = first - 30; h < first; h++) expect(primary.liveEvent('p', h)).toBeUndefined();
  });
});
