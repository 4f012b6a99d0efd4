import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SETUP_COUNTRIES } from '../config';
import type { AppContext } from '../core/context';
import { errors, IdMessageReply } from '../core/schemas';
import { Pin, UserName } from '../users/users.schemas';
import * as service from './setup.service';

const SetupBody = Type.Object(
  {
    name: UserName,
    pin: Pin(),
    wallet_password: Type.Optional(
      Type.String({ minLength: 8, maxLength: 200, description: 'Unlocks the wallet' }),
    ),
    country: Type.Optional(
      Type.Union(
        SETUP_COUNTRIES.map((code) => Type.Literal(code)),
        {
          description:
            'Prepares the settings for the country: MX sets IVA 16 % included in prices, ' +
            'America/Mexico_City, MXN and es-MX paper; other (or absent, without POS_COUNTRY) keeps them',
          example: 'MX',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const setupRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/initial-setup',
    {
      config: { public: true },
      schema: {
        tags: ['Setup'],
        operationId: 'getSetupStatus',
        summary: 'Whether the first administrator exists',
        response: { 200: Type.Object({ initialized: Type.Boolean() }) },
      },
    },
    async () => ({ initialized: await service.isInitialized(ctx) }),
  );

  app.post(
    '/initial-setup',
    {
      config: { public: true, rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['Setup'],
        operationId: 'createFirstAdmin',
        summary: 'Create the first administrator',
        description: 'Works only while no user exists; afterwards 403.',
        body: SetupBody,
        response: { 201: IdMessageReply, ...errors(400, 403, 429) },
      },
    },
    async (request, reply) => {
      const { name, pin, wallet_password, country } = request.body;
      const admin = await service.completeInitialSetup(ctx, {
        name,
        pin,
        walletPassword: wallet_password,
        country,
      });
      return reply.code(201).send({ id: admin.id, message: 'Initial setup completed' });
    },
  );
};
