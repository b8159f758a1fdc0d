/**
 * The parameter types of `client.payin.create()` and `client.payout.create()`: the params are
 * checked against ONE country's shape, the one their `country` names, so that a mistake is
 * reported against that country (not against the last member of the five-country union, which
 * named a country never used: `Type 'string' is not assignable to type '"HNL"'`). Two cases get
 * a sentence instead of a type, as the compiler's first line, because no field's own type can
 * say them:
 * - `country` typed `string` (params built in a variable before the call: TypeScript widens
 *   every string there), which no country's rules can check;
 * - a field typed `string` where that country takes listed values only (a customer declared
 *   apart: `customer_data.legal_doc_type`), named by its path.
 * Params of a literal country with literal values keep the compiler's own errors, on the field
 * (`Type '"SPEI"' is not assignable to type '"PSE" | …'`), its excess-property check and the
 * schema's field descriptions on hover. Params whose country is a union (typed
 * `PayInCreateParams`) are checked against the union, as before.
 */
import type { CountryCode } from './catalog.js';
import type { PayInCreateParams, PayInCreateParamsFor } from './payin.js';
import type { PayOutCreateParams, PayOutCreateParamsFor } from './payout.js';

/** Each kind's params: all countries, and one country's. */
interface ParamsOf<C extends CountryCode> {
  PayIn: { all: PayInCreateParams; one: PayInCreateParamsFor<C> };
  PayOut: { all: PayOutCreateParams; one: PayOutCreateParamsFor<C> };
}
type Kind = keyof ParamsOf<CountryCode>;

/** C when it is exactly one country code; never for a union, `string` or another string. */
type SingleCountry<C> = { [K in CountryCode]: [C] extends [K] ? K : never }[CountryCode];
/** The type of field K in every member of the union T that has it. */
type FieldOf<T, K> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;
/** True when V is typed `string` where T takes some strings only. */
type IsWidened<V, T> = [NonNullable<V>] extends [string]
  ? [string] extends [NonNullable<V>]
    ? [string] extends [T]
      ? false
      : true
    : false
  : false;
type WidenedKeys<V, T> = {
  [K in keyof V]-?: IsWidened<V[K], FieldOf<T, K>> extends true ? K : never;
}[keyof V];
/** The paths of P's fields typed `string` where S takes listed values: 'currency', 'customer_data.legal_doc_type'. */
type WidenedPaths<P, S> = {
  [K in keyof P]-?: IsWidened<P[K], FieldOf<S, K>> extends true
    ? K & string
    : NonNullable<P[K]> extends object
      ? `${K & string}.${WidenedKeys<NonNullable<P[K]>, FieldOf<S, K>> & string}`
      : never;
}[keyof P];

/** What to write when `country` is typed `string`. */
export type CountryTypedString<K extends Kind> =
  `\`country\` is typed string, so no one country's rules can be checked: give the params their country's type, e.g. \`const params: ${K}CreateParamsFor<'CO'> = {…}\` or \`{…} satisfies ${K}CreateParamsFor<'CO'>\`, or write \`country: 'CO' as const\``;
/** What to write when the field at Path (one, or a union of several) is typed `string` where country C takes listed values. */
export type FieldTypedString<K extends Kind, Path extends string, C extends CountryCode> = [Path] extends [
  UnionToIntersection<Path>,
]
  ? Path extends `customer_data.${string}`
    ? `${Path} is typed string where ${C} takes listed values only: declare the customer as ${K}CustomerData<'${C}'>, which lists them, or write the value with \`as const\``
    : `${Path} is typed string where ${C} takes listed values only: declare the params as ${K}CreateParamsFor<'${C}'>, which lists them, or write the value with \`as const\``
  : `several fields are typed string where ${C} takes listed values only: declare the params as ${K}CreateParamsFor<'${C}'> (a customer declared apart as ${K}CustomerData<'${C}'>), which lists them, or write the values with \`as const\``;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

type ForCountry<K extends Kind, P, C extends CountryCode> = [WidenedPaths<P, ParamsOf<C>[K]['one']>] extends [
  never,
]
  ? ParamsOf<C>[K]['one']
  : FieldTypedString<K, WidenedPaths<P, ParamsOf<C>[K]['one']>, C>;

/**
 * The params type `create()` checks P against (P is inferred from the argument: the `[P] extends
 * [never]` branch, never taken, is where the compiler infers it from).
 */
type Checked<K extends Kind, P> = [P] extends [never]
  ? P
  : [P] extends [{ country: infer C }]
    ? string extends C
      ? CountryTypedString<K>
      : [SingleCountry<C>] extends [never]
        ? ParamsOf<CountryCode>[K]['all']
        : ForCountry<K, P, SingleCountry<C>>
    : ParamsOf<CountryCode>[K]['all'];

/** What `client.payin.create()` checks its params P against: the shape of P's country. */
export type CheckedPayInParams<P> = Checked<'PayIn', P>;
/** What `client.payout.create()` checks its params P against: the shape of P's country. */
export type CheckedPayOutParams<P> = Checked<'PayOut', P>;
