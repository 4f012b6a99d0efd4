/** A message the screen reader announces at once: a refusal, a lost connection. */
export function Alert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}
