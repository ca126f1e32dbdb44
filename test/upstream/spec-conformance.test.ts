import { existsSync, readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodySchemaFact, OperationFact, ParameterFact, SpecDeviation, SpecParameters } from '../../scripts/spec-parameters.ts';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { ENDPOINT_NAMES, ENDPOINTS, type EndpointRow } from '../../src/upstream/endpoints.ts';
import { createHttpUpstream } from '../../src/upstream/http.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';
import { startCaptureServer, type CaptureServer } from './capture-server.ts';

// Every request the Data API client can send, checked against the public spec's parameter table
// (test/data/glacier-parameters.json, derived from the spec by scripts/spec-parameters.ts): the
// path is one of the operation's, every query parameter is declared for it, arrays go repeated
// (the form style with explode) and never comma-joined, enum values and numbers are what the spec
// allows, required parameters are there, the JSON body has the declared properties. What the seed
// sends against the spec is allowed only where the table lists it, with its reason.

const TABLE_FILE = fileURLToPath(new URL('../data/glacier-parameters.json', import.meta.url));
const SHARED_SPEC = fileURLToPath(new URL('../../../shared/reference/glacier-openapi.json', import.meta.url));
// A clean clone has no ../shared: the copy committed for the mock server stands in (npm run spec:check keeps it equal).
const SPEC_FILE = existsSync(SHARED_SPEC) ? SHARED_SPEC : fileURLToPath(new URL('../data/glacier-openapi.json', import.meta.url));
const table = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as SpecParameters;

// ---------------------------------------------------------------------------- the checker

/** A request as it reached a server. */
interface SentRequest {
  method: string;
  /** Path and query exactly as sent. */
  target: string;
  body?: string;
  /** Known when a capture server saw it; the devnet's log keeps none. */
  headers?: IncomingHttpHeaders;
}

interface Verdict {
  operation: OperationFact | undefined;
  problems: string[];
  /** `in:name` of every parameter (or body property) the request carried and that was checked. */
  checked: string[];
  /** Values checked (a repeated parameter counts each). */
  values: number;
}

/** Transport headers every HTTP client sends; not API parameters. */
const TRANSPORT_HEADERS = new Set([
  'host', 'connection', 'content-type', 'content-length', 'accept', 'accept-encoding', 'accept-language', 'user-agent',
  'sec-fetch-mode', 'transfer-encoding', 'traceparent', 'tracestate',
]);

function deviationAllows(list: readonly SpecDeviation[], op: OperationFact, where: SpecDeviation['in'], name: string): boolean {
  return list.some((d) => (d.operation === '*' || d.operation === op.operationId) && d.in === where && d.name === name);
}

/** Each template segment as a regex: literals as they are (`balances:listErc20`), `{name}` as one segment. */
function segmentPattern(segment: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const source = segment.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(name);
    return '([^/]+)';
  }).join('');
  return { re: new RegExp(`^${source}$`), names };
}

/** The operation whose template matches (the one with the most literal text when several do), with its path values. */
function matchOperation(method: string, pathname: string): { op: OperationFact; path: Map<string, string> } | undefined {
  const segments = pathname.split('/');
  let best: { op: OperationFact; path: Map<string, string>; literal: number } | undefined;
  for (const op of table.operations) {
    if (op.method !== method) continue;
    const template = op.path.split('/');
    if (template.length !== segments.length) continue;
    const path = new Map<string, string>();
    let literal = 0;
    const matches = template.every((part, i) => {
      const { re, names } = segmentPattern(part);
      const m = re.exec(segments[i] ?? '');
      if (!m) return false;
      names.forEach((name, j) => path.set(name, decodeURIComponent(m[j + 1] ?? '')));
      literal += part.replace(/\{\w+\}/g, '').length;
      return true;
    });
    if (matches && (!best || literal > best.literal)) best = { op, path, literal };
  }
  return best;
}

const INTEGER = /^-?\d+$/;
// Plain decimal notation: what a client should send for a `number` (no exponent, no NaN).
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Problems of one text value under a parameter's (or its items') type, enum and bounds. */
function valueProblems(label: string, type: string, enumValues: readonly string[] | undefined, fact: Partial<ParameterFact>, text: string): string[] {
  const problems: string[] = [];
  if (type === 'integer' && !INTEGER.test(text)) problems.push(`${label}: "${text}" is not an integer`);
  if (type === 'number' && !DECIMAL.test(text)) problems.push(`${label}: "${text}" is not a decimal number`);
  if (type === 'boolean' && text !== 'true' && text !== 'false') problems.push(`${label}: "${text}" is not a boolean`);
  if (enumValues && !enumValues.includes(text)) problems.push(`${label}: "${text}" is not one of the spec's ${enumValues.length} values`);
  if (type === 'integer' || type === 'number') {
    const n = Number(text);
    if (fact.minimum !== undefined && n < fact.minimum) problems.push(`${label}: ${text} is below the minimum ${fact.minimum}`);
    if (fact.maximum !== undefined && n > fact.maximum) problems.push(`${label}: ${text} is above the maximum ${fact.maximum}`);
    if (fact.exclusiveMinimum !== undefined && n <= fact.exclusiveMinimum) problems.push(`${label}: ${text} is not above ${fact.exclusiveMinimum}`);
    if (fact.exclusiveMaximum !== undefined && n >= fact.exclusiveMaximum) problems.push(`${label}: ${text} is not below ${fact.exclusiveMaximum}`);
  }
  if (fact.minLength !== undefined && text.length < fact.minLength) problems.push(`${label}: shorter than ${fact.minLength}`);
  if (fact.maxLength !== undefined && text.length > fact.maxLength) problems.push(`${label}: longer than ${fact.maxLength}`);
  if (fact.pattern !== undefined && !new RegExp(fact.pattern, 'u').test(text)) problems.push(`${label}: does not match ${fact.pattern}`);
  return problems;
}

/** Problems of a JSON body under one alternative of the body schema; empty when it conforms. */
function bodyProblems(body: Record<string, unknown>, schema: BodySchemaFact): string[] {
  const problems: string[] = [];
  for (const name of schema.required) if (!(name in body)) problems.push(`body: required property ${name} is missing`);
  for (const [name, value] of Object.entries(body)) {
    const fact = schema.properties[name];
    if (!fact) {
      problems.push(`body: property ${name} is not declared`);
      continue;
    }
    const items = fact.type === 'array' ? value : [value];
    if (fact.type === 'array' && !Array.isArray(value)) problems.push(`body: ${name} is not an array`);
    const itemType = fact.type === 'array' ? fact.itemsType : fact.type;
    const itemEnum = fact.type === 'array' ? fact.itemsEnum : fact.enum;
    for (const item of Array.isArray(items) ? items : []) {
      const typeOk = itemType === 'string' ? typeof item === 'string'
        : itemType === 'number' ? typeof item === 'number' && Number.isFinite(item)
        : itemType === 'integer' ? Number.isInteger(item)
        : itemType === 'boolean' ? typeof item === 'boolean'
        : true;
      if (!typeOk) problems.push(`body: ${name} holds ${JSON.stringify(item)}, not a ${itemType}`);
      if (itemEnum && !itemEnum.includes(String(item))) problems.push(`body: ${name} holds ${JSON.stringify(item)}, not in its enum`);
    }
  }
  return problems;
}

