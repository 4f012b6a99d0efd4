import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal question over the screen: the browser's own <dialog>, so focus stays inside it and Escape
 * closes it (closing is the same as `onClose`, never as the confirming button).
 */
export function ModalDialog({
  title,
  children,
  onClose,
}: {
  title: string;
  children: ComponentChildren;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} class="modal-dialog" aria-labelledby="modal-dialog-title" onClose={onClose}>
      <h2 id="modal-dialog-title">{title}</h2>
      {children}
    </dialog>
  );
}
