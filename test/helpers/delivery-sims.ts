import type { RappiSimulator } from '../rappi-sim/simulator';
import type { UberEatsSimulator } from '../ubereats-sim/simulator';

/**
 * The server's `POS_UBEREATS_*` and `POS_RAPPI_*` settings for the simulators given, so every test,
 * bench and demo that points the POS at them configures it the same way.
 */
export function deliveryAppsEnv(simulators: {
  uber?: UberEatsSimulator;
  rappi?: RappiSimulator;
}): Record<string, string> {
  const { uber, rappi } = simulators;
  return {
    ...(uber && {
      POS_UBEREATS_CLIENT_ID: uber.clientId,
      POS_UBEREATS_CLIENT_SECRET: uber.clientSecret,
      POS_UBEREATS_STORE_ID: uber.store.id,
      POS_UBEREATS_API_URL: uber.url,
      POS_UBEREATS_AUTH_URL: uber.url,
    }),
    ...(rappi && {
      POS_RAPPI_CLIENT_ID: rappi.platform.options.clientId,
      POS_RAPPI_CLIENT_SECRET: rappi.platform.options.clientSecret,
      POS_RAPPI_STORE_ID: rappi.platform.stores[0]?.id ?? '',
      POS_RAPPI_API_URL: rappi.url,
    }),
  };
}
