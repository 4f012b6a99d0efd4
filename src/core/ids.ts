import { randomUUID } from 'node:crypto';
import { v7 } from 'uuid';

export const newId: () => string = randomUUID;

/**
 * For rows listed by (created_at, id) whose batch shares one created_at, such as the plates of one
 * request: UUIDv7 grows with each id made in this process (the library keeps the order inside a
 * millisecond), so the list keeps the order in which they were entered.
 */
export const newOrderedId: () => string = v7;
