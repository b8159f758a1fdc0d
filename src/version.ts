/** The package version, sent in User-Agent. test/version.test.ts keeps it equal to package.json. */
export const VERSION = '0.4.0';
