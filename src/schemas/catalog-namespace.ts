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

/** The catalog's `CountryCode`, as the main entry exports it by name. */
export type CountryCode = source.CountryCode;
/** The catalog's `CurrencyCode`, as the main entry exports it by name. */
export type CurrencyCode = source.CurrencyCode;
/** The catalog's `CountryInfo`, as the main entry exports it by name. */
export type CountryInfo = source.CountryInfo;
/** The catalog's `CatalogValues`, as the main entry exports it by name. */
export type CatalogValues<L> = source.CatalogValues<L>;
/** The catalog's `CountryEntry`, as the main entry exports it by name. */
export type CountryEntry<C extends CountryCode> = source.CountryEntry<C>;
/** The catalog's `CurrencyOf`, as the main entry exports it by name. */
export type CurrencyOf<C extends CountryCode> = source.CurrencyOf<C>;
/** The catalog's `PayInMethod`, as the main entry exports it by name. */
export type PayInMethod<C extends CountryCode = CountryCode> = source.PayInMethod<C>;
/** The catalog's `PayOutMethod`, as the main entry exports it by name. */
export type PayOutMethod<C extends CountryCode = CountryCode> = source.PayOutMethod<C>;
/** The catalog's `PayInDocumentType`, as the main entry exports it by name. */
export type PayInDocumentType<C extends CountryCode = CountryCode> = source.PayInDocumentType<C>;
/** The catalog's `PayOutDocumentType`, as the main entry exports it by name. */
export type PayOutDocumentType<C extends CountryCode = CountryCode> = source.PayOutDocumentType<C>;
/** The catalog's `AccountType`, as the main entry exports it by name. */
export type AccountType<C extends CountryCode = CountryCode> = source.AccountType<C>;
/** The catalog's `PersonType`, as the main entry exports it by name. */
export type PersonType = source.PersonType;
/** The catalog's `KnownTransactionStatus`, as the main entry exports it by name. */
export type KnownTransactionStatus = source.KnownTransactionStatus;
/** The catalog's `FinalStatus`, as the main entry exports it by name. */
export type FinalStatus = source.FinalStatus;
/** The catalog's `ApiErrorCode`, as the main entry exports it by name. */
export type ApiErrorCode = source.ApiErrorCode;
/** The catalog's `SandboxConfirmStatus`, as the main entry exports it by name. */
export type SandboxConfirmStatus = source.SandboxConfirmStatus;
