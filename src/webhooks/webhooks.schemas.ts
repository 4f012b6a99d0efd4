import { type Static, Type } from 'typebox';
import { Page } from '../core/paging';
import { Uuid } from '../core/schemas';
import { EVENT_TYPES } from '../events/events.api';

/** Every event, including types added after the webhook was made. */
export const ALL_EVENTS = '*';

const EventFilter = Type.Enum([...EVENT_TYPES, ALL_EVENTS], {
  type: 'string',
  description: `An event type, or \`${ALL_EVENTS}\` for every event`,
});

export const WebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'Where deliveries are POSTed: an absolute http or https URL. Redirects are never followed.',
      example: 'https://example.com/pos-events',
    }),
    events: Type.Array(EventFilter, {
      minItems: 1,
      maxItems: EVENT_TYPES.length + 1,
      uniqueItems: true,
      description: 'The event types delivered to this URL',
      example: ['ticket.paid', 'payment.settled'],
    }),
    description: Type.Optional(
      Type.Union([Type.String({ maxLength: 500, example: 'Accounting sync' }), Type.Null()]),
    ),
  },
  {
    additionalProperties: false,
    example: { url: 'https://example.com/pos-events', events: ['*'], description: 'Accounting sync' },
  },
);
export type WebhookBody = Static<typeof WebhookBody>;

const webhookFields = {
  id: Uuid(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const WebhookView = Type.Object(webhookFields);
export type WebhookView = Static<typeof WebhookView>;

export const CreatedWebhookView = Type.Object({
  ...webhookFields,
  secret: Type.String({
    description:
      'Signs every delivery (`POS-Signature`). Shown only in this answer: store it now, no other route returns it.',
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  }),
});
export type CreatedWebhookView = Static<typeof CreatedWebhookView>;

const DateTimeOrNull = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const DeliveryAttemptView = Type.Object({
  at: Type.String({ format: 'date-time' }),
  status_code: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'The HTTP status the receiver answered; null when no answer came (timeout, connection refused)',
  }),
  duration_ms: Type.Integer({ description: 'From sending the request to the answer or the failure' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed; null on success' }),
});
export type DeliveryAttemptView = Static<typeof DeliveryAttemptView>;

export const DeliveryView = Type.Object({
  id: Uuid(),
  webhook_id: Uuid(),
  event_id: Type.Integer({ description: 'The event position: `id` in the body and `POS-Event-Id`' }),
  event_type: Type.String(),
  state: Type.Union(
    [Type.Literal('pending'), Type.Literal('sending'), Type.Literal('delivered'), Type.Literal('failed')],
    {
      description:
        '`pending`: waiting for its turn or its next attempt; `sending`: being sent; `delivered`: the ' +
        'receiver answered 2xx; `failed`: no 2xx for 24 h after the first attempt',
    },
  ),
  next_attempt_at: DateTimeOrNull('When a pending delivery is tried next; null once delivered or failed'),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: DateTimeOrNull('When it was delivered or given up on'),
  attempts: Type.Array(DeliveryAttemptView, { description: 'Every attempt, oldest first' }),
});
export type DeliveryView = Static<typeof DeliveryView>;

export const DeliveryPageReply = Type.Array(DeliveryView, {
  headers: {
    'X-Total-Count': {
      type: 'integer',
      description: 'How many deliveries the webhook has, across all pages',
    },
  },
});

export const DeliveriesQuery = Type.Object({ ...Page.properties }, { additionalProperties: false });
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

export const DeliveryParams = Type.Object({ id: Uuid(), deliveryId: Uuid() });
export type DeliveryParams = Static<typeof DeliveryParams>;
