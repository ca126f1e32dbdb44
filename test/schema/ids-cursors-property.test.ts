import fc from 'fast-check';
import { getNamedType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCursorCodec } from '../../src/schema/pagination.ts';
import { getSchema } from '../../src/schema/index.ts';
import { decodeGlobalId, encodeGlobalId, encodeLegacyGlobalId } from '../../src/schema/relay-node.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// Property tests for the two opaque inputs a client hands back: global ids and cursors.
// Random strings (ASCII, full unicode, dot segments, percent-encodings, base64 of crafted
// JSON, real cursors tampered with, cursors signed with another secret) go through GraphQL
// to `node(id:)`, `nodes(ids:)`, `_entities(representations:)` and the `after` of every
// connection. Nothing may crash, everything is BAD_USER_INPUT naming the argument, and the
// devnet's request counter stays at zero. (An id of the right form whose parts no grammar takes
// is one chaingraph may have issued from an upstream value: it answers null, also without a call.)

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 100);
const SECRET = 's'.repeat(48);

/** Values that have escaped path templates or query strings somewhere, in some decoding. */
const EVIL = [
  '', '.', '..', '...', '../', '..\\', '/..', '%2e%2e', '%2E%2E/', '%252e%252e', '..%2f', '..;/', '.%00.', '\u0000', '\r\n',
  '?pageSize=1000', '&pageSize=1000', '#frag', 'forged&pageSize=1000', '\uff0e\uff0e', '\u2024\u2024', ' ', '\t', 'a/b', 'a\\b',
];
const FAMILIES = ['Network', 'Validator', 'Delegator', 'Subnet', 'Blockchain', 'PrimaryBlockchain', 'Block', 'Vertex', 'Utxo', 'Chain', 'Address', 'Transaction', 'NftToken', 'IcmMessage', 'ExportOperation', 'AvalancheNode', 'Other'];

const evil = fc.constantFrom(...EVIL);
const anyText = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), evil);
/** A part: mostly hostile, sometimes a well-formed value of some family's grammar. */
const idPart = fc.oneof(
  anyText,
  evil,
  fc.constantFrom('mainnet', 'fuji', 'NodeID-3JLNNYoUpctwErj5QfYVz4aKwo77nKWSa', '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5', '43114', '0x'.padEnd(42, 'a'), 'p-chain'),
  fc.integer(),
  fc.double(),
);
/** Base64url of crafted JSON: family names with hostile parts, other shapes, near-misses. */
const craftedId = fc.oneof(
  fc.tuple(fc.constantFrom(...FAMILIES), fc.array(idPart, { maxLength: 6 })).map(([family, parts]) => Buffer.from(JSON.stringify([family, ...parts])).toString('base64url')),
  fc.jsonValue().map((value) => Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url')),
  // Compact ids: a family code, then random part kinds and payloads.
  fc.tuple(fc.integer({ min: 0, max: 70 }), fc.uint8Array({ maxLength: 120 })).map(([code, rest]) => Buffer.from([code, ...rest]).toString('base64url')),
  fc.tuple(fc.constantFrom(...FAMILIES.slice(0, -1)), fc.array(idPart, { maxLength: 6 })).map(([family, parts]) => encodeGlobalId(family, parts as (string | number)[])),
  fc.tuple(fc.constantFrom(...FAMILIES), fc.array(idPart, { maxLength: 6 })).map(([family, parts]) => Buffer.from(JSON.stringify([family, ...parts], null, 1)).toString('base64')),
);
const anyId = fc.oneof(anyText, craftedId);

/** A string is safe in a URL path segment or a query value when none of these are in it. */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern is about
const UNSAFE = /[/\\?#%&\u0000-\u001f\u007f\s]/;

type Response = GraphQLResponse<Record<string, unknown>>;

/** One voice for every id and cursor refusal: what happened to this id or cursor, then what to pass instead. */
const VOICE: Readonly<Record<string, RegExp>> = {
  after: /^Invalid argument "after": This cursor [^:]+: pass [^:]+, or omit `after` to start from the first page\.$/,
  id: /^Invalid argument "id": This id is not one chaingraph issued(?: \([^)]+\))?: take ids from a response's `id` field and pass them unchanged\.$/,
  ids: /^Invalid argument "ids": This id is not one chaingraph issued(?: \([^)]+\))?: take ids from a response's `id` field and pass them unchanged\.$/,
};

