import { type Static, type TObject, type TOptional, type TSchema, Type } from 'typebox';

export const Uuid = (options: { description?: string } = {}) =>
  Type.String({ format: 'uuid', example: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e', ...options });

/** The last instant of year 9999: a bound for Unix-ms inputs, so no absurd value reaches SQL or a node. */
export const MAX_UNIX_MS = 253_402_300_799_999;

/** A Unix-ms instant in a query: the `from`/`to` filters of the lists. */
export const UnixMsQuery = (description: string) =>
  Type.Integer({ minimum: 0, maximum: MAX_UNIX_MS, description });

/** A page offset beyond any real list, small enough for every engine's integer columns and LIMIT. */
export const MAX_OFFSET = 2_147_483_647;

export const IdParams = Type.Object({ id: Uuid() });
export type IdParams = Static<typeof IdParams>;

export const MessageReply = Type.Object({ message: Type.String() });
export const IdMessageReply = Type.Object({ id: Uuid(), message: Type.String() });

export const ValidationFailedReply = Type.Object({
  message: Type.String({ example: 'Validation failed' }),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
});

/** Bare-text bodies the spec shows for malformed ids and missing records. */
export const BareText = (example: string) => Type.String({ example, description: 'text/plain' });

/** The texts a `message` can hold, for its description: `A` or `B`. */
export const messageChoices = (messages: readonly string[]) =>
  messages.map((message) => `\`${message}\``).join(' or ');

/**
 * The body of a PUT that takes back what the resource's GET answered: clients edit a record by sending
 * the object they read. Fields of `writable` are applied as before; every other field of `view` is
 * accepted as `readOnly` (the document says so), whatever its value, and removed before validation and
 * the handler (core/validation.ts), so the handler's type is `writable`'s. A field no view has is still
 * refused by name.
 *
 * `state` names the view's fields that hold a state another route changes (a plate's `status`, which
 * `POST /orders/{id}/send` moves): those stay in the body, validated, so the service can answer 400
 * naming that route when the value sent differs from the stored one, rather than ignore a client that
 * believes it changed the state (issue 35). The same value, as a GET showed it, is fine.
 */
export function roundTripBody<
  View extends TObject,
  Writable extends TObject,
  State extends keyof View['properties'] & string = never,
>(
  view: View,
  writable: Writable,
  state: readonly State[] = [],
): TObject<Writable['properties'] & { [Name in State]: TOptional<View['properties'][Name]> }> {
  const readOnly = Object.fromEntries(
    Object.entries(view.properties)
      .filter(([name]) => !(name in writable.properties))
      .map(([name, schema]) => [
        name,
        Type.Optional({
          ...schema,
          readOnly: true,
          ...(state.includes(name as State) && { [STATE_KEYWORD]: true }),
        }),
      ]),
  );
  const { type: _type, required: _required, properties, ...options } = writable;
  return Type.Object({ ...readOnly, ...properties }, options) as never;
}

/** Marks a read-only field a body keeps for the service to compare (see roundTripBody). */
export const STATE_KEYWORD = 'x-state';

/** An optional free-text field that a client may send as `null` for "none", as views show no text. */
export const OptionalText = <Text extends TSchema>(text: Text, description?: string) =>
  Type.Optional(Type.Union([text, Type.Null()], description === undefined ? {} : { description }));

/** A 204 has no body; declared so the OpenAPI document lists it. */
export const NoContent = Type.Null({ description: 'No content' });

const errorReplies = {
  400: Type.Union([BareText('Missing or malformed ID'), ValidationFailedReply], {
    description: 'Missing or invalid parameters',
  }),
  401: Type.Object(
    {
      message: Type.String({ example: 'Unauthorized' }),
      reason: Type.Optional(
        Type.Enum(['missing', 'expired', 'invalid', 'revoked'], {
          type: 'string',
          description:
            'Why the token was refused, when the message is `Unauthorized`. `expired`: call POST /auth/refresh ' +
            '(on /auth/refresh itself: log in again). `missing`, `invalid` or `revoked`: show the login screen. ' +
            'Absent on wrong credentials and on `Wallet authentication required`.',
        }),
      ),
    },
    { description: 'Not authenticated' },
  ),
  403: Type.Object(
    { message: Type.String({ example: 'Unauthorized API access' }) },
    { description: 'Insufficient permissions' },
  ),
  404: BareText('Resource not found'),
  409: Type.Object({ message: Type.String() }, { description: 'Conflict' }),
  429: Type.Object(
    { message: Type.String({ example: 'Too many requests' }) },
    { description: 'Rate limited' },
  ),
  503: Type.Object({ message: Type.String() }, { description: 'A dependency is unavailable' }),
  504: Type.Object(
    { message: Type.String() },
    { description: 'A dependency was asked to act and did not say in time whether it did' },
  ),
} as const;

type ErrorCode = keyof typeof errorReplies;

/** The error answers a route can give, for its response schema: `...errors(400, 401, 404)`. */
export function errors<const Codes extends ErrorCode[]>(
  ...codes: Codes
): { [C in Codes[number]]: (typeof errorReplies)[C] } {
  return Object.fromEntries(codes.map((code) => [code, errorReplies[code]])) as {
    [C in Codes[number]]: (typeof errorReplies)[C];
  };
}

/** The answers every authenticated route shares. */
export const authErrors = () => errors(401, 403);

export type { Static, TSchema };
