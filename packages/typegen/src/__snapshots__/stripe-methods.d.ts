// stripe.GetBalance
/** This is an object representing your Stripe balance. */
type Balance = {
 /** Funds that are available to be transferred or paid out, whether automatically by Stripe or explicitly via the Transfers API or Payouts API. */
 available: BalanceAmount[];
 /** Funds held due to negative balances on connected Custom accounts. */
 connect_reserved?: BalanceAmount[];
 /** Funds that can be paid out using Instant Payouts. */
 instant_available?: BalanceAmount[];
 issuing?: BalanceDetail;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** String representing the object's type. */
 object: "balance";
 /** Funds that are not yet available in the balance, due to the 7-day rolling pay cycle. */
 pending: BalanceAmount[];
};

type BalanceAmount = {
 /** Balance amount. */
 amount: number;
 /** Three-letter ISO currency code, in lowercase. */
 currency: string;
 source_types?: BalanceAmountBySourceType;
};

type BalanceDetail = {
 /** Funds that are available for use. */
 available: BalanceAmount[];
};

type BalanceAmountBySourceType = {
 /** Amount for bank account. */
 bank_account?: number;
 /** Amount for card. */
 card?: number;
 /** Amount for FPX. */
 fpx?: number;
};

type GetBalanceInput = {
 /** Specifies which fields in the response should be expanded. */
 expand?: string[];
 body?: {};
};
type GetBalanceOutput = Balance;

declare const stripe: {
 /** Retrieves the current account balance, based on the authentication that was used to make the request. */
 GetBalance(input?: GetBalanceInput): Promise<GetBalanceOutput>;
};

// stripe.GetTaxRates
/** range_query_specs */
type RangeQuerySpecs = { gt?: number; gte?: number; lt?: number; lte?: number };

/** Tax rates can be applied to invoices, subscriptions and Checkout Sessions to collect tax. */
type TaxRate = {
 /** Defaults to `true`. When set to `false`, this tax rate cannot be used with new applications or Checkout Sessions, but will still work for subscriptions and invoices that already have it set. */
 active: boolean;
 /** Two-letter country code (ISO 3166-1 alpha-2). */
 country?: string | null;
 /** Time at which the object was created. @format unix-time */
 created: number;
 /** An arbitrary string attached to the tax rate for your internal use only. */
 description?: string | null;
 /** The display name of the tax rates as it will appear to your customer on their receipt email, PDF, and the hosted invoice page. */
 display_name: string;
 /** Unique identifier for the object. */
 id: string;
 /** This specifies if the tax rate is inclusive or exclusive. */
 inclusive: boolean;
 /** The jurisdiction for the tax rate. */
 jurisdiction?: string | null;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** Set of key-value pairs that you can attach to an object. */
 metadata?: Record<string, string> | null;
 /** String representing the object's type. */
 object: "tax_rate";
 /** This represents the tax rate percent out of 100. */
 percentage: number;
 /** ISO 3166-2 subdivision code, without country prefix. */
 state?: string | null;
 /** The high-level tax type, such as `vat` or `sales_tax`. */
 tax_type?: TaxType2;
};

/** The high-level tax type, such as `vat` or `sales_tax`. */
type TaxType2 = "gst" | "hst" | "igst" | "jct" | "lease_tax" | "pst" | "qst" | "rst" | "sales_tax" | "vat" | null;

type GetTaxRatesInput = {
 /** Optional flag to filter by tax rates that are either active or inactive (archived). */
 active?: boolean;
 /** Optional range for filtering created date. */
 created?: RangeQuerySpecs | number;
 /**
  * A cursor for use in pagination. `ending_before` is an object ID that defines your place in the list. For instance, if you make a list request and receive 100 objects, starting with `obj_bar`, your subsequent call can include `ending_before=obj_bar` in order to fetch the previous page of the list.
  * @maxLength 5000
  */
 ending_before?: string;
 /** Specifies which fields in the response should be expanded. */
 expand?: string[];
 /** Optional flag to filter by tax rates that are inclusive (or those that are not inclusive). */
 inclusive?: boolean;
 /** A limit on the number of objects to be returned. Limit can range between 1 and 100, and the default is 10. */
 limit?: number;
 /**
  * A cursor for use in pagination. `starting_after` is an object ID that defines your place in the list. For instance, if you make a list request and receive 100 objects, ending with `obj_foo`, your subsequent call can include `starting_after=obj_foo` in order to fetch the next page of the list.
  * @maxLength 5000
  */
 starting_after?: string;
 body?: {};
};
type GetTaxRatesOutput = {
 data: TaxRate[];
 /** True if this list has another page of items after this one that can be fetched. */
 has_more: boolean;
 /** String representing the object's type. */
 object: "list";
 /** The URL where this list can be accessed. */
 url: string;
};