/** Checks one request against the table; `expected` is the operationId the caller meant to reach. */
function checkRequest(req: SentRequest, expected?: string): Verdict {
  const url = new URL(req.target, 'http://upstream.test');
  const match = matchOperation(req.method, url.pathname);
  if (!match) return { operation: undefined, problems: [`${req.method} ${url.pathname} matches no operation of the spec`], checked: [], values: 0 };
  const { op, path } = match;
  const problems: string[] = [];
  const checked: string[] = [];
  let values = 0;
  if (expected !== undefined && op.operationId !== expected) problems.push(`reached ${op.operationId}, not ${expected}`);

  for (const fact of op.parameters.filter((p) => p.in === 'path')) {
    const value = path.get(fact.name);
    if (value === undefined) {
      problems.push(`path parameter ${fact.name} is not in the template`);
      continue;
    }
    checked.push(`path:${fact.name}`);
    values += 1;
    problems.push(...valueProblems(`path ${fact.name}`, fact.type, fact.enum, fact, value));
  }

  const names = [...new Set(url.searchParams.keys())];
  for (const name of names) {
    const sent = url.searchParams.getAll(name);
    const fact = op.parameters.find((p) => p.in === 'query' && p.name === name);
    if (!fact) {
      if (!deviationAllows(table.seedDisagreements, op, 'query', name)) problems.push(`query parameter ${name} is not declared for ${op.operationId}`);
      continue;
    }
    checked.push(`query:${name}`);
    values += sent.length;
    if (fact.type === 'array') {
      for (const text of sent) {
        // A comma inside one value is the old encoding (`txTypes=A%2CB`), which a spec-conformant server reads as one unknown value.
        if (fact.explode && text.includes(',')) problems.push(`query ${name}: "${text}" is comma-joined; the spec's form style repeats the name`);
        problems.push(...valueProblems(`query ${name}`, fact.itemsType ?? 'string', fact.itemsEnum, {}, text));
      }
    } else {
      if (sent.length !== 1) problems.push(`query ${name} is sent ${sent.length} times; the spec declares one ${fact.type}`);
      for (const text of sent) problems.push(...valueProblems(`query ${name}`, fact.type, fact.enum, fact, text));
    }
  }
  for (const fact of op.parameters) {
    if (fact.required && fact.in === 'query' && !url.searchParams.has(fact.name)) problems.push(`required query parameter ${fact.name} is missing`);
  }

  const body = req.body ?? '';
  if (op.requestBody === null) {
    if (body !== '') problems.push(`${op.operationId} takes no body, one was sent`);
  } else if (body === '') {
    if (op.requestBody.required) problems.push(`${op.operationId} requires a body`);
  } else {
    const contentType = req.headers?.['content-type']?.split(';')[0]?.trim();
    if (contentType !== undefined && !op.requestBody.contentTypes.includes(contentType)) problems.push(`body sent as ${contentType}`);
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      problems.push('body is not a JSON object');
    } else {
      const record = parsed as Record<string, unknown>;
      const verdicts = op.requestBody.schemas.map((schema) => bodyProblems(record, schema));
      if (!verdicts.some((v) => v.length === 0)) problems.push(...(verdicts.sort((a, b) => a.length - b.length)[0] ?? ['body matches no schema']));
      for (const name of Object.keys(record)) checked.push(`body:${name}`);
      values += Object.keys(record).length;
    }
  }

  for (const name of Object.keys(req.headers ?? {})) {
    if (TRANSPORT_HEADERS.has(name)) continue;
    const declared = op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === name);
    const allowed = declared || name === table.security?.header
      || deviationAllows(table.seedDisagreements, op, 'header', name) || deviationAllows(table.gatewayHeaders, op, 'header', name);
    if (!allowed) problems.push(`header ${name} is neither declared nor a listed deviation`);
    else checked.push(`header:${name}`);
  }
  return { operation: op, problems, checked, values };
}

/** Operations and `operationId:in:name` pairs checked, for the summary line. */
const tally = { requests: 0, operations: new Set<string>(), parameters: new Set<string>(), values: 0 };

function record(verdict: Verdict): void {
  tally.requests += 1;
  tally.values += verdict.values;
  if (!verdict.operation) return;
  tally.operations.add(verdict.operation.operationId);
  for (const key of verdict.checked) tally.parameters.add(`${verdict.operation.operationId}:${key}`);
}

// ---------------------------------------------------------------------------- the table itself

describe('the committed parameter table', () => {
  it.skipIf(!existsSync(SPEC_FILE))('matches what scripts/spec-parameters.ts derives from the spec', async () => {
    const { deriveSpecParameters } = await import('../../scripts/spec-parameters.ts');
    const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as Parameters<typeof deriveSpecParameters>[0];
    expect(deriveSpecParameters(spec)).toEqual(table);
  });

  it('holds the facts the checks rely on', () => {
    const listTxs = table.operations.find((op) => op.operationId === 'listLatestPrimaryNetworkTransactions');
    expect(listTxs?.parameters.find((p) => p.name === 'txTypes')).toMatchObject({ in: 'query', type: 'array', style: 'form', explode: true, itemsType: 'string' });
    expect(table.operations.find((op) => op.operationId === 'listValidators')?.parameters.find((p) => p.name === 'nodeIds'))
      .toMatchObject({ in: 'query', type: 'string', commaSeparated: true });
    expect(table.security).toEqual({ header: 'x-glacier-api-key', optional: true });
    for (const d of [...table.seedDisagreements, ...table.gatewayHeaders]) expect(d.reason.length).toBeGreaterThan(20);
  });

  it('catches the request a spec-conformant server refuses (the checker can fail)', () => {
    const verdict = checkRequest({
      method: 'GET',
      target: '/v1/networks/mainnet/blockchains/p-chain/transactions?txTypes=AddDelegatorTx%2CAddPermissionlessDelegatorTx&bogus=1&sortOrder=up&pageSize=0&pageToken=a&pageToken=b',
    }, 'listLatestPrimaryNetworkTransactions');
    expect(verdict.problems).toEqual([
      'query txTypes: "AddDelegatorTx,AddPermissionlessDelegatorTx" is comma-joined; the spec\'s form style repeats the name',
      'query txTypes: "AddDelegatorTx,AddPermissionlessDelegatorTx" is not one of the spec\'s 23 values',
      'query parameter bogus is not declared for listLatestPrimaryNetworkTransactions',
      'query sortOrder: "up" is not one of the spec\'s 2 values',
      'query pageSize: 0 is below the minimum 1',
      'query pageToken is sent 2 times; the spec declares one string',
    ]);
    expect(checkRequest({ method: 'GET', target: '/v1/networks/devnet/validators?minFeePercentage=1e2' }).problems).toEqual([
      'path network: "devnet" is not one of the spec\'s 3 values',
      'query minFeePercentage: "1e2" is not a decimal number',
    ]);
    expect(checkRequest({ method: 'POST', target: '/v1/operations/transactions:export', body: '{"type":"TRANSACTION_EXPORT_EVM"}' }).problems)
      .toContain('body: required property options is missing');
    expect(checkRequest({ method: 'GET', target: '/v1/chains', headers: { 'x-api-key': 'k' } }).problems)
      .toEqual(['header x-api-key is neither declared nor a listed deviation']);
    expect(checkRequest({ method: 'GET', target: '/v1/nowhere' }).problems).toEqual(['GET /v1/nowhere matches no operation of the spec']);
  });
});

