/** What the other features may use of shifts: the rest of src/shifts/ is its own (docs/architecture.md). */
export { lightningFigures, liquidityFeeColumns } from './lightning-fees';
export { drawerForCashRefund, shiftForRecording } from './shifts.service';