declare const stripe: {
 /** Returns a list of your tax rates. */
 GetTaxRates(input?: GetTaxRatesInput): Promise<GetTaxRatesOutput>;
};

// stripe.GetCoupons
/** range_query_specs */
type RangeQuerySpecs = { gt?: number; gte?: number; lt?: number; lte?: number };

/** A coupon contains information about a percent-off or amount-off discount you might want to apply to a customer. */
type Coupon = {
 /** Amount (in the `currency` specified) that will be taken off the subtotal of any invoices for this customer. */
 amount_off?: number | null;
 applies_to?: CouponAppliesTo;
 /** Time at which the object was created. @format unix-time */
 created: number;
 /** If `amount_off` has been set, the three-letter ISO code for the currency of the amount to take off. */
 currency?: string | null;
 /** Coupons defined in each available currency option. */
 currency_options?: Record<string, CouponCurrencyOption>;
 /** One of `forever`, `once`, and `repeating`. */
 duration: "forever" | "once" | "repeating";
 /** If `duration` is `repeating`, the number of months the coupon applies. */
 duration_in_months?: number | null;
 /** Unique identifier for the object. */
 id: string;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** Maximum number of times this coupon can be redeemed, in total, across all customers, before it is no longer valid. */
 max_redemptions?: number | null;
 /** Set of key-value pairs that you can attach to an object. */
 metadata?: Record<string, string> | null;
 /** Name of the coupon displayed to customers on for instance invoices or receipts. */
 name?: string | null;
 /** String representing the object's type. */
 object: "coupon";
 /** Percent that will be taken off the subtotal of any invoices for this customer for the duration of the coupon. */
 percent_off?: number | null;
 /** Date after which the coupon can no longer be redeemed. @format unix-time */
 redeem_by?: number | null;
 /** Number of times this coupon has been applied to a customer. */
 times_redeemed: number;
 /** Taking account of the above properties, whether this coupon can still be applied to a customer. */
 valid: boolean;
};

type CouponAppliesTo = {
 /** A list of product IDs this coupon applies to */
 products: string[];
};

type CouponCurrencyOption = {
 /** Amount (in the `currency` specified) that will be taken off the subtotal of any invoices for this customer. */
 amount_off: number;
};

type GetCouponsInput = {
 /** A filter on the list, based on the object `created` field. The value can be a string with an integer Unix timestamp, or it can be a dictionary with a number of different query options. */
 created?: RangeQuerySpecs | number;
 /**
  * A cursor for use in pagination. `ending_before` is an object ID that defines your place in the list. For instance, if you make a list request and receive 100 objects, starting with `obj_bar`, your subsequent call can include `ending_before=obj_bar` in order to fetch the previous page of the list.
  * @maxLength 5000
  */
 ending_before?: string;
 /** Specifies which fields in the response should be expanded. */
 expand?: string[];
 /** A limit on the number of objects to be returned. Limit can range between 1 and 100, and the default is 10. */
 limit?: number;
 /**
  * A cursor for use in pagination. `starting_after` is an object ID that defines your place in the list. For instance, if you make a list request and receive 100 objects, ending with `obj_foo`, your subsequent call can include `starting_after=obj_foo` in order to fetch the next page of the list.
  * @maxLength 5000
  */
 starting_after?: string;
 body?: {};
};
type GetCouponsOutput = {
 data: Coupon[];
 /** True if this list has another page of items after this one that can be fetched. */
 has_more: boolean;
 /** String representing the object's type. */
 object: "list";
 /** The URL where this list can be accessed. */
 url: string;
};

declare const stripe: {
 /** Returns a list of your coupons. */
 GetCoupons(input?: GetCouponsInput): Promise<GetCouponsOutput>;
};

// stripe.GetCountrySpecsCountry
/** Stripe needs to collect certain pieces of information about each account created. */
type CountrySpec = {
 /** The default currency for this country. */
 default_currency: string;
 /** Unique identifier for the object. */
 id: string;
 /** String representing the object's type. */
 object: "country_spec";
 /** Currencies that can be accepted in the specific country (for transfers). */
 supported_bank_account_currencies: Record<string, string[]>;
 /** Currencies that can be accepted in the specified country (for payments). */
 supported_payment_currencies: string[];
 /** Payment methods available in the specified country. */
 supported_payment_methods: string[];
 /** Countries that can accept transfers from the specified country. */
 supported_transfer_countries: string[];
 verification_fields: CountrySpecVerificationFields;
};

type CountrySpecVerificationFields = {
 company: CountrySpecVerificationFieldDetails;
 individual: CountrySpecVerificationFieldDetails;
};

type CountrySpecVerificationFieldDetails = {
 /** Additional fields which are only required for some users. */
 additional: string[];
 /** Fields which every account must eventually provide. */
 minimum: string[];
};

