import type { ArgBuilder } from '@pothos/core';
import { builder, type BuilderTypes } from './builder.ts';
import type { FieldCost } from '../lib/cost.ts';
import { acrossNodeNetworks, ownNodeId, throughOwnNodeId } from '../loaders/nodes.ts';
import type { NetworkId } from '../loaders/types.ts';
import { VALIDATION_HISTORY_COST, validationHistoryPages } from '../loaders/validation-history.ts';
import { VALIDATION_STATUSES, type GetValidatorDetailsParams } from '../shapes/index.ts';
import { checkAfter, pageArgs, resolvePageConnection, type ConnectionArgs } from './connection.ts';
import type { Context } from './context.ts';
import { SortOrderEnum } from './enums.ts';
import { BOUNDS } from './input-checks.ts';
import { NetworkNameEnum, NetworkRef, networkId } from './network.ts';
import { AvalancheNodeRef } from './node.ts';
import { PAGES } from './pagination.ts';
import { ValidationStatus, ValidatorConnection, ValidatorInterface, type ValidatorShape } from './validators.ts';

/**
 * A node's whole validation history (getSingleValidatorDetails, paged and filtered):
 * `Network.validationHistory(nodeId:)`, and the links `Validator.history` (the node of
 * a validation) and `AvalancheNode.validations` (a configured node, by its own id).
 */

const HISTORY = 'One getSingleValidatorDetails listing per parent: the API takes one node id.';

/** The history's filters and page, shared by every field that lists it. */
const historyArgs = (t: ArgBuilder<BuilderTypes>) => ({
  validationStatus: t({ type: ValidationStatus.ref, description: 'Only validations with this status.', bound: ValidationStatus.bound }),
  sortOrder: t({ type: SortOrderEnum, description: 'By start time: DESC (default) newest first, ASC oldest first.' }),
  ...pageArgs(t, PAGES.validationHistory),
});

interface HistoryArgs extends ConnectionArgs {
  validationStatus?: string | null;
  sortOrder?: 'asc' | 'desc' | null;
}

const checkHistory = (args: HistoryArgs) => checkAfter(args, PAGES.validationHistory);

function paramsOf(args: HistoryArgs): Omit<GetValidatorDetailsParams, 'pageSize' | 'pageToken'> {
  const validationStatus = VALIDATION_STATUSES.find((status) => status === args.validationStatus);
  return { ...(validationStatus ? { validationStatus } : {}), ...(args.sortOrder ? { sortOrder: args.sortOrder } : {}) };
}

/** Every validation of `nodeId` on `network` as a connection, each page one upstream call. */
function validationHistory(ctx: Context, network: NetworkId, nodeId: string, args: HistoryArgs) {
  return resolvePageConnection<ValidatorShape>({
    ctx,
    page: PAGES.validationHistory,
    args,
    parent: { network, nodeId },
    fetchPage: validationHistoryPages(ctx, network, nodeId, paramsOf(args)),
  });
}

builder.objectFields(NetworkRef, (t) => ({
  validationHistory: t.field({
    type: ValidatorConnection,
    nullable: false,
    description: `Every validation of one node on this network, on the primary network and on subnets, each time it validated its own record; newest first by default. Empty when the node never validated. ${HISTORY}`,
    args: {
      nodeId: t.arg.string({ required: true, description: 'The node, `NodeID-...`.', bound: BOUNDS.nodeId }),
      ...historyArgs(t.arg),
    },
    checkArgs: checkHistory,
    upstreamCost: VALIDATION_HISTORY_COST,
    resolve: (n, args, ctx) => validationHistory(ctx, n.network, args.nodeId, args),
  }),
}));

builder.interfaceFields(ValidatorInterface, (t) => ({
  history: t.field({
    type: ValidatorConnection,
    nullable: true,
    description: `Every validation of this validation's node on its network (this one among them), newest first by default; null when the validation names no node. ${HISTORY}`,
    args: historyArgs(t.arg),
    checkArgs: checkHistory,
    upstreamCost: VALIDATION_HISTORY_COST,
    resolve: (v, args, ctx) => (v.nodeId ? validationHistory(ctx, v.network, v.nodeId, args) : null),
  }),
}));

/** info.getNodeID (and the node's network) first, then one listing. */
const NODE_VALIDATIONS_COST: FieldCost = { ...VALIDATION_HISTORY_COST, calls: throughOwnNodeId(acrossNodeNetworks(VALIDATION_HISTORY_COST)).calls };

builder.objectFields(AvalancheNodeRef, (t) => ({
  validations: t.field({
    type: ValidatorConnection,
    nullable: true,
    description: `Every validation of this node, by its own node id (info.getNodeID), on the primary network and on subnets; newest first by default. ${HISTORY}`,
    args: {
      network: t.arg({ type: NetworkNameEnum, description: "Network to look in; default: the node's own network (MAINNET when it is neither mainnet nor fuji)." }),
      ...historyArgs(t.arg),
    },
    checkArgs: checkHistory,
    upstreamCost: NODE_VALIDATIONS_COST,
    resolve: async (n, args, ctx) => {
      const { nodeId, network } = await ownNodeId(ctx, n.name, args.network == null ? undefined : networkId(args.network));
      return validationHistory(ctx, network, nodeId, args);
    },
  }),
}));
