/*
 * The rule of this folder: migrations import nothing from features (src/<feature>/), only Kysely and
 * the plumbing of core/. A migration is frozen the day it lands: the SQL and helpers it needs are
 * copied into it, so changing a feature's code never changes what an old migration does on a
 * database that has not run it yet. test/dependencies.test.ts fails on such an import.
 */
import type { Migration, MigrationProvider } from 'kysely';
import type { Backfill } from '../backfills';
import * as core from './0001_core';
import * as menuAndFloor from './0002_menu_and_floor';
import * as orders from './0003_orders';
import * as wallet from './0004_wallet';
import * as authHardening from './0005_auth_hardening';
import * as checkout from './0006_checkout';
import * as lightning from './0007_lightning';
import * as eventPositions from './0008_event_positions';
import * as kitchen from './0009_kitchen';
import * as rolesSettings from './0010_roles_settings';
import * as shifts from './0012_shifts';
import * as printing from './0013_printing';
import * as audit from './0014_audit';
import * as reportIndexes from './0015_report_indexes';
import * as salesFacts from './0016_sales_facts';
import * as webhooks from './0017_webhooks';
import * as orderDiscounts from './0018_order_discounts';
import * as forcedPayOuts from './0019_forced_pay_outs';
import * as webhookPrivateTargets from './0020_webhook_private_targets';
import * as priceOverride from './0021_price_override';
import * as salesFactsAmountSplits from './0022_sales_facts_amount_splits';
import * as blindShiftClose from './0023_blind_shift_close';
import * as floorMoves from './0024_floor_moves';
import * as modifiers from './0025_modifiers';
import * as pinLength from './0026_pin_length';
import * as inventory from './0027_inventory';
import * as inventoryReportIndex from './0028_inventory_report_index';
import * as lightningFees from './0029_lightning_fees';
import * as refundsAfterSale from './0030_refunds_after_sale';
import * as orderReassign from './0031_order_reassign';
import * as ordinals from './0032_ordinals';
import * as paperLocale from './0033_paper_locale';
import * as managerApprovals from './0034_manager_approvals';
import * as guestLinks from './0035_guest_links';
import * as customerDisplay from './0036_customer_display';
import * as fiscal from './0037_fiscal';
import * as ticketsOrderStatus from './0038_tickets_order_status';
import * as cfdiFolios from './0039_cfdi_folios';
import * as closePaidOrders from './0040_close_paid_orders';
import * as approvalTargets from './0041_approval_targets';
import * as channels from './0042_channels';
import * as rappiWebhooks from './0043_rappi_webhooks';
import * as cardTerminal from './0044_card_terminal';
import * as dashboardReads from './0045_dashboard';

/** Listed in code rather than read from disk so they run the same under tsx, tests and bundles. */
export const migrationProvider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      '0001_core': core,
      '0002_menu_and_floor': menuAndFloor,
      '0003_orders': orders,
      '0004_wallet': wallet,
      '0005_auth_hardening': authHardening,
      '0006_checkout': checkout,
      '0007_lightning': lightning,
      '0008_event_positions': eventPositions,
      '0009_kitchen': kitchen,
      '0010_roles_settings': rolesSettings,
      '0012_shifts': shifts,
      '0013_printing': printing,
      '0014_audit': audit,
      '0015_report_indexes': reportIndexes,
      '0016_sales_facts': salesFacts,
      '0017_webhooks': webhooks,
      '0018_order_discounts': orderDiscounts,
      '0019_forced_pay_outs': forcedPayOuts,
      '0020_webhook_private_targets': webhookPrivateTargets,
      '0021_price_override': priceOverride,
      '0022_sales_facts_amount_splits': salesFactsAmountSplits,
      '0023_blind_shift_close': blindShiftClose,
      '0024_floor_moves': floorMoves,
      '0025_modifiers': modifiers,
      '0026_pin_length': pinLength,
      '0027_inventory': inventory,
      '0028_inventory_report_index': inventoryReportIndex,
      '0029_lightning_fees': lightningFees,
      '0030_refunds_after_sale': refundsAfterSale,
      '0031_order_reassign': orderReassign,
      '0032_ordinals': ordinals,
      '0033_paper_locale': paperLocale,
      '0034_manager_approvals': managerApprovals,
      '0035_guest_links': guestLinks,
      '0036_customer_display': customerDisplay,
      '0037_fiscal': fiscal,
      '0038_tickets_order_status': ticketsOrderStatus,
      '0039_cfdi_folios': cfdiFolios,
      '0040_close_paid_orders': closePaidOrders,
      '0041_approval_targets': approvalTargets,
      '0042_channels': channels,
      '0043_rappi_webhooks': rappiWebhooks,
      '0044_card_terminal': cardTerminal,
      '0045_dashboard': dashboardReads,
    };
  },
};

/** The backfills migrations schedule (core/db/backfills.ts), by the name they schedule them under. */
export const backfills: Readonly<Record<string, Backfill>> = {
  [salesFactsAmountSplits.BACKFILL]: salesFactsAmountSplits.backfill,
  [dashboardReads.BACKFILL]: dashboardReads.backfill,
};