type GetCountrySpecsCountryInput = {
 /** @maxLength 5000 */
 country: string;
 /** Specifies which fields in the response should be expanded. */
 expand?: string[];
 body?: {};
};
type GetCountrySpecsCountryOutput = CountrySpec;

declare const stripe: {
 /** Returns a Country Spec for a given Country code. */
 GetCountrySpecsCountry(input: GetCountrySpecsCountryInput): Promise<GetCountrySpecsCountryOutput>;
};

// stripe.GetEventsId
/** Events are our way of letting you know when something interesting happens in your account. */
type StripeEvent = {
 /** The connected account that originated the event. */
 account?: string;
 /** The Stripe API version used to render `data`. *Note: This property is populated only for events on or after October 31, 2014*. */
 api_version?: string | null;
 /** Time at which the object was created. @format unix-time */
 created: number;
 data: NotificationEventData;
 /** Unique identifier for the object. */
 id: string;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** String representing the object's type. */
 object: "event";
 /** Number of webhooks that have yet to be successfully delivered (i.e., to return a 20x response) to the URLs you've specified. */
 pending_webhooks: number;
 /** Information on the API request that instigated the event. */
 request?: NotificationEventRequest | null;
 /** Description of the event (e.g., `invoice.created` or `charge.refunded`). */
 type: string;
};

type NotificationEventData = {
 /** Object containing the API resource relevant to the event. */
 object: Record<string, unknown>;
 /** Object containing the names of the attributes that have changed, and their previous values (sent along only with *.updated events). */
 previous_attributes?: Record<string, unknown>;
};

type NotificationEventRequest = {
 /** ID of the API request that caused the event. */
 id?: string | null;
 /** The idempotency key transmitted during the request, if any. *Note: This property is populated only for events on or after May 23, 2017*. */
 idempotency_key?: string | null;
};

type GetEventsIdInput = {
 /** Specifies which fields in the response should be expanded. */
 expand?: string[];
 /** @maxLength 5000 */
 id: string;
 body?: {};
};
type GetEventsIdOutput = StripeEvent;

declare const stripe: {
 /** Retrieves the details of an event. */
 GetEventsId(input: GetEventsIdInput): Promise<GetEventsIdOutput>;
};

// stripe.PostCoupons
/** A coupon contains information about a percent-off or amount-off discount you might want to apply to a customer. */
type Coupon = {
 /** Amount (in the `currency` specified) that will be taken off the subtotal of any invoices for this customer. */
 amount_off?: number | null;
 applies_to?: CouponAppliesTo;
 /** Time at which the object was created. @format unix-time */
 created: number;
 /** If `amount_off` has been set, the three-letter ISO code for the currency of the amount to take off. */
 currency?: string | null;
 /** Coupons defined in each available currency option. */
 currency_options?: Record<string, CouponCurrencyOption>;
 /** One of `forever`, `once`, and `repeating`. */
 duration: "forever" | "once" | "repeating";
 /** If `duration` is `repeating`, the number of months the coupon applies. */
 duration_in_months?: number | null;
 /** Unique identifier for the object. */
 id: string;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** Maximum number of times this coupon can be redeemed, in total, across all customers, before it is no longer valid. */
 max_redemptions?: number | null;
 /** Set of key-value pairs that you can attach to an object. */
 metadata?: Record<string, string> | null;
 /** Name of the coupon displayed to customers on for instance invoices or receipts. */
 name?: string | null;
 /** String representing the object's type. */
 object: "coupon";
 /** Percent that will be taken off the subtotal of any invoices for this customer for the duration of the coupon. */
 percent_off?: number | null;
 /** Date after which the coupon can no longer be redeemed. @format unix-time */
 redeem_by?: number | null;
 /** Number of times this coupon has been applied to a customer. */
 times_redeemed: number;
 /** Taking account of the above properties, whether this coupon can still be applied to a customer. */
 valid: boolean;
};

type CouponAppliesTo = {
 /** A list of product IDs this coupon applies to */
 products: string[];
};

type CouponCurrencyOption = {
 /** Amount (in the `currency` specified) that will be taken off the subtotal of any invoices for this customer. */
 amount_off: number;
};

