/** An amount the guest types (a tip, their part), in the format the page prints amounts. */
export function AmountField({
  label,
  text,
  isInvalid,
  onText,
}: {
  label: string;
  text: string;
  isInvalid: boolean;
  onText: (text: string) => void;
}) {
  return (
    <label class="guest-field">
      {label}
      <input
        inputMode="decimal"
        autoComplete="off"
        value={text}
        aria-invalid={isInvalid}
        onInput={(event) => onText(event.currentTarget.value)}
      />
    </label>
  );
}
