import { useServerText } from '../../core/server-text';

/** Every restaurant has these; a station a category got through the API is offered too. */
const STATIONS = ['kitchen', 'bar'];

/** The stations to choose from: the usual two, then any other the dish categories already use. */
export function stationsOf(inUse: readonly (string | null | undefined)[]): string[] {
  const others = inUse.filter((station): station is string => !!station && !STATIONS.includes(station));
  return [...STATIONS, ...new Set(others)];
}

/**
 * A station by its name in the screen's language ("Cocina", "Barra"); the value sent stays the API's
 * (`kitchen`, `bar`). With `emptyLabel`, an empty first choice: every station, or another one.
 */
export function StationSelect({
  id,
  value,
  stations,
  emptyLabel,
  disabled,
  onChange,
}: {
  id: string;
  value: string;
  stations: readonly string[];
  emptyLabel?: string;
  disabled?: boolean;
  onChange: (station: string) => void;
}) {
  const serverText = useServerText();
  const choices = value && !stations.includes(value) ? [...stations, value] : stations;
  return (
    <select
      id={id}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.currentTarget.value)}
    >
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {choices.map((station) => (
        <option key={station} value={station}>
          {serverText(station)}
        </option>
      ))}
    </select>
  );
}
