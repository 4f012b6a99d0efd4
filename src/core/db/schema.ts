import type { Generated } from 'kysely';

/**
 * Row shapes as stored. Booleans are 0/1 integers and instants are Unix ms integers so that one
 * set of queries means the same on SQLite and PostgreSQL. Money columns end in `_cents`.
 */
/**
 * A channel order's flow: `held` (items we cannot map), `awaiting` (a person accepts or denies),
 * `accepted` (cooking), `ready` (the platform was told), `picked_up` and `delivered` (as the platform
 * reports them), `denied`, `cancelled`.
 */
export type ChannelState =
  | 'held'
  | 'awaiting'
  | 'accepted'
  | 'ready'
  | 'picked_up'
  | 'delivered'
  | 'denied'
  | 'cancelled';

export type Database = {
  /** Generated secrets and one-time markers such as `initial_setup`. */
  app_settings: { name: string; value: string };
  currencies: { id: string; code: string; name: string; symbol: string };
  users: {
    id: string;
    name: string;
    /** `userNameKey(name)`: what logins look up and what is unique among live users. */
    name_key: string;
    pin_hash: string;
    /** How many digits the PIN has, for the login screen; null for a PIN set before it was kept. */
    pin_length: number | null;
    /** The name of the user's role (`roles.name`). */
    role: string;
    wallet_password_hash: string | null;
    is_deleted: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  sessions: {
    id: string;
    user_id: string;
    refresh_token_id: string;
    created_at: number;
    expires_at: number;
    revoked_at: number | null;
    /** The refresh token replaced by the last rotation, honoured again within the grace window. */
    previous_refresh_token_id: Generated<string | null>;
    /** When the last rotation happened; also the issue time of the tokens it handed out. */
    rotated_at: Generated<number | null>;
    /** The id of the access token the last rotation handed out, to hand out the very same again. */
    access_token_id: Generated<string | null>;
  };
  /** Failed attempts per throttle bucket and fixed time window, shared by every instance. */
  failure_counters: {
    scope: string;
    bucket_key: string;
    window_start: number;
    failures: number;
    expires_at: number;
  };
  /** A manager's approval on another user's tablet: single use, kept as the token's hash (issue 35). */
  manager_approvals: {
    token_hash: string;
    user_id: string;
    approver_id: string;
    permission: string;
    created_at: number;
    expires_at: number;
    used_at: number | null;
    /** The order the approval is for. */
    order_id: string | null;
    /** The plates it approves, as a JSON array; null: the order's bill, whichever plates. */
    order_dish_ids: string | null;
  };
  /** Wallet tokens logged out before they expire; kept until then. */
  revoked_wallet_tokens: { token_id: string; expires_at: number };
  categories: {
    id: string;
    name: string;
    type: 'dish' | 'ingredient' | 'product';
    station: Generated<string>;
    is_deleted: Generated<number>;
    /** The SAT product key of its dishes on a CFDI, unless a dish names its own. */
    product_key: Generated<string | null>;
    created_at: number;
    updated_at: number;
  };
  dishes: {
    id: string;
    name: string;
    price_cents: number;
    category_id: string;
    description: Generated<string>;
    /** 0: 86'd, not offered until someone puts it back. */
    is_available: Generated<number>;
    is_deleted: Generated<number>;
    product_key: Generated<string | null>;
    created_at: number;
    updated_at: number;
  };
  modifier_groups: {
    id: string;
    name: string;
    min_select: number;
    max_select: number;
    is_deleted: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  modifier_options: {
    id: string;
    group_id: string;
    name: string;
    price_delta_cents: number;
    is_available: Generated<number>;
    position: number;
    /** Set when an edit of its group left it out: no longer offered, kept for the plates naming it. */
    retired_at: number | null;
    created_at: number;
    updated_at: number;
  };
  /** The groups a dish offers, in the order its screen shows them. */
  dish_modifier_groups: { dish_id: string; group_id: string; position: number };
  /** The options chosen for a plate, copied when it was ordered. */
  order_dish_modifiers: {
    order_dish_id: string;
    option_id: string;
    group_name: string;
    name: string;
    price_delta_cents: number;
    position: number;
  };
  ingredients: {
    id: string;
    name: string;
    category_id: string;
    unit: string;
    /** Base units: thousandths of `unit` for an ingredient, whole units for a product. */
    stock: Generated<number>;
    reorder_level: Generated<number>;
    /** How many movements the item has had; the last one's `seq`. */
    stock_moves: Generated<number>;
    stock_moved_at: Generated<number>;
    is_deleted: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  products: {
    id: string;
    name: string;
    sku: string;
    price_cents: number;
    category_id: string;
    /** Base units: thousandths of `unit` for an ingredient, whole units for a product. */
    stock: Generated<number>;
    reorder_level: Generated<number>;
    /** How many movements the item has had; the last one's `seq`. */
    stock_moves: Generated<number>;
    stock_moved_at: Generated<number>;
    is_deleted: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  /** The only way stock changes (migration 0027). */
  stock_movements: {
    id: string;
    item_type: StockItemType;
    item_id: string;
    seq: number;
    delta: number;
    stock_after: number;
    reason: StockReason;
    order_dish_id: string | null;
    user_id: string | null;
    note: Generated<string>;
    at: number;
    /** The order movements were entered in (ids are UUID v4): one more than the largest before it. */
    ordinal: number;
  };
  /** What a dish or a modifier option uses of an ingredient or a product, per plate. */
  recipe_lines: {
    id: string;
    dish_id: string | null;
    option_id: string | null;
    ingredient_id: string | null;
    product_id: string | null;
    quantity: number;
    position: number;
  };
  spaces: { id: string; name: string; is_deleted: Generated<number>; created_at: number; updated_at: number };
  dining_tables: {
    id: string;
    name: string;
    status: 'available' | 'occupied' | 'reserved';
    space_id: string;
    order_id: string | null;
    is_deleted: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  orders: {
    id: string;
    user_id: string;
    table_id: string | null;
    waiter: string;
    status: 'pending' | 'preparing' | 'ready' | 'completed' | 'cancelled';
    /** How many people the order serves, 1–99; null when nobody asked. */
    guests: Generated<number | null>;
    total_cents: number;
    /** Sum of the subtotals of the order's live bills; never above total_cents. */
    billed_cents: Generated<number>;
    /** Sum of the discounts of the order's live bills; never above billed_cents. */
    discount_cents: Generated<number>;
    /** Settled payments minus refunds over the order's bills, tips excluded. */
    paid_cents: Generated<number>;
    /** What refunds gave back on the order's Paid bills: returned after the sale, not owed again. */
    refunded_after_sale_cents: Generated<number>;
    is_deleted: Generated<number>;
    created_at: number;
    updated_at: number;
    /** `dine_in` for every order taken in the restaurant, else the delivery app it came through. */
    channel: Generated<string>;
    /** The platform's id of the order; unique per channel. */
    channel_order_id: Generated<string | null>;
    /** The short code the courier says at the counter. */
    channel_code: Generated<string | null>;
    customer_first_name: Generated<string | null>;
    pickup_at: Generated<number | null>;
    /** Where a channel order is in its flow with the platform; null for dine-in and finished ones. */
    channel_state: Generated<ChannelState | null>;
    /** Until when the order can be accepted or denied at the platform. */
    accept_by: Generated<number | null>;
    /** JSON: the items of a held order that map to no dish or option of ours. */
    channel_unmapped: Generated<string | null>;
    /** The platform's commission on the order, where its API said it; else the channel's setting applies. */
    channel_commission_cents: Generated<number | null>;
    /** When the platform was told the order is ready. */
    channel_ready_at: Generated<number | null>;
    /** When the platform is next asked whether a ready order was picked up; null: not followed. */
    channel_check_at: Generated<number | null>;
  };
  order_dishes: {
    id: string;
    order_id: string;
    dish_id: string;
    price_at_order_cents: number;
    notes: string;
    created_at: number;
    status: Generated<DishStatus>;
    sent_at: number | null;
    ready_at: number | null;
    void_reason: string | null;
    voided_at: number | null;
    /** Who voided the plate; null on voids from before it was kept. */
    voided_by: Generated<string | null>;
    /** The manager whose approval let a user without `dishes.void` void it. */
    voided_approved_by: Generated<string | null>;
    seat: Generated<number | null>;
    course: Generated<number>;
    /** The order plates were entered in (ids are UUID v4): one more than the largest before it. */
    ordinal: number;
  };
  idempotency_keys: {
    scope: string;
    idempotency_key: string;
    request_hash: string;
    status_code: number | null;
    response_body: string | null;
    created_at: number;
  };
  incoming_payments: {
    payment_hash: string;
    amount_sat: number;
    received_sat: number;
    fees_sat: number;
    description: string;
    external_id: string | null;
    status: string;
    created_at: number;
    completed_at: number | null;
    recorded_at: number;
  };
  /** Bills; status 1 Pending, 2 Paid, 3 Canceled (the spec's ticket codes). */
  tickets: {
    id: string;
    order_id: string;
    status: 1 | 2 | 3;
    subtotal_cents: number;
    discount_cents: number;
    discount_type: 'percent' | 'amount' | null;
    discount_value: number | null;
    discount_reason: string | null;
    /** The manager whose approval let a user without `tickets.discount` discount it. */
    discount_approved_by: Generated<string | null>;
    total_cents: number;
    paid_cents: Generated<number>;
    tips_cents: Generated<number>;
    created_by: string;
    created_at: number;
    updated_at: number;
    paid_at: number | null;
    canceled_at: number | null;
  };
  /** Which order dishes a bill covers; a cancelled bill's links stay with is_live 0. */
  ticket_dishes: { ticket_id: string; order_dish_id: string; is_live: Generated<number> };
  payment_methods: {
    id: string;
    code: string;
    name: string;
    is_active: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  payments: {
    id: string;
    ticket_id: string;
    method: string;
    amount_cents: number;
    tip_cents: number;
    tendered_cents: number | null;
    change_cents: number | null;
    refunded_cents: Generated<number>;
    status: PaymentStatus;
    /** Null for a guest's payment: no staff user recorded it. */
    created_by: string | null;
    created_at: number;
    settled_at: number | null;
    amount_sat: number | null;
    rate: number | null;
    payment_hash: string | null;
    invoice: string | null;
    expires_at: number | null;
    /** What the node counted as received, net of its liquidity fee: it can be negative. */
    received_sat: number | null;
    /** The liquidity fee the node took from a Lightning payment, in millisatoshis. */
    fees_msat: Generated<number | null>;
    /** The open shift of the user who recorded it, if any. */
    shift_id: Generated<string | null>;
    /** Until when one instance's sweep has claimed this pending Lightning payment. */
    swept_until: Generated<number | null>;
    /** 'staff' (the till, a waiter) or 'guest' (the guest page). */
    source: Generated<'staff' | 'guest'>;
    /** Card-terminal charges (method `card_terminal`): the terminal and what the provider says of it. */
    terminal_id: Generated<string | null>;
    /** The provider's order status; how an `expired` charge ended (`failed`, `canceled`, `expired`). */
    terminal_state: Generated<string | null>;
    /** The provider's `X-Idempotency-Key` for making the charge. */
    provider_key: Generated<string | null>;
    provider_order_id: Generated<string | null>;
    provider_transaction_id: Generated<string | null>;
    /** The Payments API's id of the card payment. */
    provider_payment_id: Generated<string | null>;
    card_brand: Generated<string | null>;
    card_type: Generated<'credit' | 'debit' | null>;
    card_last_four: Generated<string | null>;
    authorization_code: Generated<string | null>;
    provider_fee_cents: Generated<number | null>;
    /** Why a charge ended unpaid, in Spanish for the cashier. */
    failure_reason: Generated<string | null>;
    /** When the till asked to cancel a charge the terminal was showing (the terminal confirms it). */
    cancel_requested_at: Generated<number | null>;
    /** When the watch job next reads the charge back from the provider; null when it is final. */
    next_check_at: Generated<number | null>;
  };
  /** Links to a bill's guest page; the token itself is never stored, only its SHA-256. */
  display_pairing_codes: { code: string; cashier_id: string; expires_at: number };
  display_pairings: { display_user_id: string; cashier_id: string; paired_at: number };
  /** What each cashier's till shows its paired customer display. */
  till_displays: {
    cashier_id: string;
    ticket_id: string | null;
    payment_id: string | null;
    updated_at: number;
  };
  guest_links: {
    id: string;
    token_hash: string;
    ticket_id: string;
    created_at: number;
    expires_at: number;
    revoked_at: number | null;
  };
  refunds: {
    id: string;
    payment_id: string;
    amount_cents: number;
    reason: string;
    created_by: string;
    created_at: number;
    amount_sat: number | null;
    invoice: string | null;
    payment_hash: string | null;
    node_payment_id: string | null;
    fees_sat: number | null;
    /** The open shift of the user who recorded it, if any. */
    shift_id: Generated<string | null>;
    /** `pending` while the card provider processes it; the money leaves the bill when `processed`. */
    status: Generated<'pending' | 'processed' | 'failed'>;
    provider_refund_id: Generated<string | null>;
    /** The provider's `X-Idempotency-Key` for the refund. */
    provider_key: Generated<string | null>;
    failure_reason: Generated<string | null>;
  };
  /** One row per share of a Paid bill, in cents (reports/sales-facts.ts). */
  sales_facts: {
    kind: 'bill' | 'method' | 'dish';
    paid_at: number;
    ticket_id: string;
    /** The bill's id (`bill`), the payment's (`method`) or the order dish's (`dish`). */
    line: string;
    order_id: string;
    /** How many rows of this kind the order has. */
    order_rows: number;
    /** The order's user: the waiter. */
    user_id: string;
    /** Null (`bill`), the payment method's code (`method`) or the dish id (`dish`). */
    key: string | null;
    items: number;
    gross: number;
    discounts: number;
    refunds: number;
    tips: number;
    /** The order's guests, channel and creation (when its table sat down), copied for the dashboard. */
    guests: number | null;
    channel: Generated<string>;
    seated_at: Generated<number>;
    /** 1 on the rows of the order's last Paid bill (by paid_at, then id): its covers count there. */
    is_last_bill: Generated<number>;
  };
  /** A user's cash drawer from opening to close; closed shifts never change. */
  shifts: {
    id: string;
    user_id: string;
    opening_cash_cents: number;
    opened_at: number;
    closed_at: number | null;
    closed_by: string | null;
    counted_cash_cents: number | null;
    /** Computed by the server at close from the shift's stored payments, refunds and movements. */
    expected_cash_cents: number | null;
    notes: string | null;
  };
  /** Pay-ins (positive) and pay-outs (negative) of a shift's drawer. */
  shift_cash_movements: {
    id: string;
    shift_id: string;
    amount_cents: number;
    reason: string;
    created_by: string;
    created_at: number;
    /** 1: a pay-out beyond the expected cash that a manager forced. */
    is_forced: Generated<number>;
  };
  roles: {
    id: string;
    name: string;
    description: Generated<string>;
    /** A JSON array of permission names; the `admin` role holds every permission whatever it lists. */
    permissions: string;
    is_seeded: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  /** The restaurant's settings: one row, id 1. */
  business_settings: {
    id: number;
    business_name: string;
    address: string;
    tax_id: string;
    phone: string;
    receipt_footer: string;
    /** Hundredths of a percent: 16% is 1600. */
    tax_rate_bp: number;
    prices_include_tax: number;
    timezone: string;
    base_currency: string;
    require_shift_for_cash: number;
    /** 1: webhooks may not target loopback, link-local or private addresses. */
    webhooks_block_private_targets: Generated<number>;
    /** 1: the expected cash of an open shift is hidden from its cashier until she has counted. */
    blind_shift_close: Generated<number>;
    /** 1: an order closes itself and frees its table once its bills are paid and nothing is owed. */
    close_paid_orders: Generated<number>;
    /** The language receipts and kitchen chits print in: es-MX or en-US. */
    locale: Generated<string>;
    /** JSON array of tip percentages the guest page offers. */
    tip_suggestions: Generated<string>;
    /** The card terminal a till charges on when it names none (Mercado Pago Point). */
    default_terminal_id: Generated<string | null>;
    max_tip_percent: Generated<number>;
    updated_at: number;
  };
  /** The outbox of the live stream: written in the transaction of each change. */
  events: {
    id: Generated<number>;
    type: string;
    topic: string;
    payload: string;
    created_at: number;
    /** Null until the sequencer numbers the row (PostgreSQL); readers follow this, never `id`. */
    position: number | null;
  };
  /** ESC/POS network printers; `station` routes kitchen chits, none means every station. */
  printers: {
    id: string;
    name: string;
    host: string;
    port: number;
    role: PrinterRole;
    station: string | null;
    /** Characters per line: 32 (58 mm paper), 42 or 48 (80 mm). */
    width: number;
    created_at: number;
    updated_at: number;
  };
  print_jobs: {
    id: string;
    printer_id: string;
    kind: 'receipt' | 'kitchen_chit';
    ticket_id: string | null;
    order_id: string | null;
    /** For a receipt: the state of the bill it printed (1 pending, 2 paid, 3 cancelled), to tell a reprint. */
    ticket_status: number | null;
    bytes: Uint8Array;
    state: PrintJobState;
    attempts: Generated<number>;
    next_attempt_at: number;
    /** Until when one instance is sending this job; past it, another may try again. */
    claimed_until: number | null;
    last_error: string | null;
    created_at: number;
    printed_at: number | null;
  };
  /** One row: how far the Lightning catch-up has read the node's paid payments, and who reads now. */
  lightning_catch_up: {
    id: number;
    /** The completion time (node's Unix ms) of the newest paid payment already read. */
    seen_until: number;
    claimed_until: number | null;
  };
  /** Outbound webhooks (src/webhooks/); `events` is a JSON array of event types or `["*"]`. */
  webhooks: {
    id: string;
    url: string;
    events: string;
    description: string | null;
    /** Signs every delivery; shown once when the webhook is created. */
    secret: string;
    /** The last outbox position already turned into this webhook's deliveries. */
    cursor: number;
    created_at: number;
    updated_at: number;
  };
  webhook_deliveries: {
    id: string;
    webhook_id: string;
    event_position: number;
    event_type: string;
    /** The exact JSON sent on every attempt. */
    body: string;
    state: WebhookDeliveryState;
    attempts: Generated<number>;
    next_attempt_at: number;
    /** Until when one instance is sending this delivery; past it, another may try again. */
    claimed_until: number | null;
    /** Set by the first attempt: retries stop 24 h after it. */
    retry_until: number | null;
    last_error: string | null;
    created_at: number;
    /** When it was delivered or given up on. */
    finished_at: number | null;
  };
  webhook_delivery_attempts: {
    id: string;
    delivery_id: string;
    /** 1 for the delivery's first attempt, counting on through manual retries. */
    number: number;
    at: number;
    /** Null when no answer came (timeout, refused connection). */
    status_code: number | null;
    duration_ms: number;
    error: string | null;
  };
  /** The tamper-evident audit log (audit/record-audit.ts): each row chained to the previous by hash. */
  audit_log: {
    id: string;
    /** Position in the chain: 1, 2, 3… without gaps. */
    seq: number;
    at: number;
    /** Null when no user is known: a failed login, a command-line action. */
    actor_id: string | null;
    actor_name: string;
    action: string;
    target_type: string;
    target_id: string | null;
    /** JSON text, hashed exactly as stored. */
    before: string | null;
    after: string | null;
    prev_hash: string;
    hash: string;
  };
  /** Mexico's e-invoice (CFDI 4.0) through a PAC: one row, id 1, off until enabled. */
  /** What a platform told us (a webhook, a read), kept until a job has taken it in exactly once. */
  channel_inbox: {
    id: string;
    channel: string;
    event_id: string;
    kind: 'order' | 'cancel';
    channel_order_id: string;
    /** JSON of the platform's order when the event carried it; null: read it from the platform. */
    payload: string | null;
    state: 'pending' | 'done' | 'failed';
    attempts: Generated<number>;
    next_attempt_at: number;
    claimed_until: number | null;
    last_error: string | null;
    received_at: number;
    done_at: number | null;
  };
  /** What we must tell a platform, retried until it answers or `give_up_at` passes. */
  channel_calls: {
    id: string;
    channel: string;
    action: 'accept' | 'deny' | 'ready' | 'cancel' | 'availability' | 'menu' | 'pause' | 'resume';
    order_id: string | null;
    payload: string;
    state: 'pending' | 'done' | 'failed';
    attempts: Generated<number>;
    next_attempt_at: number;
    give_up_at: number;
    claimed_until: number | null;
    last_error: string | null;
    created_at: number;
    done_at: number | null;
  };
  /** Each platform's store: its settings and what we last heard from it. */
  channel_stores: {
    channel: string;
    auto_accept: Generated<number>;
    /** Hundredths of a percent of each order's sales. */
    commission_bp: Generated<number>;
    paused_until: number | null;
    last_order_at: number | null;
    last_error: string | null;
    last_error_at: number | null;
    last_ok_at: number | null;
    /** The platform's reads are rationed (Rappi: 45 s apart); no instance reads before this. */
    next_read_at: Generated<number>;
    /** A hash of the menu last published; null until a person first publishes it. */
    menu_hash: Generated<string | null>;
    /** A menu unlike the published one, and when it was first seen: published once it holds still. */
    menu_seen_hash: Generated<string | null>;
    menu_seen_at: Generated<number | null>;
    updated_at: number;
  };
  /** A webhook registered through a platform's API (Rappi's), one per event, with its own secret. */
  channel_webhooks: {
    channel: string;
    event: string;
    url: string;
    secret: string;
    registered_at: number;
  };
  /** A dish's price on one delivery app, where it differs from the dish's own. */
  dish_channel_prices: { dish_id: string; channel: string; price_cents: number };
  /** What each platform was last told of a dish's or an option's availability. */
  channel_availability: {
    channel: string;
    item_id: string;
    kind: 'dish' | 'option';
    is_available: number;
  };
  fiscal_settings: {
    id: number;
    enabled: number;
    rfc: string;
    legal_name: string;
    tax_regime: string;
    postal_code: string;
    series: string;
    product_key: string;
    unit_key: string;
    global_periodicity: string;
    /** JSON: payment method code → SAT c_FormaPago. */
    payment_forms: string;
    enabled_since: number | null;
    scanned_through: number | null;
    updated_at: number;
  };
  /** What the PAC holds for one paid bill: its receipt, then an invoice alone or a global invoice. */
  fiscal_documents: {
    ticket_id: string;
    state: FiscalDocumentState;
    paid_at: number;
    receipt_id: string | null;
    payment_form: string | null;
    self_invoice_url: string | null;
    expires_at: number | null;
    receipt_cents: number | null;
    credited_cents: Generated<number>;
    invoice_id: string | null;
    attempts: Generated<number>;
    next_attempt_at: number;
    claimed_until: number | null;
    last_error: string | null;
    created_at: number;
    updated_at: number;
  };
  /** The CFDIs stamped for us: invoices to a customer, global invoices, credit notes. */
  fiscal_invoices: {
    id: string;
    kind: 'customer' | 'global' | 'credit_note';
    pac_id: string;
    uuid: string;
    /** Series and number as printed on the CFDI; null for ones stamped before it was kept. */
    folio: string | null;
    status: FiscalInvoiceStatus;
    customer_rfc: string;
    customer_name: string;
    customer: string;
    total_cents: number;
    ticket_id: string | null;
    related_uuid: string | null;
    period_start: string | null;
    period_end: string | null;
    cancel_motive: string | null;
    substitution: string | null;
    claimed_until: number | null;
    created_at: number;
    updated_at: number;
  };
  /** A credit note a refund owes once its bill is in an invoice. */
  fiscal_credit_notes: {
    id: string;
    ticket_id: string;
    cents: number;
    state: 'pending' | 'issued' | 'failed';
    invoice_id: string | null;
    attempts: Generated<number>;
    next_attempt_at: number;
    claimed_until: number | null;
    last_error: string | null;
    created_at: number;
  };
  /** One period of the global invoice, in the restaurant's local dates. */
  fiscal_global_periods: {
    period_start: string;
    period_end: string;
    periodicity: string;
    from_at: number;
    to_at: number;
    state: 'due' | 'issuing' | 'issued' | 'empty' | 'refused';
    invoice_id: string | null;
    attempts: Generated<number>;
    next_attempt_at: number;
    claimed_until: number | null;
    last_error: string | null;
    updated_at: number;
  };
};

export type FiscalDocumentState =
  | 'pending'
  | 'receipt'
  | 'invoicing'
  | 'invoiced'
  | 'in_global'
  | 'canceled'
  | 'failed';
export type FiscalInvoiceStatus = 'valid' | 'canceling' | 'cancel_pending' | 'canceled';

export type PrinterRole = 'receipt' | 'kitchen';
export type PrintJobState = 'pending' | 'sending' | 'printed' | 'failed';
export type WebhookDeliveryState = 'pending' | 'sending' | 'delivered' | 'failed';

export type PaymentStatus = 'pending' | 'settled' | 'expired' | 'refunded' | 'partially_refunded';

/** The kitchen flow of one order dish (contract-live.md). */
export type StockItemType = 'ingredient' | 'product';
export type StockReason = 'sale' | 'void' | 'receiving' | 'adjustment' | 'waste' | 'count';
export type DishStatus = 'pending' | 'sent' | 'preparing' | 'ready' | 'served' | 'voided';