function expectRefused(result: Response, argument: string, what: string): void {
  expect(result.errors?.length, what).toBeGreaterThan(0);
  for (const error of result.errors ?? []) {
    expect(error.extensions?.['code'], `${what}: ${error.message}`).toBe('BAD_USER_INPUT');
    expect(error.extensions?.['argumentName'], what).toBe(argument);
    const voice = VOICE[argument];
    if (voice) expect(error.message, what).toMatch(voice);
  }
}

describe('global ids and cursors under random input', () => {
  let stack: TestStack;
  let schema: GraphQLSchema;
  let fixtures: Record<string, string>;
  let realCursors: string[] = [];
  let requests = 0;
  let cases = 0;

  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 50 }, gateway: { cursorSecrets: [SECRET] } });
    schema = getSchema();
    fixtures = stack.devnet.dataset.fixtures().mainnet as unknown as Record<string, string>;
    const page = await stack.query<{ network: { validators: { edges: { cursor: string }[] }; delegators: { edges: { cursor: string }[] } } }>(
      '{ network(name: MAINNET) { validators(first: 3) { edges { cursor } } delegators(first: 3) { edges { cursor } } } }',
    );
    realCursors = [...(page.data?.network.validators.edges ?? []), ...(page.data?.network.delegators.edges ?? [])].map((e) => e.cursor);
    expect(realCursors.length).toBe(6);
  });
  afterAll(async () => {
    await stack.close();
    console.info(`ids-cursors property: ${cases} GraphQL cases, ${requests} upstream requests`);
  });

  /** Runs one query expecting a refusal naming `argument`, with no upstream request. */
  async function refused(query: string, variables: Record<string, unknown>, argument: string): Promise<void> {
    stack.devnet.resetStats();
    const result = await stack.query(query, variables);
    cases += 1;
    expectRefused(result, argument, `${query.slice(0, 60)} ${JSON.stringify(variables).slice(0, 120)}`);
    requests += stack.upstreamRequests();
    expect(stack.upstreamRequests()).toBe(0);
  }

  /**
   * How the decoder takes an id: refused (not of the form chaingraph issues), unusable (its form,
   * but a part no grammar takes: no lookup), or usable, when every part it hands a loader is safe in a URL.
   */
  function decoderVerdict(id: string): 'refused' | 'unusable' | 'usable' {
    let decoded: ReturnType<typeof decodeGlobalId>;
    try {
      decoded = decodeGlobalId(id);
    } catch {
      return 'refused';
    }
    if (!decoded.refetch) return 'unusable';
    for (const part of decoded.refetch) {
      expect(part).not.toMatch(UNSAFE);
      expect(part === '.' || part === '..').toBe(false);
    }
    return 'usable';
  }

  it('node(id:), nodes(ids:) and _entities refuse every id not of the form chaingraph issues, before any upstream call', async () => {
    await fc.assert(
      fc.asyncProperty(anyId, fc.constantFrom(...FAMILIES.slice(0, -1)), async (id, typename) => {
        fc.pre(decoderVerdict(id) === 'refused');
        await refused('query($id: ID!) { node(id: $id) { id } }', { id }, 'id');
        await refused('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [encodeGlobalId('Network', ['mainnet']), id] }, 'ids');
        await refused('query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [{ __typename: typename, id }] }, 'representations');
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it('node(id:) and nodes(ids:) answer null for ids of that form whose parts no grammar takes, before any upstream call', async () => {
    const ofForm = fc.tuple(fc.constantFrom(...FAMILIES.slice(0, -1)), fc.array(idPart, { maxLength: 6 }))
      .map(([family, parts]) => encodeGlobalId(family, parts as (string | number)[]));
    await fc.assert(
      fc.asyncProperty(ofForm, async (id) => {
        fc.pre(decoderVerdict(id) === 'unusable');
        stack.devnet.resetStats();
        const result = await stack.query('query($id: ID!) { node(id: $id) { id } nodes(ids: [$id]) { id } }', { id });
        cases += 1;
        expect(result.errors, id).toBeUndefined();
        expect(result.data, id).toEqual({ node: null, nodes: [null] });
        expect(stack.upstreamRequests()).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('the id grammar lets through nothing that could leave a path segment', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FAMILIES), fc.array(fc.oneof(idPart, fc.string({ unit: 'grapheme' })), { maxLength: 6 }), (family, parts) => {
        decoderVerdict(encodeLegacyGlobalId(family, parts as (string | number)[]));
        if (family !== 'Other') decoderVerdict(encodeGlobalId(family, parts as (string | number)[]));
      }),
      { numRuns: RUNS * 50 },
    );
  });

  /** One query per connection field with an `after` argument, reached from the root with cheap arguments. */
  const CONNECTIONS: Record<string, (f: Record<string, string>) => string> = {
    'Network.validators': () => 'network(name: MAINNET) { validators(first: 1, after: $after) { edges { cursor } } }',
    'Network.delegators': () => 'network(name: MAINNET) { delegators(first: 1, after: $after) { edges { cursor } } }',
    'Network.subnets': () => 'network(name: MAINNET) { subnets(first: 1, after: $after) { edges { cursor } } }',
    'Network.historicalRewards': (f) => `network(name: MAINNET) { historicalRewards(first: 1, after: $after, nodeIds: ["${f['nodeId']}"]) { edges { cursor } } }`,
    'Network.pendingRewards': (f) => `network(name: MAINNET) { pendingRewards(first: 1, after: $after, nodeIds: ["${f['nodeId']}"]) { edges { cursor } } }`,
    'Validator.delegators': () => 'network(name: MAINNET) { validators(first: 1) { edges { node { delegators(first: 1, after: $after) { edges { cursor } } } } } }',
    'Validator.historicalRewards': () => 'network(name: MAINNET) { validators(first: 1) { edges { node { historicalRewards(first: 1, after: $after) { edges { cursor } } } } } }',
    'Validator.pendingRewards': () => 'network(name: MAINNET) { validators(first: 1) { edges { node { pendingRewards(first: 1, after: $after) { edges { cursor } } } } } }',
    'Subnet.validators': () => 'network(name: MAINNET) { subnets(first: 1) { edges { node { validators(first: 1, after: $after) { edges { cursor } } } } } }',
    'PrimaryBlockchain.blocks': () => 'network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 1, after: $after) { edges { cursor } } } }',
    'PrimaryBlockchain.vertices': () => 'network(name: MAINNET) { blockchain(id: "x-chain") { vertices(first: 1, after: $after) { edges { cursor } } } }',
    'PrimaryBlockchain.utxos': (f) => `network(name: MAINNET) { blockchain(id: "p-chain") { utxos(addresses: ["${f['pChainAddress']}"], first: 1, after: $after) { edges { cursor } } } }`,
    'Address.transactions': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { transactions(first: 1, after: $after) { edges { cursor } } } }`,
    'Address.nativeTransactions': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { nativeTransactions(first: 1, after: $after) { edges { cursor } } } }`,
    'Address.erc1155Balances': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { erc1155Balances(first: 1, after: $after) { edges { cursor } } } }`,
    'Address.icmMessages': (f) => `chain(chainId: "43114") { address(address: "${f['icmAddress']}") { icmMessages(first: 1, after: $after) { edges { cursor } } } }`,
    'Query.icmMessages': (f) => `icmMessages(address: "${f['icmAddress']}", first: 1, after: $after) { edges { cursor } }`,
    // Primary-network lookups and ICM
    'Network.blockchains': () => 'network(name: MAINNET) { blockchains(first: 1, after: $after) { edges { cursor } } }',
    'AvalancheNode.peers': () => 'avalancheNode { peers(first: 1, after: $after) { edges { cursor } } }',
    // EVM blocks and contracts (issue 13)
    'Chain.blocks': () => 'chain(chainId: "43114") { blocks(first: 1, after: $after) { edges { cursor } } }',
    'Chain.latestTransactions': () => 'chain(chainId: "43114") { latestTransactions(first: 1, after: $after) { edges { cursor } } }',
    'EvmBlock.transactions': (f) => `chain(chainId: "43114") { transaction(txHash: "${f['txHash']}") { nativeTransaction { block { transactions(first: 1, after: $after) { edges { cursor } } } } } }`,
    // EVM address tokens (issue 13)
    'Address.erc20Balances': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { erc20Balances(first: 1, after: $after) { edges { cursor } } } }`,
    'Address.erc721Balances': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { erc721Balances(first: 1, after: $after) { edges { cursor } } } }`,
    'Address.collectibleBalances': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { collectibleBalances(first: 1, after: $after) { edges { cursor } } } }`,
    'Address.erc20Transfers': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { erc20Transfers(first: 1, after: $after) { edges { cursor } } } }`,
    'Address.erc721Transfers': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { erc721Transfers(first: 1, after: $after) { edges { cursor } } } }`,
    'Address.erc1155Transfers': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { erc1155Transfers(first: 1, after: $after) { edges { cursor } } } }`,
    'Address.internalTransactions': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { internalTransactions(first: 1, after: $after) { edges { cursor } } } }`,
    // Primary-network transactions (issue 13)
    'PrimaryBlockchain.transactions': () => 'network(name: MAINNET) { blockchain(id: "p-chain") { transactions(first: 1, after: $after) { edges { cursor } } } }',
    'PrimaryBlockchain.stakingTransactions': () => 'network(name: MAINNET) { blockchain(id: "p-chain") { stakingTransactions(first: 1, after: $after) { edges { cursor } } } }',
    'Contract.transfers': (f) => `chain(chainId: "43114") { contract(address: "${f['contractAddress']}") { transfers(first: 1, after: $after) { edges { cursor } } } }`,
    // L1 validators and an asset's transactions
    'Network.l1Validators': () => 'network(name: MAINNET) { l1Validators(first: 1, after: $after, includeInactive: true) { edges { cursor } } }',
    'Subnet.l1Validators': (f) => `network(name: MAINNET) { subnet(subnetId: "${f['l1SubnetId']}") { l1Validators(first: 1, after: $after) { edges { cursor } } } }`,
    'Asset.transactions': (f) => `network(name: MAINNET) { blockchain(id: "x-chain") { asset(assetId: "${f['xAssetId']}") { transactions(first: 1, after: $after) { edges { cursor } } } } }`,
    // The calling key's request logs
    'ApiUsage.logs': () => 'apiUsage { logs(first: 1, after: $after) { edges { cursor } } }',
    // The calling key's webhooks and the addresses each watches
    'Query.webhooks': () => 'webhooks(first: 1, after: $after) { edges { cursor } }',
    'Webhook.addresses': () => 'webhooks(first: 1) { edges { node { addresses(first: 1, after: $after) { edges { cursor } } } } }',
    // Blocks by proposer, vertices by height, the latest across chains, deployments and collections
    'Block.proposerBlocks': () => 'network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 1) { edges { node { proposerBlocks(first: 1, after: $after) { edges { cursor } } } } } } }',
    'Validator.proposedBlocks': () => 'network(name: MAINNET) { validators(first: 1) { edges { node { proposedBlocks(chain: "p-chain", first: 1, after: $after) { edges { cursor } } } } } }',
    'AvalancheNode.proposedBlocks': () => 'avalancheNode { proposedBlocks(chain: "p-chain", first: 1, after: $after) { edges { cursor } } }',
    'PrimaryBlockchain.verticesAtHeight': () => 'network(name: MAINNET) { blockchain(id: "x-chain") { verticesAtHeight(height: 1, first: 1, after: $after) { edges { cursor } } } }',
    'Blockchain.blocks': () => 'network(name: MAINNET) { subnet(subnetId: "11111111111111111111111111111111LpoYY") { blockchains { blocks(first: 1, after: $after) { edges { cursor } } } } }',
    'Query.latestBlocks': () => 'latestBlocks(first: 1, after: $after) { edges { cursor } }',
    'Query.latestTransactions': () => 'latestTransactions(first: 1, after: $after) { edges { cursor } }',
    'Address.deployedContracts': (f) => `chain(chainId: "43114") { address(address: "${f['address']}") { deployedContracts(first: 1, after: $after) { edges { cursor } } } }`,
    'Contract.deployedContracts': (f) => `chain(chainId: "43114") { contract(address: "${f['contractAddress']}") { deployedContracts(first: 1, after: $after) { edges { cursor } } } }`,
    'Erc721Contract.tokens': (f) => `chain(chainId: "43114") { contract(address: "${f['nftContract']}") { ... on Erc721Contract { tokens(first: 1, after: $after) { edges { cursor } } } } }`,
    'Erc1155Contract.tokens': (f) => `chain(chainId: "43114") { contract(address: "${f['erc1155Contract']}") { ... on Erc1155Contract { tokens(first: 1, after: $after) { edges { cursor } } } } }`,
    // A node's whole validation history
    'Network.validationHistory': (f) => `network(name: MAINNET) { validationHistory(nodeId: "${f['nodeId']}", first: 1, after: $after) { edges { cursor } } }`,
    'Validator.history': () => 'network(name: MAINNET) { validators(first: 1) { edges { node { history(first: 1, after: $after) { edges { cursor } } } } } }',
    'AvalancheNode.validations': () => 'avalancheNode { validations(first: 1, after: $after) { edges { cursor } } }',
  };

  it('covers the after of every connection in the schema', () => {
    const fields = new Set<string>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!(isObjectType(type) || isInterfaceType(type)) || type.name.startsWith('__')) continue;
      const interfaces = type.getInterfaces().map((i) => i.name);
      for (const field of Object.values(type.getFields())) {
        if (!field.args.some((a) => a.name === 'after') || !getNamedType(field.type).name.endsWith('Connection')) continue;
        // A status type's field is its interface's field (one resolver): covered through the interface.
        const owner = interfaces.find((i) => (schema.getType(i) as { getFields?: () => Record<string, unknown> }).getFields?.()[field.name]);
        fields.add(`${owner ?? type.name}.${field.name}`);
      }
    }
    expect([...fields].sort()).toEqual(Object.keys(CONNECTIONS).sort());
  });

  /** Cursors that look real: a real one with an edit, or a well-formed one signed with another secret. */
  const tamperedCursor = fc.oneof(
    fc.tuple(fc.integer({ min: 0, max: 5 }), fc.nat(), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.')).map(([which, at, char]) => {
      const cursor = realCursors[which] as string;
      const i = at % cursor.length;
      const edited = `${cursor.slice(0, i)}${char}${cursor.slice(i + 1)}`;
      return edited === cursor ? `${cursor}${char}` : edited;
    }),
    fc.tuple(fc.integer({ min: 0, max: 5 }), fc.nat()).map(([which, cut]) => (realCursors[which] as string).slice(0, cut % (realCursors[which] as string).length)),
    fc.tuple(fc.integer({ min: 1, max: 100 }), fc.nat({ max: 1000 }), fc.option(fc.stringMatching(/^[A-Za-z0-9_\-.~+/=:]{1,40}$/), { nil: undefined })).map(([s, i, t]) => {
      // Bound to the validators connection's real argument hash, so only the signature is wrong.
      const [payload] = (realCursors[0] as string).split('.') as [string];
      const h = Buffer.from(payload, 'base64url').toString().split('.')[2] as string;
      return createCursorCodec(['x'.repeat(40)]).encode({ s, i, h, t });
    }),
    fc.tuple(fc.integer({ min: 0, max: 5 }), anyText).map(([which, token]) => {
      // A real payload with its token replaced, under the real MAC.
      const [payload, mac] = (realCursors[which] as string).split('.') as [string, string];
      const text = Buffer.from(payload, 'base64url').toString().split('.').slice(0, 4).join('.');
      return `${Buffer.from(`${text}.${token}`).toString('base64url')}.${mac}`;
    }),
  );
  const anyCursor = fc.oneof(anyText, craftedId, tamperedCursor, fc.string({ minLength: 3000, maxLength: 5000 })).filter((c) => c !== '' && !realCursors.includes(c));

  it.each(Object.keys(CONNECTIONS))('%s refuses every forged or tampered after before any upstream call', async (name) => {
    const selection = (CONNECTIONS[name] as (f: Record<string, string>) => string)(fixtures);
    const query = `query($after: String) { ${selection} }`;
    await fc.assert(
      fc.asyncProperty(anyCursor, async (after) => {
        await refused(query, { after }, 'after');
      }),
      { numRuns: RUNS },
    );
  });

  it('pages on with a real cursor through every connection template (the templates are sound)', async () => {
    for (const [name, build] of Object.entries(CONNECTIONS)) {
      // The calling key's usage is read only with a key of the caller's own.
      const headers = name.startsWith('ApiUsage.') || /^(Query\.webhooks|Webhook\.)/.test(name) ? { 'x-service-api-key': 'cursor-test-key' } : undefined;
      const result = await stack.query<Record<string, unknown>>(`query($after: String) { ${build(fixtures)} }`, { after: null }, headers);
      expect(result.errors, name).toBeUndefined();
    }
  });
});