// ---------------------------------------------------------------------------- the endpoint table

describe('every row of the endpoint table is its spec operation', () => {
  const rows = ENDPOINT_NAMES.map((name) => [name, ENDPOINTS[name] as EndpointRow] as const);

  it.each(rows)('%s', (_name, row) => {
    const op = table.operations.find((o) => o.operationId === row.operationId);
    if (!op) throw new Error(`${row.operationId} is not an operation of the spec`);
    expect(`${row.method} ${row.template}`).toBe(`${op.method} ${op.path}`);
    // Every path parameter comes from an argument or a fixed value, and nothing else is a path place.
    const placed = [...row.args.flatMap((place) => (typeof place === 'object' ? [place.path] : [])), ...Object.keys(row.fixed ?? {})];
    expect(placed.sort()).toEqual(op.parameters.filter((p) => p.in === 'path').map((p) => p.name).sort());
    // The query parameters sent repeated are exactly the spec's exploded arrays.
    const arrays = op.parameters.filter((p) => p.in === 'query' && p.type === 'array' && p.explode).map((p) => p.name);
    expect([...(row.repeated ?? [])].sort()).toEqual(arrays.sort());
    expect(row.args.some((place) => place === 'body' || place === 'query+addresses')).toBe(op.requestBody !== null);
    // A paged row's bounds are the spec's: at most its pageSize maximum.
    const pageSize = op.parameters.find((p) => p.in === 'query' && p.name === 'pageSize');
    if (row.page) {
      expect(pageSize, 'a paged row takes pageSize').toBeDefined();
      expect(row.container, 'a paged row names its item list').toBeDefined();
      if (pageSize?.maximum !== undefined) expect(row.page.maxSize).toBeLessThanOrEqual(pageSize.maximum);
    }
  });
});

// ---------------------------------------------------------------------------- every client method

const NODE_IDS = ['NodeID-111111111111111111116DBWJs', 'NodeID-222222222222222222227DBWJs'];
const P_ADDRESSES = ['P-avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg', 'P-avax1s7kd0kfndlz6mh3l0etrrcmkg5y366k8e0s6cc'];
const REWARD_ADDRESSES = ['avax1679zrp3z9mf7z4an42ddq47qzj36zv6ga20vwl', 'avax1s7kd0kfndlz6mh3l0etrrcmkg5y366k8e0s6cc'];
const EVM = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
const CONTRACTS = ['0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7', '0x49D5c2BdFfac6CE2BFdB6640F4F80f226bc10bAB'];
const TX = '0x8f9a6e0b5dbf2b1a6c7d3b3f3e0e8e6a9d1b2c3d4e5f60718293a4b5c6d7e8f9';
const CB58_TX = '2esKtSJtnHDRgc8hPtZ7TskeixuAgNbcHsK2WykSQp4e9Dxtf3';
const SUBNET = '11111111111111111111111111111111LpoYY';
const WEBHOOK_ADDRESS = '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E';
const TX_TYPES = ['AddPermissionlessValidatorTx', 'AddPermissionlessDelegatorTx', 'AddDelegatorTx'];
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

type Call = (api: DataApi) => Promise<unknown>;

/**
 * Each method with representative arguments (the operation it must reach is its row's in the
 * endpoint table): several values in every list, each bound of the spec at its low and high end,
 * each enum at its ends.
 */
