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
 *
 * Why the country and the listed fields are inferred one by one (`C`, `Currency`, `Method`,
 * `Customer`) and not as the whole params: a wrapper generic in its params
 * (`<P extends PayInCreateParams>(p: P) => client.payin.create(p)`) then still compiles, as a
 * property of a generic argument is inferred from its constraint, where the whole argument would
 * stay generic and the conditional types below could not be resolved. A wrapper generic in the
 * country itself (`<C extends CountryCode>(p: PayInCreateParamsFor<C>)`) cannot: its country
 * stays the type parameter `C` (docs/getting-started.md says what to write there).
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

/** The fields whose values a country lists, as the argument has them. */
type Listed<C, Currency, Method, Customer> = {
  country: C;
  currency: Currency;
  payment_method: Method;
  customer_data: Customer;
};

/**
 * The params type `create()` checks its argument against. `Listed` in the first branch, never
 * taken, is where the compiler infers the type parameters from the argument.
 */
type Checked<K extends Kind, C, Currency, Method, Customer> = [C] extends [never]
  ? Listed<C, Currency, Method, Customer>
  : [C] extends [string]
    ? [Exclude<string, C>] extends [never]
      ? CountryTypedString<K>
      : [Exclude<C, SingleCountry<C>>] extends [never]
        ? ForCountry<K, Listed<C, Currency, Method, Customer>, C & CountryCode>
        : ParamsOf<CountryCode>[K]['all']
    : ParamsOf<CountryCode>[K]['all'];

/** What `client.payin.create()` checks its params against: the shape of their country C. */
export type CheckedPayInParams<C, Currency, Method, Customer> = Checked<
  'PayIn',
  C,
  Currency,
  Method,
  Customer
>;
/** What `client.payout.create()` checks its params against: the shape of their country C. */
export type CheckedPayOutParams<C, Currency, Method, Customer> = Checked<
  'PayOut',
  C,
  Currency,
  Method,
  Customer
>;