type PostCouponsInput = {
 body?: {
  /** A positive integer representing the amount to subtract from an invoice total (required if `percent_off` is not passed). */
  amount_off?: number;
  /** A hash containing directions for what this Coupon will apply discounts to. */
  applies_to?: { products?: string[] };
  /** Three-letter ISO code for the currency of the `amount_off` parameter (required if `amount_off` is passed). */
  currency?: string;
  /** Coupons defined in each available currency option (only supported if `amount_off` is passed). Each key must be a three-letter ISO currency code and a supported currency. */
  currency_options?: Record<string, { amount_off: number }>;
  /** Specifies how long the discount will be in effect if used on a subscription. Defaults to `once`. */
  duration?: "forever" | "once" | "repeating";
  /** Required only if `duration` is `repeating`, in which case it must be a positive integer that specifies the number of months the discount will be in effect. */
  duration_in_months?: number;
  /** Specifies which fields in the response should be expanded. */
  expand?: string[];
  /**
   * Unique string of your choice that will be used to identify this coupon when applying it to a customer. If you don't want to specify a particular code, you can leave the ID blank and we'll generate a random code for you.
   * @maxLength 5000
   */
  id?: string;
  /** A positive integer specifying the number of times the coupon can be redeemed before it's no longer valid. For example, you might have a 50% off coupon that the first 20 readers of your blog can use. */
  max_redemptions?: number;
  /** Set of key-value pairs that you can attach to an object. This can be useful for storing additional information about the object in a structured format. Individual keys can be unset by posting an empty value to them. All keys can be unset by posting an empty value to `metadata`. */
  metadata?: Record<string, string> | "";
  /**
   * Name of the coupon displayed to customers on, for instance invoices, or receipts. By default the `id` is shown if `name` is not set.
   * @maxLength 40
   */
  name?: string;
  /** A positive float larger than 0, and smaller or equal to 100, that represents the discount the coupon will apply (required if `amount_off` is not passed). */
  percent_off?: number;
  /**
   * Unix timestamp specifying the last time at which the coupon can be redeemed. After the redeem_by date, the coupon can no longer be applied to new customers.
   * @format unix-time
   */
  redeem_by?: number;
 };
};
type PostCouponsOutput = Coupon;

declare const stripe: {
 /**
  * You can create coupons easily via the coupon management page of the Stripe dashboard.
  * @approval the run pauses at the call until a person approves it
  */
 PostCoupons(input?: PostCouponsInput): Promise<PostCouponsOutput>;
};

// stripe.PostCouponsCoupon
/** A coupon contains information about a percent-off or amount-off discount you might want to apply to a customer. */
type Coupon = {
 /** Amount (in the `currency` specified) that will be taken off the subtotal of any invoices for this customer. */
 amount_off?: number | null;
 applies_to?: CouponAppliesTo;
 /** Time at which the object was created. @format unix-time */
 created: number;
 /** If `amount_off` has been set, the three-letter ISO code for the currency of the amount to take off. */
 currency?: string | null;
 /** Coupons defined in each available currency option. */
 currency_options?: Record<string, CouponCurrencyOption>;
 /** One of `forever`, `once`, and `repeating`. */
 duration: "forever" | "once" | "repeating";
 /** If `duration` is `repeating`, the number of months the coupon applies. */
 duration_in_months?: number | null;
 /** Unique identifier for the object. */
 id: string;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** Maximum number of times this coupon can be redeemed, in total, across all customers, before it is no longer valid. */
 max_redemptions?: number | null;
 /** Set of key-value pairs that you can attach to an object. */
 metadata?: Record<string, string> | null;
 /** Name of the coupon displayed to customers on for instance invoices or receipts. */
 name?: string | null;
 /** String representing the object's type. */
 object: "coupon";
 /** Percent that will be taken off the subtotal of any invoices for this customer for the duration of the coupon. */
 percent_off?: number | null;
 /** Date after which the coupon can no longer be redeemed. @format unix-time */
 redeem_by?: number | null;
 /** Number of times this coupon has been applied to a customer. */
 times_redeemed: number;
 /** Taking account of the above properties, whether this coupon can still be applied to a customer. */
 valid: boolean;
};

type CouponAppliesTo = {
 /** A list of product IDs this coupon applies to */
 products: string[];
};

type CouponCurrencyOption = {
 /** Amount (in the `currency` specified) that will be taken off the subtotal of any invoices for this customer. */
 amount_off: number;
};

type PostCouponsCouponInput = {
 /** @maxLength 5000 */
 coupon: string;
 body?: {
  /** Coupons defined in each available currency option (only supported if the coupon is amount-based). Each key must be a three-letter ISO currency code and a supported currency. */
  currency_options?: Record<string, { amount_off: number }>;
  /** Specifies which fields in the response should be expanded. */
  expand?: string[];
  /** Set of key-value pairs that you can attach to an object. This can be useful for storing additional information about the object in a structured format. Individual keys can be unset by posting an empty value to them. All keys can be unset by posting an empty value to `metadata`. */
  metadata?: Record<string, string> | "";
  /**
   * Name of the coupon displayed to customers on, for instance invoices, or receipts. By default the `id` is shown if `name` is not set.
   * @maxLength 40
   */
  name?: string;
 };
};
type PostCouponsCouponOutput = Coupon;

