import { generate } from 'lean-qr';
import { toSvgDataURL } from 'lean-qr/extras/svg';
import { useMemo } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { type Strings, useStrings } from '../../core/i18n';
import { useLoaded } from './shared';

type Network = Ok<'/network', 'get'>;

const strings: Strings<'title' | 'help' | 'qrAlt' | 'others' | 'loopbackOnly' | 'viaProxy' | 'httpsNote'> = {
  en: {
    title: 'Open the POS on a tablet',
    help: 'Scan this code with the tablet’s camera, or type the address in its browser, then log in with your name and PIN.',
    qrAlt: 'QR code of the address tablets open',
    others: 'Other addresses of this server',
    loopbackOnly:
      'The server listens only on this machine (HOST=127.0.0.1): tablets cannot reach it. Start it with HOST=0.0.0.0, or put the HTTPS proxy in front and set POS_ALLOWED_HOSTS.',
    viaProxy: 'Through the HTTPS proxy, with the name set in POS_ALLOWED_HOSTS.',
    httpsNote:
      'Offline use and secure sign-in need HTTPS: install the proxy’s root certificate on each tablet (see the README).',
  },
  es: {
    title: 'Abrir el punto de venta en una tableta',
    help: 'Escanea este código con la cámara de la tableta, o escribe la dirección en su navegador, y entra con tu nombre y PIN.',
    qrAlt: 'Código QR de la dirección que abren las tabletas',
    others: 'Otras direcciones de este servidor',
    loopbackOnly:
      'El servidor solo escucha en esta máquina (HOST=127.0.0.1): las tabletas no llegan a él. Inícialo con HOST=0.0.0.0, o pon delante el proxy HTTPS y define POS_ALLOWED_HOSTS.',
    viaProxy: 'A través del proxy HTTPS, con el nombre definido en POS_ALLOWED_HOSTS.',
    httpsNote:
      'El uso sin conexión y el acceso seguro necesitan HTTPS: instala el certificado raíz del proxy en cada tableta (ver el README).',
  },
};

/** Where the web app lives on a server reached at `origin`. */
const appAt = (origin: string) => `${origin}/app/`;

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname.startsWith('127.');
}

/**
 * The addresses a tablet can open, best first: a configured public name (behind the HTTPS proxy),
 * then the server's addresses on the local network when it listens beyond this machine.
 */
export function tabletAddresses(network: Network): string[] {
  return [
    ...network.allowed_hosts.map((host) => appAt(`https://${host}`)),
    ...(network.listens_on_lan
      ? network.lan_addresses.map((ip) => appAt(`http://${ip}:${network.port}`))
      : []),
  ];
}

/**
 * Onboarding a tablet: the address to open, as a QR code. A page opened through a name or a LAN
 * address already shows it; on 127.0.0.1 the server says which addresses it has.
 */
export function TabletsSection() {
  const t = useStrings(strings);
  const isOpenedFromAfar = !isLoopback(location.hostname);
  const network = useLoaded(
    async () => (isOpenedFromAfar ? undefined : ok(api.GET('/network'))),
    [isOpenedFromAfar],
  );
  const addresses = isOpenedFromAfar
    ? [appAt(location.origin)]
    : network.data
      ? tabletAddresses(network.data)
      : [];
  const [best, ...others] = addresses;
  const qr = useMemo(() => (best ? toSvgDataURL(generate(best)) : undefined), [best]);
  const isProxied = network.data !== undefined && network.data.allowed_hosts.length > 0;

  return (
    <section class="card stack tablets" aria-labelledby="tablets-title">
      <h2 id="tablets-title">{t.title}</h2>
      <Alert message={network.error} />
      {network.data && !best && (
        <p class="error" role="alert">
          {t.loopbackOnly}
        </p>
      )}
      {best && qr && (
        <>
          <p>{t.help}</p>
          <img class="tablet-qr" src={qr} alt={t.qrAlt} width={240} height={240} />
          <p class="tablet-address">
            <a href={best}>{best}</a>
          </p>
          {isProxied && <p class="muted">{t.viaProxy}</p>}
          {!best.startsWith('https:') && <p class="muted">{t.httpsNote}</p>}
        </>
      )}
      {others.length > 0 && (
        <>
          <h3>{t.others}</h3>
          <ul class="tablet-others">
            {others.map((address) => (
              <li key={address}>
                <a href={address}>{address}</a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
