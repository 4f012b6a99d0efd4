import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, keyHeader, type Ok, ok, writeOnce } from '../../api/client';

export type StationDish = Ok<'/menu', 'get'>['categories'][number]['dishes'][number];

/**
 * The dishes of one station's categories, for its 86 buttons and its list of sold-out dishes; read
 * again on `reload` (a dish.availability_changed event).
 */
export function useStationMenu(station: string): { dishes: StationDish[]; reload: () => void } {
  const [dishes, setDishes] = useState<StationDish[]>([]);
  const reload = useCallback(() => {
    void ok(api.GET('/menu'))
      .then((board) =>
        setDishes(
          board.categories
            .filter((category) => category.station === station)
            .flatMap((category) => category.dishes),
        ),
      )
      .catch(() => undefined);
  }, [station]);
  useEffect(reload, [reload]);
  return { dishes, reload };
}

/** The kitchen's "86" (sold out) and its undoing, through the write queue. */
export function setAvailability(dishId: string, available: boolean) {
  return writeOnce((key) =>
    api.PUT('/dishes/{id}/availability', {
      params: { path: { id: dishId } },
      headers: keyHeader(key),
      body: { available },
    }),
  );
}