declare const stripe: {
 /**
  * Updates the metadata of a coupon.
  * @approval the run pauses at the call until a person approves it
  */
 PostCouponsCoupon(input: PostCouponsCouponInput): Promise<PostCouponsCouponOutput>;
};

// stripe.PostWebhookEndpoints
type EnabledEvent = "*" | "account.application.authorized" | "account.application.deauthorized" | "account.external_account.created" | "account.external_account.deleted" | "account.external_account.updated" | "account.updated" | "application_fee.created" | "application_fee.refund.updated" | "application_fee.refunded" | "balance.available" | "billing_portal.configuration.created" | "billing_portal.configuration.updated" | "billing_portal.session.created" | "capability.updated" | "cash_balance.funds_available" | "charge.captured" | "charge.dispute.closed" | "charge.dispute.created" | "charge.dispute.funds_reinstated" | "charge.dispute.funds_withdrawn" | "charge.dispute.updated" | "charge.expired" | "charge.failed" | "charge.pending" | "charge.refund.updated" | "charge.refunded" | "charge.succeeded" | "charge.updated" | "checkout.session.async_payment_failed" | "checkout.session.async_payment_succeeded" | "checkout.session.completed" | "checkout.session.expired" | "coupon.created" | "coupon.deleted" | "coupon.updated" | "credit_note.created" | "credit_note.updated" | "credit_note.voided" | "customer.created" | "customer.deleted" | "customer.discount.created" | "customer.discount.deleted" | "customer.discount.updated" | "customer.source.created" | "customer.source.deleted" | "customer.source.expiring" | "customer.source.updated" | "customer.subscription.created" | "customer.subscription.deleted" | "customer.subscription.paused" | "customer.subscription.pending_update_applied" | "customer.subscription.pending_update_expired" | "customer.subscription.resumed" | "customer.subscription.trial_will_end" | "customer.subscription.updated" | "customer.tax_id.created" | "customer.tax_id.deleted" | "customer.tax_id.updated" | "customer.updated" | "customer_cash_balance_transaction.created" | "file.created" | "financial_connections.account.created" | "financial_connections.account.deactivated" | "financial_connections.account.disconnected" | "financial_connections.account.reactivated" | "financial_connections.account.refreshed_balance" | "identity.verification_session.canceled" | "identity.verification_session.created" | "identity.verification_session.processing" | "identity.verification_session.redacted" | "identity.verification_session.requires_input" | "identity.verification_session.verified" | "invoice.created" | "invoice.deleted" | "invoice.finalization_failed" | "invoice.finalized" | "invoice.marked_uncollectible" | "invoice.paid" | "invoice.payment_action_required" | "invoice.payment_failed" | "invoice.payment_succeeded" | "invoice.sent" | "invoice.upcoming" | "invoice.updated" | "invoice.voided" | "invoiceitem.created" | "invoiceitem.deleted" | "invoiceitem.updated" | "issuing_authorization.created" | "issuing_authorization.request" | "issuing_authorization.updated" | "issuing_card.created" | "issuing_card.updated" | "issuing_cardholder.created" | "issuing_cardholder.updated" | "issuing_dispute.closed" | "issuing_dispute.created" | "issuing_dispute.funds_reinstated" | "issuing_dispute.submitted" | "issuing_dispute.updated" | "issuing_transaction.created" | "issuing_transaction.updated" | "mandate.updated" | "order.created" | "payment_intent.amount_capturable_updated" | "payment_intent.canceled" | "payment_intent.created" | "payment_intent.partially_funded" | "payment_intent.payment_failed" | "payment_intent.processing" | "payment_intent.requires_action" | "payment_intent.succeeded" | "payment_link.created" | "payment_link.updated" | "payment_method.attached" | "payment_method.automatically_updated" | "payment_method.detached" | "payment_method.updated" | "payout.canceled" | "payout.created" | "payout.failed" | "payout.paid" | "payout.reconciliation_completed" | "payout.updated" | "person.created" | "person.deleted" | "person.updated" | "plan.created" | "plan.deleted" | "plan.updated" | "price.created" | "price.deleted" | "price.updated" | "product.created" | "product.deleted" | "product.updated" | "promotion_code.created" | "promotion_code.updated" | "quote.accepted" | "quote.canceled" | "quote.created" | "quote.finalized" | "radar.early_fraud_warning.created" | "radar.early_fraud_warning.updated" | "recipient.created" | "recipient.deleted" | "recipient.updated" | "refund.created" | "refund.updated" | "reporting.report_run.failed" | "reporting.report_run.succeeded" | "reporting.report_type.updated" | "review.closed" | "review.opened" | "setup_intent.canceled" | "setup_intent.created" | "setup_intent.requires_action" | "setup_intent.setup_failed" | "setup_intent.succeeded" | "sigma.scheduled_query_run.created" | "sku.created" | "sku.deleted" | "sku.updated" | "source.canceled" | "source.chargeable" | "source.failed" | "source.mandate_notification" | "source.refund_attributes_required" | "source.transaction.created" | "source.transaction.updated" | "subscription_schedule.aborted" | "subscription_schedule.canceled" | "subscription_schedule.completed" | "subscription_schedule.created" | "subscription_schedule.expiring" | "subscription_schedule.released" | "subscription_schedule.updated" | "tax_rate.created" | "tax_rate.updated" | "terminal.reader.action_failed" | "terminal.reader.action_succeeded" | "test_helpers.test_clock.advancing" | "test_helpers.test_clock.created" | "test_helpers.test_clock.deleted" | "test_helpers.test_clock.internal_failure" | "test_helpers.test_clock.ready" | "topup.canceled" | "topup.created" | "topup.failed" | "topup.reversed" | "topup.succeeded" | "transfer.created" | "transfer.reversed" | "transfer.updated" | "treasury.credit_reversal.created" | "treasury.credit_reversal.posted" | "treasury.debit_reversal.completed" | "treasury.debit_reversal.created" | "treasury.debit_reversal.initial_credit_granted" | "treasury.financial_account.closed" | "treasury.financial_account.created" | "treasury.financial_account.features_status_updated" | "treasury.inbound_transfer.canceled" | "treasury.inbound_transfer.created" | "treasury.inbound_transfer.failed" | "treasury.inbound_transfer.succeeded" | "treasury.outbound_payment.canceled" | "treasury.outbound_payment.created" | "treasury.outbound_payment.expected_arrival_date_updated" | "treasury.outbound_payment.failed" | "treasury.outbound_payment.posted" | "treasury.outbound_payment.returned" | "treasury.outbound_transfer.canceled" | "treasury.outbound_transfer.created" | "treasury.outbound_transfer.expected_arrival_date_updated" | "treasury.outbound_transfer.failed" | "treasury.outbound_transfer.posted" | "treasury.outbound_transfer.returned" | "treasury.received_credit.created" | "treasury.received_credit.failed" | "treasury.received_credit.succeeded" | "treasury.received_debit.created";

