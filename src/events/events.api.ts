/** What the other features may use of events: the rest of src/events/ is its own (docs/architecture.md). */

export type { StoredEvent } from './events.repo';
export { eventsAfter, latestPosition } from './events.repo';
export { EVENT_TYPES, recordEvent } from './record-event';
