import SchemaBuilder, {
  BasePlugin,
  type FieldNullability,
  type FieldRequiredness,
  type InputFieldMap,
  type InputShapeFromFields,
  type InputType,
  type PothosInputFieldConfig,
  type PothosOutputFieldConfig,
  type SchemaTypes,
  type TypeParam,
} from '@pothos/core';
import type { FieldCost } from '../lib/cost.ts';
import type { Bound } from './bounds.ts';
import { demandControlDirectives } from './cost-directives.ts';

/**
 * Declarations beside the field, read before execution:
 *
 * - `bound` on an argument or input field: the value's grammar or range as data
 *   (`src/schema/bounds.ts`); the pre-execution check (`useInputValidation`) applies it
 *   to the coerced value, inside lists and input objects too, and the argument's
 *   description ends with what it says, so docs and checks cannot drift.
 * - `checkArgs` on a field: the rules between arguments (min <= max, a sort key that
 *   needs a filter), typed by the field's own `args`; run after the bounds pass.
 * - `upstreamCost` on a field: what it spends upstream (`src/lib/cost.ts`), read by the
 *   query-cost estimator, and published as `@cost`/`@listSize` (`./cost-directives.ts`).
 *
 * All three end up as GraphQL extensions (`checkValue`, `validateArgs`, `cost`), which is
 * what the plugins read: they never import the schema.
 */
/* eslint-disable @typescript-eslint/no-namespace, @typescript-eslint/no-unused-vars -- Pothos options grow by declaration merging: its namespace, and every type parameter under its own name */
declare global {
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      checks: PothosChecksPlugin<Types>;
    }
    interface FieldOptions<
      Types extends SchemaTypes,
      ParentShape,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveShape,
      ResolveReturnShape,
    > {
      /** Rules between this field's arguments, checked before execution (after every `bound`). Throw `badInput(...)`. */
      checkArgs?: (args: InputShapeFromFields<Args>, context: Types['Context']) => void;
      /** What resolving this field spends upstream (`src/lib/cost.ts`): ends up as `extensions.cost`. */
      upstreamCost?: FieldCost;
    }
    interface InputFieldOptions<
      Types extends SchemaTypes = SchemaTypes,
      Type extends InputType<Types> | [InputType<Types>] = InputType<Types> | [InputType<Types>],
      Req extends FieldRequiredness<Type> = FieldRequiredness<Type>,
    > {
      /** The value's bound, checked before execution and told in the description. */
      bound?: Bound;
    }
  }
}
/* eslint-enable @typescript-eslint/no-namespace, @typescript-eslint/no-unused-vars */

const pluginName = 'checks';

export class PothosChecksPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onInputFieldConfig(fieldConfig: PothosInputFieldConfig<Types>): PothosInputFieldConfig<Types> {
    const bound = fieldConfig.pothosOptions.bound;
    if (!bound) return fieldConfig;
    const said = fieldConfig.description?.trimEnd() ?? '';
    const told = [said, bound.describe].filter(Boolean).join(' ') || undefined;
    return {
      ...fieldConfig,
      ...(told ? { description: told } : {}),
      extensions: { ...fieldConfig.extensions, checkValue: bound.check },
    };
  }

  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    const { checkArgs, upstreamCost: cost } = fieldConfig.pothosOptions as {
      checkArgs?: (args: Record<string, unknown>, context: Types['Context']) => void;
      upstreamCost?: FieldCost;
    };
    if (!checkArgs && !cost) return fieldConfig;
    // The published `@cost`/`@listSize` come from the same declaration (after the directives plugin normalised its list).
    const published = cost ? demandControlDirectives(cost, {
      args: argDefaults(fieldConfig.args),
      list: fieldConfig.type.kind === 'List',
      // The parent's kind: an interface's fields keep kind 'Interface' on the objects that implement it.
      onInterface: this.buildCache.getTypeConfig(fieldConfig.parentType).kind === 'Interface',
    }) : [];
    const directives: unknown = fieldConfig.extensions?.['directives'];
    return {
      ...fieldConfig,
      extensions: {
        ...fieldConfig.extensions,
        ...(checkArgs ? { validateArgs: checkArgs } : {}),
        ...(cost ? { cost } : {}),
        ...(published.length ? { directives: [...(Array.isArray(directives) ? directives : []), ...published] } : {}),
      },
    };
  }
}

/** A field's arguments with their default values. */
const argDefaults = (args: Record<string, { defaultValue?: unknown }>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(args).map(([name, arg]) => [name, arg.defaultValue]));

SchemaBuilder.registerPlugin(pluginName, PothosChecksPlugin);

export default pluginName;
