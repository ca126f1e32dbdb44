import {
  getEnterLeaveForKind,
  GraphQLError,
  Kind,
  OverlappingFieldsCanBeMergedRule,
  specifiedRules,
  type ASTNode,
  type ASTVisitor,
  type DocumentNode,
  type validate,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/codes.ts';
import { validationComplexity } from './validation-complexity.ts';

/** Options of {@link useValidationLimit}. */
export interface ValidationLimitOptions {
  /**
   * Most field comparisons validating one document may take, as estimated before validation by
   * `validationComplexity` (`MAX_VALIDATION_COMPLEXITY`). A document over it is refused with
   * QUERY_TOO_COMPLEX and no validation rule runs on it. The unit is about a microsecond of validation
   * (two to three on a loaded, shared CPU), so the default keeps any allowed document's overlap check to a
   * few milliseconds; the GraphiQL examples, the README's and the typed clients' documents and the full
   * introspection query are under 60, thirty Relay-style fragments spread on one object about 1,300.
   * Default 2000.
   */
  maxComplexity?: number;
}

export const VALIDATION_LIMIT_DEFAULTS = { maxComplexity: 2000 } as const satisfies Required<ValidationLimitOptions>;

type ValidateFn = typeof validate;

/**
 * Validation bounded before it runs.
 *
 * 1. One overlap check per validation. graphql-js's OverlappingFieldsCanBeMerged is in yoga's rule list, and
 *    `useDeferStream` adds its own copy (the same check, plus "fields with differing `@stream` cannot merge");
 *    it means to replace graphql-js's but filters a copy of the list envelop does not read, so both ran, each
 *    reporting every conflict. The validate function set here keeps one rule of that name: the defer-aware copy
 *    when present. It also skips the selection sets of inline fragments, as graphql-js's own rule does: their
 *    fields are already compared as part of the enclosing set, and comparing them again at each level of a
 *    nest of inline fragments repeats the quadratic work (and the errors) up to the bracket limit times.
 *
 * 2. A complexity budget. That check compares fields pairwise, so a small document can cost seconds: 200
 *    copies of `subnets(first: 1) { ... }` under one parent pass every size limit (15 KB, under 5,000 tokens)
 *    and take 0.2 to 0.4 s of CPU to validate. `validationComplexity` estimates the comparisons in a linear pass over the
 *    parsed document (fragments summarised once, cycles cut) before any rule runs; above `maxComplexity` the
 *    document is refused with QUERY_TOO_COMPLEX (400) and validation never runs. The verdict is kept per
 *    document, so a document the parse cache hands out again is not measured again.
 *
 * The rule list is fixed when `validate` is called, so this sees every rule whichever plugin added it. The
 * gateway registers it before `useParseCache`, which then caches a refusal as any other validation result.
 */
export function useValidationLimit(options: ValidationLimitOptions = {}): Plugin {
  const maxComplexity = options.maxComplexity ?? VALIDATION_LIMIT_DEFAULTS.maxComplexity;
  // Lives as long as the document: one request, or while the parse cache keeps it.
  const refusals = new WeakMap<DocumentNode, GraphQLError | null>();
  const wrapped = new WeakMap<ValidateFn, ValidateFn>();
  return {
    onValidate({ params, validateFn, setValidationFn, setResult }) {
      let once = wrapped.get(validateFn);
      if (!once) wrapped.set(validateFn, (once = withOneOverlapRule(validateFn)));
      setValidationFn(once);
      let refusal = refusals.get(params.documentAST);
      if (refusal === undefined) {
        refusal = validationComplexity(params.documentAST, maxComplexity) > maxComplexity ? tooComplex(maxComplexity) : null;
        refusals.set(params.documentAST, refusal);
      }
      if (refusal) setResult([refusal]);
    },
  };
}

function tooComplex(maxComplexity: number): GraphQLError {
  return new GraphQLError(
    `Query too complex to validate: merging its repeated fields would take more than ${maxComplexity} field comparisons. ` +
      'Select each field once per parent (aliases for different arguments), and spread each fragment once per selection.',
    { extensions: { code: ErrorCode.QUERY_TOO_COMPLEX, limits: { maxValidationComplexity: maxComplexity } } },
  );
}

const OVERLAP_RULE = OverlappingFieldsCanBeMergedRule.name;

/** `validate` with one OverlappingFieldsCanBeMerged rule in its list (see {@link useValidationLimit}). */
function withOneOverlapRule(validateFn: ValidateFn): ValidateFn {
  return (schema, documentAST, rules, options, typeInfo) =>
    validateFn(schema, documentAST, oneOverlapRule(rules ?? specifiedRules), { ...options, maxErrors: Math.min(options?.maxErrors ?? MAX_ERRORS, MAX_ERRORS) }, typeInfo);
}

/**
 * Validation errors reported per document (graphql-js stops at 100). Each error's location is found by
 * scanning the text before it, so 100 errors after 900 KB of comments cost over a second; ten say enough.
 */
const MAX_ERRORS = 10;

/**
 * The rule list with a single overlap check: the first defer-aware copy (any rule of that name other than
 * graphql-js's own), its inline-fragment selection sets skipped; graphql-js's rule when there is no other.
 */
export function oneOverlapRule(rules: readonly ValidationRule[]): readonly ValidationRule[] {
  const deferAware = rules.find((rule) => rule !== OverlappingFieldsCanBeMergedRule && rule.name === OVERLAP_RULE);
  if (!deferAware) return rules;
  const kept: ValidationRule[] = [];
  for (const rule of rules) {
    if (rule === deferAware) kept.push(skippingInlineFragments(rule));
    else if (rule.name !== OVERLAP_RULE) kept.push(rule);
  }
  return kept;
}

const skipping = new WeakMap<ValidationRule, ValidationRule>();

/** The rule, its SelectionSet visit skipped for the selection set of an inline fragment (graphql-js 16.15's own rule does the same). */
function skippingInlineFragments(rule: ValidationRule): ValidationRule {
  const known = skipping.get(rule);
  if (known) return known;
  const wrappedRule: ValidationRule = (context) => {
    const visitor = rule(context);
    const { enter, leave } = getEnterLeaveForKind(visitor, Kind.SELECTION_SET);
    if (!enter) return visitor;
    return {
      ...visitor,
      SelectionSet: {
        enter(node, key, parent, path, ancestors) {
          if (isInlineFragment(parent)) return undefined;
          return enter.call(visitor, node, key, parent, path, ancestors);
        },
        ...(leave ? { leave: (...args) => leave.call(visitor, ...args) } : {}),
      },
    } satisfies ASTVisitor;
  };
  Object.defineProperty(wrappedRule, 'name', { value: OVERLAP_RULE });
  skipping.set(rule, wrappedRule);
  return wrappedRule;
}

function isInlineFragment(parent: ASTNode | readonly ASTNode[] | undefined): boolean {
  return parent !== undefined && 'kind' in parent && parent.kind === Kind.INLINE_FRAGMENT;
}