const CASES: readonly { method: keyof DataApi; calls: Call[] }[] = [
  { method: 'aggregateSignatures', calls: [
    (api) => api.aggregateSignatures('mainnet', { message: '0x01', quorumPercentage: 0, quorumPercentageBuffer: 0, pChainHeight: 0 }),
    (api) => api.aggregateSignatures('fuji', { justification: '0x0001ab', signingSubnetId: SUBNET, quorumPercentage: 67, quorumPercentageBuffer: 33, pChainHeight: 1155 }),
  ] },
  { method: 'getAggregatedSignatures', calls: [(api) => api.getAggregatedSignatures('testnet', CB58_TX)] },
  { method: 'listAddressTransactions', calls: [
    (api) => api.listAddressTransactions('43114', EVM, { pageSize: 1, startBlock: 0, endBlock: 0, sortOrder: 'asc' }),
    (api) => api.listAddressTransactions('43114', EVM, { pageSize: 100, pageToken: 'a-token', startBlock: 1, endBlock: MAX_SAFE, sortOrder: 'desc' }),
  ] },
  { method: 'listUtxos', calls: [
    (api) => api.listUtxos('mainnet', 'p-chain', { addresses: P_ADDRESSES, pageSize: 1, minUtxoAmount: 0, includeSpent: false, sortBy: 'timestamp', sortOrder: 'asc' }),
    (api) => api.listUtxos('fuji', 'x-chain', { addresses: ['X-fuji1a', 'X-fuji1b', 'X-fuji1c'], pageSize: 1024, assetId: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z', minUtxoAmount: MAX_SAFE, includeSpent: true, sortBy: 'amount', sortOrder: 'desc', pageToken: 't' }),
  ] },
  { method: 'createTransactionExport', calls: [
    (api) => api.createTransactionExport({ type: 'TRANSACTION_EXPORT_EVM', firstDate: '2023-05-01', lastDate: '2023-05-02', options: { addresses: [EVM, CONTRACTS[0] ?? ''], includeChains: ['43114', '43113'] } }),
    (api) => api.createTransactionExport({ type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK', startDate: '2023-05-01', endDate: '2023-05-02', options: { addresses: REWARD_ADDRESSES, includeChains: ['p-chain', 'x-chain'] } }),
    (api) => api.createTransactionExport({ type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING', options: { includeChains: ['c-chain', '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5'], cChainEvmAddresses: [EVM] } }),
  ] },
  { method: 'getDeploymentTransaction', calls: [
    (api) => api.getDeploymentTransaction('43114', EVM),
    (api) => api.getDeploymentTransaction('43114', EVM, { currency: 'usd' }),
    (api) => api.getDeploymentTransaction('43114', EVM, { currency: 'nzd' }),
  ] },
  { method: 'listSubnets', calls: [
    (api) => api.listSubnets('mainnet', { pageSize: 1, sortOrder: 'asc' }),
    (api) => api.listSubnets('fuji', { pageSize: 10000, sortOrder: 'desc', pageToken: 't' }),
  ] },
  { method: 'listValidators', calls: [
    (api) => api.listValidators('mainnet', {
      pageSize: 1, nodeIds: NODE_IDS, sortBy: 'blockIndex', sortOrder: 'asc', validationStatus: 'completed', minDelegationCapacity: '0', maxDelegationCapacity: '0',
      minTimeRemaining: 0, maxTimeRemaining: 0, minFeePercentage: 2, maxFeePercentage: 2, minUptimePerformance: 0, maxUptimePerformance: 0, subnetId: SUBNET,
    }),
    (api) => api.listValidators('fuji', {
      pageSize: 100, pageToken: 't', nodeIds: [...NODE_IDS, 'NodeID-3'], sortBy: 'uptimePerformance', sortOrder: 'desc', validationStatus: 'removed',
      minDelegationCapacity: '720000000000000000', maxDelegationCapacity: '720000000000000000', minTimeRemaining: 2147483647, maxTimeRemaining: 2147483647,
      minFeePercentage: 100, maxFeePercentage: 100, minUptimePerformance: 100, maxUptimePerformance: 99.5,
    }),
  ] },
  { method: 'listNativeTransactions', calls: [
    (api) => api.listNativeTransactions('43114', EVM, { pageSize: 1, startBlock: 0, endBlock: 1 }),
    (api) => api.listNativeTransactions('43114', EVM, { pageSize: 100, pageToken: 't', startBlock: MAX_SAFE - 1, endBlock: MAX_SAFE }),
  ] },
  { method: 'listErc1155Balances', calls: [
    (api) => api.listErc1155Balances('43114', EVM, { pageSize: 1, blockNumber: '0', contractAddress: CONTRACTS[0] }),
    (api) => api.listErc1155Balances('43114', EVM, { pageSize: 500, pageToken: 't', blockNumber: '18446744073709551615' }),
  ] },
  { method: 'listHistoricalRewards', calls: [
    (api) => api.listHistoricalRewards('mainnet', { addresses: REWARD_ADDRESSES, nodeIds: NODE_IDS, pageSize: 1, sortOrder: 'asc', currency: 'usd' }),
    (api) => api.listHistoricalRewards('fuji', { nodeIds: NODE_IDS, pageSize: 100, pageToken: 't', sortOrder: 'desc', currency: 'nzd' }),
  ] },
  { method: 'listPendingRewards', calls: [
    (api) => api.listPendingRewards('mainnet', { addresses: REWARD_ADDRESSES, pageSize: 1, sortOrder: 'asc' }),
    (api) => api.listPendingRewards('fuji', { nodeIds: NODE_IDS, pageSize: 100, pageToken: 't', sortOrder: 'desc' }),
  ] },
  { method: 'listDelegators', calls: [
    (api) => api.listDelegators('mainnet', { rewardAddresses: P_ADDRESSES, nodeIds: NODE_IDS, pageSize: 1, sortOrder: 'asc', delegationStatus: 'completed' }),
    (api) => api.listDelegators('fuji', { nodeIds: NODE_IDS, pageSize: 100, pageToken: 't', sortOrder: 'desc', delegationStatus: 'pending' }),
  ] },
  { method: 'getNativeBalance', calls: [
    (api) => api.getNativeBalance('43114', EVM, { blockNumber: '0', currency: 'usd' }),
    (api) => api.getNativeBalance('43114', EVM, { blockNumber: '18446744073709551615', currency: 'nzd' }),
  ] },
  { method: 'listBlocks', calls: [
    (api) => api.listBlocks('mainnet', 'p-chain', { pageSize: 1, startTimestamp: 0, endTimestamp: 0 }),
    (api) => api.listBlocks('fuji', SUBNET, { pageSize: 100, pageToken: 't', startTimestamp: MAX_SAFE, endTimestamp: MAX_SAFE }),
  ] },
  { method: 'listIcmMessages', calls: [
    (api) => api.listIcmMessages(EVM, { pageSize: 1, network: 'mainnet' }),
    (api) => api.listIcmMessages(EVM, { pageSize: 100, pageToken: 't', network: 'testnet' }),
  ] },
  { method: 'listChains', calls: [
    (api) => api.listChains(),
    (api) => api.listChains({ network: 'mainnet', feature: 'nftIndexing' }),
    (api) => api.listChains({ network: 'testnet', feature: 'teleporter' }),
  ] },
  { method: 'listVertices', calls: [
    (api) => api.listVertices('mainnet', 'x-chain', { pageSize: 1 }),
    (api) => api.listVertices('fuji', '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm', { pageSize: 100, pageToken: 't' }),
  ] },
  // Primary-network blocks and vertices by id, a node's proposed blocks
  { method: 'getPrimaryBlock', calls: [
    (api) => api.getPrimaryBlock('mainnet', 'p-chain', '0'),
    (api) => api.getPrimaryBlock('fuji', 'x-chain', CB58_TX),
    (api) => api.getPrimaryBlock('mainnet', 'c-chain', TX),
  ] },
  { method: 'listBlocksByNode', calls: [
    (api) => api.listBlocksByNode('mainnet', 'p-chain', NODE_IDS[0] ?? '', { pageSize: 1, startTimestamp: 0, endTimestamp: 0 }),
    (api) => api.listBlocksByNode('fuji', 'c-chain', NODE_IDS[1] ?? '', { pageSize: 100, pageToken: 't', startTimestamp: MAX_SAFE, endTimestamp: MAX_SAFE }),
  ] },
  { method: 'getVertex', calls: [(api) => api.getVertex('mainnet', 'x-chain', CB58_TX)] },
  { method: 'listVerticesByHeight', calls: [
    (api) => api.listVerticesByHeight('mainnet', 'x-chain', { vertexHeight: 0, pageSize: 1, sortOrder: 'asc' }),
    (api) => api.listVerticesByHeight('fuji', 'x-chain', { vertexHeight: MAX_SAFE, pageSize: 100, pageToken: 't', sortOrder: 'desc' }),
  ] },
  { method: 'getNftToken', calls: [(api) => api.getNftToken('43114', CONTRACTS[1] ?? '', '115792089237316195423570985008687907853269984665640564039457584007913129639935')] },
  { method: 'getOperation', calls: [(api) => api.getOperation('39eab185-2016-4822-94a9-ef95990c69ce')] },
  { method: 'getTransaction', calls: [(api) => api.getTransaction('43114', TX)] },
  { method: 'getLatestBlocks', calls: [
    (api) => api.getLatestBlocks('43114', { pageSize: 1 }),
    (api) => api.getLatestBlocks('43114', { pageSize: 100, pageToken: 't' }),
  ] },
  { method: 'getBlock', calls: [(api) => api.getBlock('43114', '0'), (api) => api.getBlock('43114', TX)] },
  { method: 'getTransactionsForBlock', calls: [
    (api) => api.getTransactionsForBlock('43114', '1', { pageSize: 0 }),
    (api) => api.getTransactionsForBlock('43114', TX, { pageSize: 100, pageToken: 't' }),
  ] },
  { method: 'listLatestTransactions', calls: [
    (api) => api.listLatestTransactions('43114', { pageSize: 1, status: 'failed' }),
    (api) => api.listLatestTransactions('43114', { pageSize: 100, pageToken: 't', status: 'success' }),
  ] },
  { method: 'getContractMetadata', calls: [(api) => api.getContractMetadata('43114', CONTRACTS[0] ?? '')] },
  { method: 'listTransfers', calls: [
    (api) => api.listTransfers('43114', CONTRACTS[0] ?? '', { pageSize: 1, startBlock: 0, endBlock: 0 }),
    (api) => api.listTransfers('43114', CONTRACTS[0] ?? '', { pageSize: 100, pageToken: 't', startBlock: MAX_SAFE, endBlock: MAX_SAFE }),
  ] },
  { method: 'getChainInfo', calls: [(api) => api.getChainInfo('43114')] },
  { method: 'listLatestBlocksAllChains', calls: [
    (api) => api.listLatestBlocksAllChains({ pageSize: 1, network: 'mainnet' }),
    (api) => api.listLatestBlocksAllChains({ pageSize: 100, pageToken: 't', network: 'testnet' }),
  ] },
  { method: 'listLatestTransactionsAllChains', calls: [
    (api) => api.listLatestTransactionsAllChains({ pageSize: 1, network: 'fuji', status: 'failed' }),
    (api) => api.listLatestTransactionsAllChains({ pageSize: 100, pageToken: 't', status: 'success' }),
  ] },
  { method: 'listAddressChains', calls: [(api) => api.listAddressChains(EVM)] },
  { method: 'listContractDeployments', calls: [
    (api) => api.listContractDeployments('43114', EVM, { pageSize: 1 }),
    (api) => api.listContractDeployments('43114', EVM, { pageSize: 100, pageToken: 't' }),
  ] },
  { method: 'listAddressTransactionsV2', calls: [
    (api) => api.listAddressTransactionsV2('43114', EVM, { pageSize: 1, startBlock: 0, endBlock: 0, sortOrder: 'asc', filterSpamTokens: false }),
    (api) => api.listAddressTransactionsV2('43114', EVM, { pageSize: 100, pageToken: 't', startBlock: MAX_SAFE, endBlock: MAX_SAFE, sortOrder: 'desc', filterSpamTokens: true }),
  ] },
  { method: 'listCollectionTokens', calls: [
    (api) => api.listCollectionTokens('43114', CONTRACTS[1] ?? '', { pageSize: 1 }),
    (api) => api.listCollectionTokens('43114', CONTRACTS[1] ?? '', { pageSize: 100, pageToken: 't' }),
  ] },
  { method: 'reindexNft', calls: [(api) => api.reindexNft('43114', CONTRACTS[1] ?? '', '145')] },
  { method: 'listErc20Balances', calls: [
    (api) => api.listErc20Balances('43114', EVM, { pageSize: 1, blockNumber: '0', filterSpamTokens: false, contractAddresses: CONTRACTS, currency: 'usd' }),
    (api) => api.listErc20Balances('43114', EVM, { pageSize: 500, pageToken: 't', filterSpamTokens: true, contractAddresses: [...CONTRACTS, EVM], currency: 'nzd' }),
  ] },
  { method: 'listErc721Balances', calls: [
    (api) => api.listErc721Balances('43114', EVM, { pageSize: 1, contractAddress: CONTRACTS[1] }),
    (api) => api.listErc721Balances('43114', EVM, { pageSize: 500, pageToken: 't' }),
  ] },
  { method: 'listCollectibleBalances', calls: [
    (api) => api.listCollectibleBalances('43114', EVM, { pageSize: 1, contractAddress: CONTRACTS[1] }),
    (api) => api.listCollectibleBalances('43114', EVM, { pageSize: 500, pageToken: 't' }),
  ] },
  ...(['listErc20Transfers', 'listErc721Transfers', 'listErc1155Transfers', 'listInternalTransactions'] as const).map((method) => ({
    method,
    calls: [
      (api: DataApi) => api[method]('43114', EVM, { pageSize: 1, startBlock: 0, endBlock: 0 }),
      (api: DataApi) => api[method]('43114', EVM, { pageSize: 100, pageToken: 't', startBlock: MAX_SAFE, endBlock: MAX_SAFE }),
    ],
  })),
  { method: 'getValidatorDetails', calls: [
    (api) => api.getValidatorDetails('mainnet', NODE_IDS[0] ?? '', { pageSize: 1, validationStatus: 'completed', sortOrder: 'asc' }),
    (api) => api.getValidatorDetails('fuji', NODE_IDS[1] ?? '', { pageSize: 100, pageToken: 't', validationStatus: 'removed', sortOrder: 'desc' }),
  ] },
  { method: 'getSubnet', calls: [(api) => api.getSubnet('mainnet', SUBNET)] },
  { method: 'listBlockchains', calls: [
    (api) => api.listBlockchains('mainnet', { pageSize: 1, sortOrder: 'asc' }),
    (api) => api.listBlockchains('fuji', { pageSize: 10000, pageToken: 't', sortOrder: 'desc' }),
  ] },
  { method: 'getBlockchain', calls: [(api) => api.getBlockchain('mainnet', '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5')] },
  { method: 'getNetworkDetails', calls: [(api) => api.getNetworkDetails('mainnet'), (api) => api.getNetworkDetails('testnet')] },
  { method: 'getAvaxSupply', calls: [(api) => api.getAvaxSupply()] },
  { method: 'listAllIcmMessages', calls: [
    (api) => api.listAllIcmMessages({ pageSize: 1, network: 'mainnet', sourceBlockchainId: SUBNET, destinationBlockchainId: '43114', blockchainId: SUBNET, to: EVM, from: EVM }),
    (api) => api.listAllIcmMessages({ pageSize: 100, pageToken: 't', network: 'fuji' }),
  ] },
  { method: 'getIcmMessage', calls: [(api) => api.getIcmMessage(TX)] },
  { method: 'getPrimaryTransaction', calls: [
    (api) => api.getPrimaryTransaction('mainnet', 'p-chain', CB58_TX),
    (api) => api.getPrimaryTransaction('fuji', 'x-chain', CB58_TX),
    (api) => api.getPrimaryTransaction('mainnet', 'c-chain', TX),
  ] },
  { method: 'listPrimaryTransactions', calls: [
    (api) => api.listPrimaryTransactions('mainnet', 'p-chain', { addresses: P_ADDRESSES, txTypes: TX_TYPES, pageSize: 1, startTimestamp: 0, endTimestamp: 0, sortOrder: 'asc' }),
    (api) => api.listPrimaryTransactions('fuji', 'x-chain', { addresses: ['X-fuji1a'], txTypes: ['CreateAssetTx', 'OperationTx', 'BaseTx', 'UNKNOWN'], pageSize: 100, pageToken: 't', startTimestamp: MAX_SAFE, endTimestamp: MAX_SAFE, sortOrder: 'desc' }),
    (api) => api.listPrimaryTransactions('mainnet', 'c-chain', { addresses: [EVM, 'C-avax1a'], txTypes: ['ImportTx', 'ExportTx'] }),
    (api) => api.listPrimaryTransactions('fuji', 'p-chain', { l1ValidationId: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z', pageSize: 10 }),
  ] },
  { method: 'listStakingTransactions', calls: [
    (api) => api.listStakingTransactions('mainnet', { addresses: P_ADDRESSES, txTypes: TX_TYPES, pageSize: 1, startTimestamp: 0, endTimestamp: 0, sortOrder: 'asc' }),
    (api) => api.listStakingTransactions('fuji', { txTypes: ['AddValidatorTx', 'AddSubnetValidatorTx'], pageSize: 100, pageToken: 't', startTimestamp: MAX_SAFE, sortOrder: 'desc' }),
  ] },
  { method: 'getPrimaryBalances', calls: [
    (api) => api.getPrimaryBalances('mainnet', 'p-chain', { addresses: P_ADDRESSES, blockTimestamp: 0 }),
    (api) => api.getPrimaryBalances('fuji', 'x-chain', { addresses: ['X-fuji1a', 'X-fuji1b'], blockTimestamp: MAX_SAFE }),
    (api) => api.getPrimaryBalances('mainnet', 'c-chain', { addresses: ['C-avax1a'] }),
  ] },
  { method: 'getAssetDetails', calls: [(api) => api.getAssetDetails('mainnet', 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z')] },
  // L1 validators, an asset's transactions, UTXOs by GET and address activity
  { method: 'listL1Validators', calls: [
    (api) => api.listL1Validators('mainnet'),
    (api) => api.listL1Validators('fuji', { pageSize: 100, pageToken: 't', l1ValidationId: CB58_TX, includeInactiveL1Validators: true, nodeId: 'NodeID-111111111111111111116DBWJs', subnetId: SUBNET }),
    (api) => api.listL1Validators('mainnet', { pageSize: 1, includeInactiveL1Validators: false }),
  ] },
  { method: 'listAssetTransactions', calls: [
    (api) => api.listAssetTransactions('mainnet', 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z'),
    (api) => api.listAssetTransactions('fuji', CB58_TX, { txTypes: ['CreateAssetTx', 'BaseTx'], startTimestamp: 0, endTimestamp: MAX_SAFE, pageSize: 100, pageToken: 't' }),
    (api) => api.listAssetTransactions('mainnet', CB58_TX, { txTypes: ['OperationTx'], pageSize: 1 }),
  ] },
  { method: 'listUtxosByGet', calls: [
    (api) => api.listUtxosByGet('mainnet', 'p-chain', { addresses: P_ADDRESSES, pageSize: 1, minUtxoAmount: 0, includeSpent: false, sortBy: 'timestamp', sortOrder: 'asc' }),
    (api) => api.listUtxosByGet('fuji', 'x-chain', { addresses: ['X-fuji1a', 'X-fuji1b'], pageSize: 100, assetId: CB58_TX, minUtxoAmount: MAX_SAFE, includeSpent: true, sortBy: 'amount', sortOrder: 'desc', pageToken: 't' }),
  ] },
  { method: 'getChainIdsForAddresses', calls: [
    (api) => api.getChainIdsForAddresses('mainnet', { addresses: P_ADDRESSES }),
    (api) => api.getChainIdsForAddresses('fuji', { addresses: ['X-fuji1a'] }),
  ] },
  { method: 'getLastActivity', calls: [
    (api) => api.getLastActivity('mainnet', 'p-chain', { addresses: P_ADDRESSES }),
    (api) => api.getLastActivity('fuji', 'x-chain', { addresses: ['X-fuji1a'] }),
  ] },
  { method: 'getLastActivityByPost', calls: [
    (api) => api.getLastActivityByPost('mainnet', 'c-chain', { addresses: ['C-avax1a', 'C-avax1b'] }),
    (api) => api.getLastActivityByPost('fuji', 'p-chain', { addresses: P_ADDRESSES }),
  ] },
  // The Data API's health checks and the calling key's usage reports
  { method: 'dataHealthCheck', calls: [(api) => api.dataHealthCheck()] },
  { method: 'liveCheck', calls: [(api) => api.liveCheck()] },
  { method: 'getApiUsageMetrics', calls: [
    (api) => api.getApiUsageMetrics(),
    (api) => api.getApiUsageMetrics({ startTimestamp: 0, endTimestamp: MAX_SAFE, timeInterval: 'minute', groupBy: 'requestPath', chainId: '43114', responseCode: '200', requestType: 'data', requestPath: '/v1/chains' }),
  ] },
  { method: 'getApiLogs', calls: [
    (api) => api.getApiLogs({ pageSize: 1 }),
    (api) => api.getApiLogs({ pageSize: 100, pageToken: 't', startTimestamp: 0, endTimestamp: MAX_SAFE, chainId: '43114', responseCode: '404', requestType: 'rpc', requestPath: '/v1/chains' }),
  ] },
  { method: 'getSubnetRpcUsageMetrics', calls: [
    (api) => api.getSubnetRpcUsageMetrics(),
    (api) => api.getSubnetRpcUsageMetrics({ startTimestamp: 0, endTimestamp: MAX_SAFE, timeInterval: 'monthly', groupBy: 'rlBypassToken', chainId: '43114', responseCode: '200', rpcMethod: 'eth_call' }),
  ] },
  { method: 'getPrimaryNetworkRpcUsageMetrics', calls: [
    (api) => api.getPrimaryNetworkRpcUsageMetrics({ network: 'mainnet' }),
    (api) => api.getPrimaryNetworkRpcUsageMetrics({ network: 'testnet', startTimestamp: 0, endTimestamp: MAX_SAFE, timeInterval: 'hourly', groupBy: 'continent', responseCode: '200', requestPath: '/ext/bc/C/rpc', country: 'XX', continent: 'EU', userAgent: 'curl', rpcMethod: 'eth_call' }),
  ] },
  // The calling key's webhooks and shared secret: the three kinds of body, PATCH and DELETE with and without a body
  { method: 'createWebhook', calls: [
    (api) => api.createWebhook({ eventType: 'address_activity', url: 'https://example.com/hook', chainId: '43114', metadata: { addresses: [WEBHOOK_ADDRESS] } }),
    (api) => api.createWebhook({
      eventType: 'address_activity', url: 'https://example.com/hook', name: 'n', description: 'd', chainId: '43114', includeLogs: true, includeInternalTxs: false,
      metadata: { addresses: [WEBHOOK_ADDRESS], eventSignatures: [`0x${'ab'.repeat(32)}`] },
    }),
    (api) => api.createWebhook({
      eventType: 'primary_network_address_activity', url: 'https://example.com/hook', network: 'fuji', chainId: CB58_TX,
      metadata: { keyType: 'addresses', keys: P_ADDRESSES, subEvents: { addressActivitySubEvents: ['balance_change', 'balance_threshold'] }, balanceThresholdFilter: { balanceType: 'unlockedUnstaked', balanceThreshold: '1000' } },
    }),
    (api) => api.createWebhook({
      eventType: 'validator_activity', url: 'https://example.com/hook', name: 'v', network: 'mainnet',
      metadata: { keyType: 'nodeId', keys: ['NodeID-a'], subEvents: { validatorActivitySubEvents: ['validator_stake', 'l1_validator_disabled'] }, nodeIds: ['NodeID-a'], subnetIds: [SUBNET], l1ValidatorFeeBalanceThreshold: '5' },
    }),
  ] },
  { method: 'listWebhooks', calls: [(api) => api.listWebhooks(), (api) => api.listWebhooks({ pageSize: 100, pageToken: 't', status: 'inactive' })] },
  { method: 'getWebhook', calls: [(api) => api.getWebhook('0b1c2d3e-aaaa-bbbb-cccc-000000000001')] },
  { method: 'updateWebhook', calls: [
    (api) => api.updateWebhook('0b1c2d3e-aaaa-bbbb-cccc-000000000001', { status: 'inactive' }),
    (api) => api.updateWebhook('0b1c2d3e-aaaa-bbbb-cccc-000000000001', { name: 'n', description: 'd', url: 'https://example.com/h2', status: 'active', includeLogs: true, includeInternalTxs: true }),
  ] },
  { method: 'deactivateWebhook', calls: [(api) => api.deactivateWebhook('0b1c2d3e-aaaa-bbbb-cccc-000000000001')] },
  { method: 'listWebhookAddresses', calls: [
    (api) => api.listWebhookAddresses('0b1c2d3e-aaaa-bbbb-cccc-000000000001'),
    (api) => api.listWebhookAddresses('0b1c2d3e-aaaa-bbbb-cccc-000000000001', { pageSize: 100, pageToken: 't' }),
  ] },
  { method: 'addWebhookAddresses', calls: [(api) => api.addWebhookAddresses('0b1c2d3e-aaaa-bbbb-cccc-000000000001', { addresses: [WEBHOOK_ADDRESS] })] },
  { method: 'removeWebhookAddresses', calls: [(api) => api.removeWebhookAddresses('0b1c2d3e-aaaa-bbbb-cccc-000000000001', { addresses: [WEBHOOK_ADDRESS] })] },
  { method: 'getWebhookSharedSecret', calls: [(api) => api.getWebhookSharedSecret()] },
  { method: 'rotateWebhookSharedSecret', calls: [(api) => api.rotateWebhookSharedSecret()] },
];

describe('every Data API client method sends what the spec declares', () => {
  let server: CaptureServer;
  let api: DataApiClient;
  const http = createHttpUpstream({ retries: 0 });

  beforeAll(async () => {
    server = await startCaptureServer();
    api = createDataApiClient({ baseUrl: server.url, apiKey: 'server-key', http });
  });
  afterAll(async () => {
    await http.close();
    await server?.close();
  });

  it('has a case for every row of the endpoint table, and the client a method for each', () => {
    expect(Object.keys(api).filter((name) => name !== 'close').sort()).toEqual([...ENDPOINT_NAMES].sort());
    expect(CASES.map((c) => c.method).sort()).toEqual([...ENDPOINT_NAMES].sort());
  });

  it.each(CASES.map((c) => [c.method, c] as const))('%s', async (name, { calls }) => {
    const { operationId } = ENDPOINTS[name];
    for (const call of calls) {
      const before = server.requests.length;
      // The capture server answers `{}`, which most shapes refuse: only the request matters here.
      await call(api).catch(() => undefined);
      expect(server.requests.length, 'exactly one request per call').toBe(before + 1);
      const sent = server.requests.at(-1);
      if (!sent) throw new Error('nothing captured');
      const verdict = checkRequest({ method: sent.method, target: sent.url, body: sent.body, headers: sent.headers }, operationId);
      expect(verdict.problems, `${sent.method} ${sent.url}`).toEqual([]);
      record(verdict);
    }
  });

  it('repeats the spec\'s array parameters and comma-joins its string lists', async () => {
    await api.listPrimaryTransactions('mainnet', 'p-chain', { addresses: P_ADDRESSES, txTypes: ['AddDelegatorTx', 'AddPermissionlessDelegatorTx'] }).catch(() => undefined);
    const url = new URL(server.requests.at(-1)?.url ?? '', server.url);
    expect(url.searchParams.getAll('txTypes')).toEqual(['AddDelegatorTx', 'AddPermissionlessDelegatorTx']);
    expect(url.search).toContain('txTypes=AddDelegatorTx&txTypes=AddPermissionlessDelegatorTx');
    expect(url.searchParams.getAll('addresses')).toEqual([P_ADDRESSES.join(',')]);
  });

  it('refuses a number no server reads, sending nothing', async () => {
    const before = server.requests.length;
    await expect(api.listBlocks('mainnet', 'p-chain', { startTimestamp: Number.NaN })).rejects.toMatchObject({ kind: 'input', parameter: 'startTimestamp' });
    await expect(api.listValidators('mainnet', { minTimeRemaining: Number.POSITIVE_INFINITY })).rejects.toMatchObject({ kind: 'input', parameter: 'minTimeRemaining' });
    expect(server.requests.length).toBe(before);
  });
});

// ---------------------------------------------------------------------------- through the gateway

// One gateway and devnet for the two blocks below.
let stack: TestStack;
let f: NetworkFixtures;

beforeAll(async () => {
  stack = await startStack();
  f = stack.devnet.dataset.fixtures().mainnet;
});
afterAll(async () => {
  await stack?.close();
});

describe('the gateway\'s own requests follow the spec', () => {
  let nodeIds: string[];

  beforeAll(async () => {
    const page = await fetch(`${stack.devnet.url}/v1/networks/mainnet/validators?pageSize=2&subnetId=${SUBNET}`);
    nodeIds = ((await page.json()) as { validators: { nodeId: string }[] }).validators.map((v) => v.nodeId);
  });

  /** Runs a query, then checks every Data API request the devnet saw for it. */
  async function conforms(query: string, variables: Record<string, unknown>): Promise<number> {
    stack.devnet.resetStats();
    const res = await stack.query(query, variables);
    expect(res.errors ?? []).toEqual([]);
    const sent = stack.devnet.requestLog().filter((entry) => /^\/v[12]\//.test(entry.target));
    for (const entry of sent) {
      const verdict = checkRequest({ method: entry.method, target: entry.target, ...(entry.body === undefined ? {} : { body: entry.body }) });
      expect(verdict.problems, `${entry.method} ${entry.target}`).toEqual([]);
      record(verdict);
    }
    return sent.length;
  }

  it('sends several txTypes repeated, and the devnet filters by all of them', async () => {
    const sent = await conforms(`query($a: [String!]) { network(name: MAINNET) { blockchain(id: "p-chain") {
      transactions(first: 3, filter: { addresses: $a, txTypes: [ADD_PERMISSIONLESS_DELEGATOR_TX, ADD_PERMISSIONLESS_VALIDATOR_TX] }) { edges { node { txType } } }
      stakingTransactions(first: 2, filter: { addresses: $a, txTypes: [ADD_PERMISSIONLESS_DELEGATOR_TX, ADD_PERMISSIONLESS_VALIDATOR_TX] }) { edges { node { txType } } }
    } } }`, { a: [f.pChainAddress] });
    expect(sent).toBeGreaterThanOrEqual(2);
    const txTypes = stack.devnet.requestLog().map((e) => new URL(e.target, 'http://d').searchParams.getAll('txTypes')).filter((v) => v.length > 0);
    expect(txTypes).toContainEqual(['AddPermissionlessDelegatorTx', 'AddPermissionlessValidatorTx']);
  });

  it('sends the staking filters, paging and links as declared', async () => {
    const sent = await conforms(`query($n: [String!], $r: [String!], $node: String!) { network(name: MAINNET) {
      validators(first: 2, filter: { nodeIds: $n, validationStatus: ACTIVE, minFeePercentage: 2, maxFeePercentage: 100, minUptimePerformance: 0,
        maxUptimePerformance: 100, minTimeRemaining: 0, maxTimeRemaining: 2147483647, minDelegationCapacity: "0", maxDelegationCapacity: "720000000000000000" },
        sortBy: UPTIME_PERFORMANCE, sortOrder: ASC) { edges { node { nodeId delegators(first: 2) { edges { node { txHash } } } } } }
      delegators(first: 3, filter: { nodeIds: $n, rewardAddresses: $r, delegationStatus: COMPLETED }) { edges { node { txHash validator { nodeId } } } }
      historicalRewards(nodeIds: $n, first: 2, currency: EUR) { edges { node { txHash } } }
      pendingRewards(addresses: $r, first: 2) { edges { node { txHash } } }
      validator(nodeId: $node) { nodeId }
      subnets(first: 2) { edges { node { subnetId } } }
    } }`, { n: nodeIds, r: [f.rewardAddress, f.pChainAddress], node: f.nodeId });
    expect(sent).toBeGreaterThanOrEqual(6);
  });

  it('sends the primary-chain and EVM listings as declared', async () => {
    const sent = await conforms(`query($a: [String!]!, $x: [String!]!, $chain: String!, $addr: String!, $contracts: [String!]) {
      network(name: MAINNET) {
        p: blockchain(id: "p-chain") { blocks(first: 2) { edges { node { blockNumber } } } utxos(addresses: $a, first: 2, includeSpent: true, sortBy: AMOUNT) { edges { node { utxoId } } } balances(addresses: $a) { __typename } }
        x: blockchain(id: "x-chain") { vertices(first: 2) { edges { node { vertexHash } } } balances(addresses: $x) { __typename } }
      }
      chain(chainId: $chain) { address(address: $addr) {
        erc20Balances(first: 2, contractAddresses: $contracts) { edges { node { __typename } } }
        transactions(first: 2) { edges { node { __typename } } }
        nativeTransactions(first: 2) { edges { node { __typename } } }
      } }
    }`, { a: [f.pChainAddress], x: [f.xChainAddress], chain: f.evmChainId, addr: f.address, contracts: [f.contractAddress, f.address] });
    expect(sent).toBeGreaterThanOrEqual(8);
  });
});

// ---------------------------------------------------------------------------- the devnet reads both forms

describe('the devnet reads every list both ways: repeated and comma-joined', () => {
  async function both(path: string, name: string, values: string[], rest = ''): Promise<unknown> {
    const get = async (query: string): Promise<unknown> => {
      const res = await fetch(`${stack.devnet.url}${path}?${query}${rest}`);
      expect(res.status, `${path}?${query}`).toBe(200);
      return res.json();
    };
    const repeated = await get(values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&'));
    const joined = await get(`${name}=${encodeURIComponent(values.join(','))}`);
    expect(repeated, `${path}: ${name} repeated and comma-joined`).toEqual(joined);
    return repeated;
  }

  it('validators, delegators and rewards by node ids, reward addresses and addresses', async () => {
    const first = await fetch(`${stack.devnet.url}/v1/networks/mainnet/validators?pageSize=2&subnetId=${SUBNET}`);
    const ids = ((await first.json()) as { validators: { nodeId: string }[] }).validators.map((v) => v.nodeId);
    expect(ids).toHaveLength(2);
    const validators = await both('/v1/networks/mainnet/validators', 'nodeIds', ids, `&subnetId=${SUBNET}`) as { validators: { nodeId: string }[] };
    // Both values were read, not only the first occurrence.
    expect(new Set(validators.validators.map((v) => v.nodeId))).toEqual(new Set(ids));
    await both('/v1/networks/mainnet/delegators', 'nodeIds', [f.busyNodeId, ...ids]);
    await both('/v1/networks/mainnet/delegators', 'rewardAddresses', [f.pChainAddress, 'P-avax1s7kd0kfndlz6mh3l0etrrcmkg5y366k8e0s6cc']);
    await both('/v1/networks/mainnet/rewards', 'nodeIds', [f.busyNodeId, ...ids]);
    await both('/v1/networks/mainnet/rewards:listPending', 'addresses', [f.rewardAddress, 'avax1s7kd0kfndlz6mh3l0etrrcmkg5y366k8e0s6cc']);
  });

  it('primary-network transactions and balances by addresses and txTypes', async () => {
    const page = await both('/v1/networks/mainnet/blockchains/p-chain/transactions', 'txTypes', ['AddPermissionlessDelegatorTx', 'AddPermissionlessValidatorTx'],
      `&addresses=${f.pChainAddress}&pageSize=20`) as { transactions: { txType: string }[] };
    expect(page.transactions.length).toBeGreaterThan(0);
    for (const tx of page.transactions) expect(['AddPermissionlessDelegatorTx', 'AddPermissionlessValidatorTx']).toContain(tx.txType);
    await both('/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking', 'addresses', [f.pChainAddress, 'P-avax1s7kd0kfndlz6mh3l0etrrcmkg5y366k8e0s6cc']);
    await both('/v1/networks/mainnet/blockchains/p-chain/balances', 'addresses', [f.pChainAddress, 'P-avax1s7kd0kfndlz6mh3l0etrrcmkg5y366k8e0s6cc']);
  });

  it('ERC-20 balances by contract addresses', async () => {
    await both(`/v1/chains/${f.evmChainId}/addresses/${f.address}/balances:listErc20`, 'contractAddresses', [f.contractAddress, f.address]);
  });
});

afterAll(() => {
  // The closing note's numbers: what this run checked against the spec's table.
  console.log(`spec conformance: ${tally.requests} requests checked over ${tally.operations.size} operations and ${tally.parameters.size} parameters (${tally.values} values) of the spec's ${table.operations.length} operations`);
});
