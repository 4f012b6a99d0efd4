import { useEffect, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../api/client';
import { format, useStrings } from '../core/i18n';
import { currentUser } from '../core/session';
import { useStore } from '../core/store';
import { printerAlertStrings } from './printer-alert-strings';

type PrinterStatus = Ok<'/printers/status', 'get'>[number];

/** The permissions of GET /printers/status (any one): the kitchen's, the till's, the floor's. */
const MAY_READ = ['kitchen.advance', 'payments.take', 'receipts.print', 'printers.manage'];
/** A printer that goes off is noticed within this; the queue keeps its tickets meanwhile. */
export const PRINTER_STATUS_POLL_MS = 15_000;

/**
 * A banner per printer that is not printing, on the screens whose tickets wait for it (the kitchen, the
 * till), so nobody waits for a chit that is not coming. It goes away once a job prints again.
 */
export function PrinterAlert({ printerRole }: { printerRole?: PrinterStatus['role'] }) {
  const t = useStrings(printerAlertStrings);
  const user = useStore(currentUser);
  const mayRead = MAY_READ.some((permission) => user?.permissions.includes(permission));
  const [failing, setFailing] = useState<PrinterStatus[]>([]);

  useEffect(() => {
    if (!mayRead) return;
    let isShown = true;
    const load = async () => {
      try {
        const printers = (await ok(api.GET('/printers/status'))) ?? [];
        if (isShown) setFailing(printers.filter((printer) => printer.state === 'failing'));
      } catch {
        // Unreachable server: the offline banner says so; keep what was shown.
      }
    };
    void load();
    const timer = setInterval(() => void load(), PRINTER_STATUS_POLL_MS);
    return () => {
      isShown = false;
      clearInterval(timer);
    };
  }, [mayRead]);

  const shown = failing.filter((printer) => !printerRole || printer.role === printerRole);
  if (shown.length === 0) return null;
  return (
    <div class="printer-alerts">
      {shown.map((printer) => (
        <p key={printer.id} class="banner-printer" role="alert" data-printer-id={printer.id}>
          {format(printer.problem === 'out_of_paper' ? t.outOfPaper : t.unreachable, { name: printer.name })}
        </p>
      ))}
    </div>
  );
}