/** You can configure webhook endpoints via the API to be notified about events that happen in your Stripe account or connected accounts. */
type WebhookEndpoint = {
 /** The API version events are rendered as for this webhook endpoint. */
 api_version?: string | null;
 /** The ID of the associated Connect application. */
 application?: string | null;
 /** Time at which the object was created. @format unix-time */
 created: number;
 /** An optional description of what the webhook is used for. */
 description?: string | null;
 /** The list of events to enable for this endpoint. */
 enabled_events: string[];
 /** Unique identifier for the object. */
 id: string;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** Set of key-value pairs that you can attach to an object. */
 metadata: Record<string, string>;
 /** String representing the object's type. */
 object: "webhook_endpoint";
 /** The endpoint's secret, used to generate webhook signatures. */
 secret?: string;
 /** The status of the webhook. */
 status: string;
 /** The URL of the webhook endpoint. */
 url: string;
};

type PostWebhookEndpointsInput = {
 body: {
  /**
   * Events sent to this endpoint will be generated with this Stripe Version instead of your account's default Stripe Version.
   * @maxLength 5000
   */
  api_version?: "2025-10-15T13:53:19.618Z";
  /** Whether this endpoint should receive events from connected accounts (`true`), or from your account (`false`). Defaults to `false`. */
  connect?: boolean;
  /**
   * An optional description of what the webhook is used for.
   * @maxLength 5000
   */
  description?: string;
  /** The list of events to enable for this endpoint. You may specify `['*']` to enable all events, except those that require explicit selection. */
  enabled_events: EnabledEvent[];
  /** Specifies which fields in the response should be expanded. */
  expand?: string[];
  /** Set of key-value pairs that you can attach to an object. This can be useful for storing additional information about the object in a structured format. Individual keys can be unset by posting an empty value to them. All keys can be unset by posting an empty value to `metadata`. */
  metadata?: Record<string, string> | "";
  /** The URL of the webhook endpoint. */
  url: string;
 };
};
type PostWebhookEndpointsOutput = WebhookEndpoint;

declare const stripe: {
 /**
  * A webhook endpoint must have a url and a list of enabled_events.
  * @approval the run pauses at the call until a person approves it
  */
 PostWebhookEndpoints(input: PostWebhookEndpointsInput): Promise<PostWebhookEndpointsOutput>;
};

