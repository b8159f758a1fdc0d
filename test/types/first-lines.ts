// biome-ignore-all format: each "first line:" comment must stay right above the line it names.
/**
 * Mistakes in params built apart from the call, with the documented helpers (getting-started.md,
 * "Your first PayIn"): the FIRST line of each error names the field's own values, on the line of
 * the field, for the country written in the helper — not a country never used. Then the same
 * mistakes as a merchant first writes them, without the helpers (issue 27 item 4): params built in
 * a variable (`country` widened to string) and a customer declared apart (its document or account
 * type widened to string), whose first line says so, names the field and the country written,
 * and what to declare instead. Each `// first line: TEXT` is what the error on the next line
 * starts with, each `// first line ends: TEXT` what it ends with (its start is the compiler's
 * "Argument of type '{ …the argument's whole type… }'"); scripts/check-types.mjs compiles this
 * file against the packed package under TS 5.9 and TS 7 and compares. Nothing here runs.
 */
import {
  type PayInCreateParamsFor,
  type PayInCustomerData,
  PaymentClient,
  type PayOutCreateParamsFor,
  type PayOutCustomerData,
} from 'payinout';

export const customer: PayInCustomerData<'CO'> = {
  legal_doc: '1020304050',
  // first line: Type '"DNI"' is not assignable to type '"CC" | "CE" | "PPN"'.
  legal_doc_type: 'DNI',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Gómez',
};

export const params: PayInCreateParamsFor<'CO'> = {
  reference: 'order-1002',
  amount: 150_000,
  // first line: Type '"PEN"' is not assignable to type '"COP"'.
  currency: 'PEN',
  country: 'CO',
  payment_method: 'EFECTY',
  description: 'Order 1002',
  customer_data: { ...customer, legal_doc_type: 'CC' },
};

export const payee: PayOutCustomerData<'MX'> = {
  legal_doc: 'GODE561231GR8',
  legal_doc_type: 'RFC',
  phone_code: '52',
  phone_number: '5512345678',
  email: 'pagos@example.mx',
  full_name: 'Proveedora SA',
  bank: 'STP',
  account_number: '646180157000000004',
  // first line: Type '"AHORRO"' is not assignable to type '"CLABE"'.
  account_type: 'AHORRO',
  clabe_number: '646180157000000004',
};

export const payout: PayOutCreateParamsFor<'MX'> = {
  reference: 'payout-1',
  amount: 1_000,
  currency: 'MXN',
  country: 'MX',
  // first line: Type '"BANK_TRANSFER"' is not assignable to type '"SPEI"'.
  payment_method: 'BANK_TRANSFER',
  ipn_url: 'https://shop.example/webhooks/payinout',
  customer_data: { ...payee, account_type: 'CLABE' },
};

const client = new PaymentClient({ username: 'u', password: 'p', token: 't', baseUrl: 'https://x.example' });

export async function withoutHelpers() {
  // PayIn params built in a variable first, a wrong document type inside: `country` is widened to string.
  const payInParams = {
    reference: 'o-1',
    amount: 150000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    description: 'x',
    customer_data: { legal_doc: '1', legal_doc_type: 'DNI', phone_code: '57', phone_number: '300', email: 'a@b.co', full_name: 'A' },
  };
  // first line ends: is not assignable to parameter of type '"`country` is typed string, so no one country's rules can be checked: give the params their country's type, e.g. `const params: PayInCreateParamsFor<'CO'> = {…}` or `{…} satisfies PayInCreateParamsFor<'CO'>`, or write `country: 'CO' as const`"'.
  await client.payin.create(payInParams);

  // A customer declared apart with a wrong document type, then passed inside the params literal.
  const payer = { legal_doc: '1', legal_doc_type: 'DNI', phone_code: '57', phone_number: '300', email: 'a@b.co', full_name: 'A' };
  // first line ends: is not assignable to parameter of type '"customer_data.legal_doc_type is typed string where CO takes listed values only: declare the customer as PayInCustomerData<'CO'>, which lists them, or write the value with `as const`"'.
  await client.payin.create({ reference: 'o-2', amount: 150000, currency: 'COP', country: 'CO', payment_method: 'BREB', description: 'x', customer_data: payer });

  // PayOut params built in a variable first, a wrong account type inside.
  const payOutParams = {
    reference: 'p-1',
    amount: 1000,
    currency: 'MXN',
    country: 'MX',
    payment_method: 'SPEI',
    ipn_url: 'https://shop.example/webhooks/payinout',
    customer_data: { ...payee, account_type: 'AHORRO' },
  };
  // first line ends: is not assignable to parameter of type '"`country` is typed string, so no one country's rules can be checked: give the params their country's type, e.g. `const params: PayOutCreateParamsFor<'CO'> = {…}` or `{…} satisfies PayOutCreateParamsFor<'CO'>`, or write `country: 'CO' as const`"'.
  await client.payout.create(payOutParams);

  // A payee declared apart with a wrong account type, then passed inside the params literal.
  const supplier = { legal_doc: 'GODE561231GR8', legal_doc_type: 'RFC', phone_code: '52', phone_number: '5512345678', email: 'pagos@example.mx', full_name: 'Proveedora SA', bank: 'STP', account_number: '646180157000000004', account_type: 'AHORRO', clabe_number: '646180157000000004' };
  // first line ends: is not assignable to parameter of type '"customer_data.account_type is typed string where MX takes listed values only: declare the customer as PayOutCustomerData<'MX'>, which lists them, or write the value with `as const`"'.
  await client.payout.create({ reference: 'p-2', amount: 1000, currency: 'MXN', country: 'MX', payment_method: 'SPEI', ipn_url: 'https://shop.example/webhooks/payinout', customer_data: supplier });

  // Only `country` written `as const`: the other strings are still widened.
  const halfTyped = { ...payInParams, country: 'CO' as const, customer_data: customer };
  // first line ends: is not assignable to parameter of type '"several fields are typed string where CO takes listed values only: declare the params as PayInCreateParamsFor<'CO'> (a customer declared apart as PayInCustomerData<'CO'>), which lists them, or write the values with `as const`"'.
  await client.payin.create(halfTyped);

  // A literal country with a wrong method keeps the compiler's own error, on the field (never "country is typed string").
  // first line: Type '"SPEI"' is not assignable to type '"
  await client.payin.create({ ...params, customer_data: customer, payment_method: 'SPEI' });

  // An unknown key of a params literal keeps the excess-property error naming it.
  // first line: Object literal may only specify known properties, but 'ipnUrl' does not exist in type
  await client.payin.create({ ...params, currency: 'COP', customer_data: customer, ipnUrl: 'https://shop.example/ipn' });
}
