/**
 * The `catalog` namespace of the main entry (`import { catalog } from 'payinout'`): all of
 * catalog.ts. A module of its own, reached by the main entry alone, so that the namespace object
 * esbuild builds for it sits apart from the catalog's code, which every client shares, and a
 * bundle that does not use the namespace drops it (docs/architecture.md, "Exports").
 *
 * The values are re-exported; the types are declared here as aliases of catalog.ts's, because the
 * .d.ts bundler turns a type re-exported through a namespace into `declare const X: typeof X`,
 * which no consumer compiles.
 */
import type * as source from './catalog.js';

export * from './catalog.js';

/** {@link source.CountryCode} */
export type CountryCode = source.CountryCode;
/** {@link source.CurrencyCode} */
export type CurrencyCode = source.CurrencyCode;
/** {@link source.CountryInfo} */
export type CountryInfo = source.CountryInfo;
/** {@link source.CatalogValues} */
export type CatalogValues<L> = source.CatalogValues<L>;
/** {@link source.CountryEntry} */
export type CountryEntry<C extends CountryCode> = source.CountryEntry<C>;
/** {@link source.CurrencyOf} */
export type CurrencyOf<C extends CountryCode> = source.CurrencyOf<C>;
/** {@link source.PayInMethod} */
export type PayInMethod<C extends CountryCode = CountryCode> = source.PayInMethod<C>;
/** {@link source.PayOutMethod} */
export type PayOutMethod<C extends CountryCode = CountryCode> = source.PayOutMethod<C>;
/** {@link source.PayInDocumentType} */
export type PayInDocumentType<C extends CountryCode = CountryCode> = source.PayInDocumentType<C>;
/** {@link source.PayOutDocumentType} */
export type PayOutDocumentType<C extends CountryCode = CountryCode> = source.PayOutDocumentType<C>;
/** {@link source.AccountType} */
export type AccountType<C extends CountryCode = CountryCode> = source.AccountType<C>;
/** {@link source.PersonType} */
export type PersonType = source.PersonType;
/** {@link source.KnownTransactionStatus} */
export type KnownTransactionStatus = source.KnownTransactionStatus;
/** {@link source.FinalStatus} */
export type FinalStatus = source.FinalStatus;
/** {@link source.ApiErrorCode} */
export type ApiErrorCode = source.ApiErrorCode;
/** {@link source.SandboxConfirmStatus} */
export type SandboxConfirmStatus = source.SandboxConfirmStatus;
