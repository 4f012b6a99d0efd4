import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../api/client';
import { useStore } from '../api/store';
import { useLiveEvents } from '../core/events';
import { format, useStrings } from '../core/i18n';
import { currentUser } from '../core/session';
import { printerAlertStrings } from './printer-alert-strings';

type PrinterStatus = Ok<'/printers/status', 'get'>[number];

/** The permissions of GET /printers/status (any one): the kitchen's, the till's, the floor's. */
const MAY_READ = ['kitchen.advance', 'payments.take', 'receipts.print', 'printers.manage'];
/**
 * The live stream says at once when a printer fails or prints again; this catches what it cannot say: a
 * printer deleted, or a given-up job pruned from the queue after a month.
 */
export const PRINTER_STATUS_POLL_MS = 60_000;

/**
 * A banner per printer that is not printing, on the screens whose tickets wait for it (the kitchen, the
 * till), so nobody waits for a chit that is not coming. It goes away once a job prints again.
 */
export function PrinterAlert({ printerRole }: { printerRole?: PrinterStatus['role'] }) {
  const user = useStore(currentUser);
  const mayRead = MAY_READ.some((permission) => user?.permissions.includes(permission));
  return mayRead ? <PrinterBanners printerRole={printerRole} /> : null;
}

function PrinterBanners({ printerRole }: { printerRole: PrinterStatus['role'] | undefined }) {
  const t = useStrings(printerAlertStrings);
  const [failing, setFailing] = useState<PrinterStatus[]>([]);
  const isShown = useRef(true);

  const load = async () => {
    try {
      const printers = (await ok(api.GET('/printers/status'))) ?? [];
      if (isShown.current) setFailing(printers.filter((printer) => printer.state === 'failing'));
    } catch {
      // Unreachable server: the offline banner says so; keep what was shown.
    }
  };
  useLiveEvents(
    ['printers'],
    () => void load(),
    () => void load(),
  );
  useEffect(() => {
    isShown.current = true;
    void load();
    const timer = setInterval(() => void load(), PRINTER_STATUS_POLL_MS);
    return () => {
      isShown.current = false;
      clearInterval(timer);
    };
  }, []);

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
