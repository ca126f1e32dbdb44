/** chaingraph's figures read back from its `chaingraph-cost` header, summed over every member (a router appends one copy per subgraph request). */
export interface CostHeaderTotals {
  /** How many operations' figures the value held. */
  operations: number;
  actualUpstreamCalls: number;
  estimatedUpstreamCalls: number;
  actualComputeUnits: number;
  estimatedComputeUnits: number;
  nodes: number;
}

const FIELDS: Record<string, Partial<Record<string, keyof CostHeaderTotals>>> = {
  calls: { actual: 'actualUpstreamCalls', estimated: 'estimatedUpstreamCalls' },
  'compute-units': { actual: 'actualComputeUnits', estimated: 'estimatedComputeUnits' },
  nodes: { estimated: 'nodes' },
};

/**
 * Reads the structured-field list (RFC 8941) `calls;actual=2;estimated=3, compute-units;actual=20;estimated=20,
 * nodes;estimated=13[, ...]` as a log pipeline would: every member's integer parameters added up by name.
 * Throws on anything else, so a test sees a malformed value.
 */
export function sumCostHeader(value: string | null): CostHeaderTotals | undefined {
  if (value === null) return undefined;
  const totals: CostHeaderTotals = { operations: 0, actualUpstreamCalls: 0, estimatedUpstreamCalls: 0, actualComputeUnits: 0, estimatedComputeUnits: 0, nodes: 0 };
  for (const member of value.split(',').map((m) => m.trim())) {
    const [name = '', ...params] = member.split(';');
    const fields = FIELDS[name];
    if (!fields) throw new Error(`unexpected member ${JSON.stringify(member)} in ${JSON.stringify(value)}`);
    if (name === 'calls') totals.operations += 1;
    for (const param of params) {
      const match = /^([a-z][a-z0-9-]*)=(-?\d{1,15})$/.exec(param);
      const field = match ? fields[match[1] ?? ''] : undefined;
      if (!match || !field) throw new Error(`unexpected parameter ${JSON.stringify(param)} in ${JSON.stringify(value)}`);
      totals[field] += Number(match[2]);
    }
  }
  return totals;
}
