import { type Static, Type } from 'typebox';
import { Page } from '../core/paging';
import { Uuid } from '../core/schemas';

const Width = Type.Union([Type.Literal(32), Type.Literal(42), Type.Literal(48)], {
  description: 'Characters per line: 32 for 58 mm paper, 42 or 48 for 80 mm',
});

export const PrinterBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', example: 'Bar receipts' }),
    host: Type.String({
      minLength: 1,
      maxLength: 253,
      format: 'hostname',
      description: 'Host name or IPv4 address of the printer on the restaurant network',
      example: '192.168.1.50',
    }),
    port: Type.Integer({
      minimum: 1,
      maximum: 65535,
      default: 9100,
      description: 'Raw ESC/POS port; default 9100',
    }),
    role: Type.Union([Type.Literal('receipt'), Type.Literal('kitchen')], {
      description: '`receipt` prints bills; `kitchen` prints chits when dishes are sent',
    }),
    station: Type.Optional(
      Type.Union(
        [Type.String({ minLength: 1, maxLength: 50, pattern: '\\S', example: 'grill' }), Type.Null()],
        {
          description:
            'Kitchen printers only: the station whose dishes it prints (a category’s station). None: every station.',
        },
      ),
    ),
    width: Type.Optional({ ...Width, default: 48 }),
  },
  {
    additionalProperties: false,
    example: {
      name: 'Grill',
      host: '192.168.1.51',
      port: 9100,
      role: 'kitchen',
      station: 'grill',
      width: 42,
    },
  },
);
export type PrinterBody = Static<typeof PrinterBody>;

export const PrinterView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  host: Type.String(),
  port: Type.Integer(),
  role: Type.Union([Type.Literal('receipt'), Type.Literal('kitchen')]),
  station: Type.Union([Type.String(), Type.Null()]),
  width: Width,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type PrinterView = Static<typeof PrinterView>;

export const PrintJobView = Type.Object({
  id: Uuid(),
  printer_id: Uuid(),
  kind: Type.Union([Type.Literal('receipt'), Type.Literal('kitchen_chit')]),
  ticket_id: Type.Union([Uuid(), Type.Null()]),
  order_id: Type.Union([Uuid(), Type.Null()]),
  state: Type.Union(
    [Type.Literal('pending'), Type.Literal('sending'), Type.Literal('printed'), Type.Literal('failed')],
    {
      description:
        '`pending`: waiting for its turn or for the printer to come back; `sending`: being sent; ' +
        '`printed`: the printer took it; `failed`: given up after many attempts',
    },
  ),
  attempts: Type.Integer({ description: 'Sending attempts so far' }),
  size: Type.Integer({ description: 'Bytes to send' }),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When a pending job is tried next; null once printed or failed',
  }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed' }),
  created_at: Type.String({ format: 'date-time' }),
  printed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type PrintJobView = Static<typeof PrintJobView>;

export const PrintJobPageReply = Type.Array(PrintJobView, {
  headers: {
    'X-Total-Count': { type: 'integer', description: 'How many jobs the printer has, across all pages' },
  },
});

export const PrintJobsQuery = Type.Object({ ...Page.properties }, { additionalProperties: false });
export type PrintJobsQuery = Static<typeof PrintJobsQuery>;

export const ReceiptQuery = Type.Object(
  {
    width: Type.Optional({ ...Width, default: 48 }),
    format: Type.Optional(
      Type.Union([Type.Literal('text'), Type.Literal('escpos')], {
        default: 'text',
        description: '`text`: text/plain; `escpos`: the same receipt as ESC/POS bytes for a thermal printer',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReceiptQuery = Static<typeof ReceiptQuery>;

export const PrintQueuedReply = Type.Object({
  id: Uuid({ description: 'The print job' }),
  message: Type.String({ example: 'Receipt queued for printing' }),
});

export const PrinterStatusView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  role: Type.Union([Type.Literal('receipt'), Type.Literal('kitchen')]),
  station: Type.Union([Type.String(), Type.Null()]),
  state: Type.Union([Type.Literal('ok'), Type.Literal('failing')], {
    description:
      '`failing`: the latest attempt to print on it failed and its job is still waiting or given up',
  }),
  problem: Type.Union([Type.Literal('unreachable'), Type.Literal('out_of_paper'), Type.Null()], {
    description:
      '`out_of_paper`: the printer answered the paper status request that its paper has run out; ' +
      '`unreachable`: it could not be reached or did not take the job; null while ok',
  }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: 'Why the latest attempt failed' }),
  pending_jobs: Type.Integer({ description: 'Jobs waiting to print on it' }),
  since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'While failing: when the oldest job still waiting was made; otherwise null',
  }),
});
export type PrinterStatusView = Static<typeof PrinterStatusView>;