// stripe.PostTerminalConfigurations
/** tipping */
type Tipping = {
 /** currency_specific_config */
 aud?: CurrencySpecificConfig;
 /** currency_specific_config */
 cad?: CurrencySpecificConfig;
 /** currency_specific_config */
 chf?: CurrencySpecificConfig;
 /** currency_specific_config */
 czk?: CurrencySpecificConfig;
 /** currency_specific_config */
 dkk?: CurrencySpecificConfig;
 /** currency_specific_config */
 eur?: CurrencySpecificConfig;
 /** currency_specific_config */
 gbp?: CurrencySpecificConfig;
 /** currency_specific_config */
 hkd?: CurrencySpecificConfig;
 /** currency_specific_config */
 myr?: CurrencySpecificConfig;
 /** currency_specific_config */
 nok?: CurrencySpecificConfig;
 /** currency_specific_config */
 nzd?: CurrencySpecificConfig;
 /** currency_specific_config */
 sek?: CurrencySpecificConfig;
 /** currency_specific_config */
 sgd?: CurrencySpecificConfig;
 /** currency_specific_config */
 usd?: CurrencySpecificConfig;
};

/** currency_specific_config */
type CurrencySpecificConfig = {
 fixed_amounts?: number[];
 percentages?: number[];
 smart_tip_threshold?: number;
};

/** A Configurations object represents how features should be configured for terminal readers. */
type TerminalConfiguration = {
 bbpos_wisepos_e?: TerminalConfigurationConfigurationResourceDeviceTypeSpecificConfig;
 /** Unique identifier for the object. */
 id: string;
 /** Whether this Configuration is the default for your account */
 is_account_default?: boolean | null;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** String representing the object's type. */
 object: "terminal.configuration";
 tipping?: TerminalConfigurationConfigurationResourceTipping;
 verifone_p400?: TerminalConfigurationConfigurationResourceDeviceTypeSpecificConfig;
};

type TerminalConfigurationConfigurationResourceDeviceTypeSpecificConfig = {
 /** A File ID representing an image you would like displayed on the reader. */
 splashscreen?: string | StripeFile;
};

type TerminalConfigurationConfigurationResourceTipping = {
 aud?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 cad?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 chf?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 czk?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 dkk?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 eur?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 gbp?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 hkd?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 myr?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 nok?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 nzd?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 sek?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 sgd?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
 usd?: TerminalConfigurationConfigurationResourceCurrencySpecificConfig;
};

/** This is an object representing a file hosted on Stripe's servers. */
type StripeFile = {
 /** Time at which the object was created. @format unix-time */
 created: number;
 /** The time at which the file expires and is no longer available in epoch seconds. @format unix-time */
 expires_at?: number | null;
 /** A filename for the file, suitable for saving to a filesystem. */
 filename?: string | null;
 /** Unique identifier for the object. */
 id: string;
 /** A list of file links that point at this file. */
 links?: {
  /** Details about each object. */
  data: FileLink[];
  /** True if this list has another page of items after this one that can be fetched. */
  has_more: boolean;
  /** String representing the object's type. */
  object: "list";
  /** The URL where this list can be accessed. */
  url: string;
 } | null;
 /** String representing the object's type. */
 object: "file";
 /** The purpose of the uploaded file. */
 purpose: Purpose;
 /** The size in bytes of the file object. */
 size: number;
 /** A user friendly title for the document. */
 title?: string | null;
 /** The type of the file returned (e.g., `csv`, `pdf`, `jpg`, or `png`). */
 type?: string | null;
 /** The URL from which the file can be downloaded using your live secret API key. */
 url?: string | null;
};

type TerminalConfigurationConfigurationResourceCurrencySpecificConfig = {
 /** Fixed amounts displayed when collecting a tip */
 fixed_amounts?: number[] | null;
 /** Percentages displayed when collecting a tip */
 percentages?: number[] | null;
 /** Below this amount, fixed amounts will be displayed; above it, percentages will be displayed */
 smart_tip_threshold?: number;
};

/** To share the contents of a `File` object with non-Stripe users, you can create a `FileLink`. */
type FileLink = {
 /** Time at which the object was created. @format unix-time */
 created: number;
 /** Whether this link is already expired. */
 expired: boolean;
 /** Time at which the link expires. @format unix-time */
 expires_at?: number | null;
 /** The file object this link points to. */
 file: string | StripeFile;
 /** Unique identifier for the object. */
 id: string;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** Set of key-value pairs that you can attach to an object. */
 metadata: Record<string, string>;
 /** String representing the object's type. */
 object: "file_link";
 /** The publicly accessible URL to download the file. */
 url?: string | null;
};

/** The purpose of the uploaded file. */
type Purpose = "account_requirement" | "additional_verification" | "business_icon" | "business_logo" | "customer_signature" | "dispute_evidence" | "document_provider_identity_document" | "finance_report_run" | "identity_document" | "identity_document_downloadable" | "pci_document" | "selfie" | "sigma_scheduled_query" | "tax_document_user_upload" | "terminal_reader_splashscreen";

