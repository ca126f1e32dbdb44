/**
 * `npm run bench:stress` settings (from the environment) and the validator selections its
 * documents are built from.
 */
import { REQUEST_LIMITS_DEFAULTS } from '../../src/gateway/plugins/use-request-limits.ts';

export const CONCURRENCY = Number(process.env['STRESS_CONCURRENCY'] ?? 96);
export const ROUNDS = Number(process.env['STRESS_ROUNDS'] ?? 3);
export const RAW_SOCKETS = Number(process.env['STRESS_RAW_SOCKETS'] ?? 64);
export const GRAPHIQL_LOADS = Number(process.env['STRESS_GRAPHIQL_LOADS'] ?? 200);
/** The gateway's defaults (this script does not override them). */
export const MAX_BODY = Number(process.env['MAX_BODY_BYTES'] ?? REQUEST_LIMITS_DEFAULTS.maxBodyBytes);
export const REQUEST_TIMEOUT_MS = 180_000;
/** /health slower than this during or after a scenario is reported. */
export const SLOW_HEALTH_MS = 1000;
/** What clients such as GraphiQL send: request errors then answer 400. */
export const ACCEPT = 'application/graphql-response+json, application/json';

export const VALIDATOR_FIELDS =
  'id network txHash nodeId subnetId amountStaked delegationFee amountDelegated startTimestamp endTimestamp blsCredentials { publicKey proofOfPossession } delegatorCount validationStatus validationStatusRaw ... on ActiveValidator { stakePercentage uptimePerformance validatorHealth { reachabilityPercent } geolocation { city country latitude longitude } avalancheGoVersion delegationCapacity }';
export const SCALAR_FIELDS = ['id', 'network', 'txHash', 'nodeId', 'subnetId', 'amountStaked', 'delegationFee', 'amountDelegated', 'startTimestamp', 'endTimestamp', 'delegatorCount', 'validationStatus', 'validationStatusRaw'];
/** Every validator field as separate selections (scalars, then the two with sub-selections). */
export const FIELD_PIECES = [...SCALAR_FIELDS, 'blsCredentials { publicKey proofOfPossession }', VALIDATOR_FIELDS.slice(VALIDATOR_FIELDS.indexOf('... on ActiveValidator'))];
