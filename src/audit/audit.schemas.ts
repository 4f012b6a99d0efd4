import { type Static, Type } from 'typebox';
import { Page } from '../core/paging';
import { UnixMsQuery, Uuid } from '../core/schemas';

const Json = Type.Unknown({ description: 'The record as JSON; null when there is none' });

export const AuditEntryView = Type.Object({
  id: Uuid(),
  seq: Type.Integer({ minimum: 1, description: 'Position in the chain: 1, 2, 3… without gaps' }),
  at: Type.Integer({ description: 'When, in Unix ms' }),
  actor_id: Type.Union([Uuid(), Type.Null()], {
    description: 'The user who acted; null for a failed login of an unknown name or the command line',
  }),
  actor_name: Type.String({ example: 'ana' }),
  action: Type.String({ example: 'ticket.discounted' }),
  target_type: Type.String({ example: 'ticket' }),
  target_id: Type.Union([Type.String(), Type.Null()]),
  before: Json,
  after: Json,
  prev_hash: Type.String({ description: 'The hash of the entry before (64 zeros for the first)' }),
  hash: Type.String({ description: 'SHA-256 (hex) of this entry and prev_hash' }),
});
export type AuditEntryView = Static<typeof AuditEntryView>;

export const AuditPageReply = Type.Array(AuditEntryView, {
  headers: { 'X-Total-Count': { type: 'integer', description: 'How many entries match, across all pages' } },
});

export const AuditQuery = Type.Object(
  {
    ...Page.properties,
    from: Type.Optional(UnixMsQuery('At or after (Unix ms)')),
    to: Type.Optional(UnixMsQuery('At or before (Unix ms)')),
    actor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "The actor's user id or name" }),
    ),
    action: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'An action, e.g. `auth.login_failed`' }),
    ),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditVerifyQuery = Type.Object(
  {
    seq: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'A published head: its position',
      }),
    ),
    hash: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{64}$',
        description: 'A published head: its hash, as the Z report printed it',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AuditVerifyQuery = Static<typeof AuditVerifyQuery>;

export const AuditVerifyReply = Type.Union([
  Type.Object({
    ok: Type.Literal(true),
    entries: Type.Integer({ minimum: 0, description: 'How many entries were checked' }),
  }),
  Type.Object({
    ok: Type.Literal(false),
    broken_at: Type.Union(
      [
        Type.Object({
          id: Uuid(),
          seq: Type.Integer(),
          at: Type.Integer(),
          action: Type.String(),
        }),
        Type.Null(),
      ],
      {
        description:
          'The first entry whose chain does not hold; for deleted newest entries, the last one left ' +
          '(null when none is left)',
      },
    ),
    reason: Type.String({ example: 'The entry does not match its hash: it was changed' }),
  }),
]);
export type AuditVerifyReply = Static<typeof AuditVerifyReply>;

export const AcknowledgeBreakBody = Type.Object(
  {
    note: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'What the administrator found: who deleted what, or why the log is trusted again',
    }),
  },
  { additionalProperties: false },
);
export type AcknowledgeBreakBody = Static<typeof AcknowledgeBreakBody>;