type PostTerminalConfigurationsInput = {
 body?: {
  /** An object containing device type specific settings for BBPOS WisePOS E readers */
  bbpos_wisepos_e?: { splashscreen?: string | "" };
  /** Specifies which fields in the response should be expanded. */
  expand?: string[];
  /** Tipping configurations for readers supporting on-reader tips */
  tipping?: Tipping | "";
  /** An object containing device type specific settings for Verifone P400 readers */
  verifone_p400?: { splashscreen?: string | "" };
 };
};
type PostTerminalConfigurationsOutput = TerminalConfiguration;

declare const stripe: {
 /**
  * Creates a new Configuration object.
  * @approval the run pauses at the call until a person approves it
  */
 PostTerminalConfigurations(input?: PostTerminalConfigurationsInput): Promise<PostTerminalConfigurationsOutput>;
};

// stripe.DeleteCustomersCustomer
type DeletedCustomer = {
 /** Always true for a deleted object */
 deleted: true;
 /** Unique identifier for the object. */
 id: string;
 /** String representing the object's type. */
 object: "customer";
};

type DeleteCustomersCustomerInput = {
 /** @maxLength 5000 */
 customer: string;
 body?: {};
};
type DeleteCustomersCustomerOutput = DeletedCustomer;

declare const stripe: {
 /**
  * Permanently deletes a customer.
  * @approval the run pauses at the call until a person approves it
  */
 DeleteCustomersCustomer(input: DeleteCustomersCustomerInput): Promise<DeleteCustomersCustomerOutput>;
};

// stripe.GetFilesFile
/** This is an object representing a file hosted on Stripe's servers. */
type StripeFile = {
 /** Time at which the object was created. @format unix-time */
 created: number;
 /** The time at which the file expires and is no longer available in epoch seconds. @format unix-time */
 expires_at?: number | null;
 /** A filename for the file, suitable for saving to a filesystem. */
 filename?: string | null;
 /** Unique identifier for the object. */
 id: string;
 /** A list of file links that point at this file. */
 links?: {
  /** Details about each object. */
  data: FileLink[];
  /** True if this list has another page of items after this one that can be fetched. */
  has_more: boolean;
  /** String representing the object's type. */
  object: "list";
  /** The URL where this list can be accessed. */
  url: string;
 } | null;
 /** String representing the object's type. */
 object: "file";
 /** The purpose of the uploaded file. */
 purpose: Purpose;
 /** The size in bytes of the file object. */
 size: number;
 /** A user friendly title for the document. */
 title?: string | null;
 /** The type of the file returned (e.g., `csv`, `pdf`, `jpg`, or `png`). */
 type?: string | null;
 /** The URL from which the file can be downloaded using your live secret API key. */
 url?: string | null;
};

/** To share the contents of a `File` object with non-Stripe users, you can create a `FileLink`. */
type FileLink = {
 /** Time at which the object was created. @format unix-time */
 created: number;
 /** Whether this link is already expired. */
 expired: boolean;
 /** Time at which the link expires. @format unix-time */
 expires_at?: number | null;
 /** The file object this link points to. */
 file: string | StripeFile;
 /** Unique identifier for the object. */
 id: string;
 /** Has the value `true` if the object exists in live mode or the value `false` if the object exists in test mode. */
 livemode: boolean;
 /** Set of key-value pairs that you can attach to an object. */
 metadata: Record<string, string>;
 /** String representing the object's type. */
 object: "file_link";
 /** The publicly accessible URL to download the file. */
 url?: string | null;
};

/** The purpose of the uploaded file. */
type Purpose = "account_requirement" | "additional_verification" | "business_icon" | "business_logo" | "customer_signature" | "dispute_evidence" | "document_provider_identity_document" | "finance_report_run" | "identity_document" | "identity_document_downloadable" | "pci_document" | "selfie" | "sigma_scheduled_query" | "tax_document_user_upload" | "terminal_reader_splashscreen";

type GetFilesFileInput = {
 /** Specifies which fields in the response should be expanded. */
 expand?: string[];
 /** @maxLength 5000 */
 file: string;
 body?: {};
};
type GetFilesFileOutput = StripeFile;

declare const stripe: {
 /** Retrieves the details of an existing file object. */
 GetFilesFile(input: GetFilesFileInput): Promise<GetFilesFileOutput>;
};

// stripe.GetQuotesQuotePdf
type GetQuotesQuotePdfInput = {
 /** Specifies which fields in the response should be expanded. */
 expand?: string[];
 /** @maxLength 5000 */
 quote: string;
 body?: {};
};
type GetQuotesQuotePdfOutput = string;

declare const stripe: {
 /** Download the PDF for a finalized quote */
 GetQuotesQuotePdf(input: GetQuotesQuotePdfInput): Promise<GetQuotesQuotePdfOutput>;
};
