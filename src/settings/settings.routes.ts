import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { authErrors, errors, roundTripBody } from '../core/schemas';
import { SettingsView, UpdateSettingsBody } from './settings.schemas';
import * as service from './settings.service';

export const settingsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/settings',
    {
      schema: {
        tags: ['Settings'],
        operationId: 'getSettings',
        summary: 'The business settings',
        description: 'Any signed-in user may read them: receipts, reports and the till use them.',
        response: { 200: SettingsView, ...authErrors() },
      },
    },
    () => service.getSettings(ctx),
  );

  app.put(
    '/settings',
    {
      schema: {
        tags: ['Settings'],
        operationId: 'updateSettings',
        summary: 'Change the business settings',
        description:
          'Only the fields sent change. Changing `base_currency` while any bill is pending: 409 ' +
          `\`{"message":"${service.CURRENCY_CHANGE_REFUSED}"}\`.`,
        body: roundTripBody(SettingsView, UpdateSettingsBody),
        response: { 200: SettingsView, ...errors(400, 401, 403, 409) },
      },
    },
    (request) => service.updateSettings(ctx, principalOf(request), request.body),
  );
};
